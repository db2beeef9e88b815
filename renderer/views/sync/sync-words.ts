/**
 * Sync's problems in plain words. The sync client reports what went wrong in its own terms
 * ("the remote could not be reached (fetch failed)"); a planner needs to know what it means
 * for them and what to do. Refused changes carry the API's error body; its descriptions are
 * the reason. Pure (test/renderer/sync-words.test.ts).
 */
import { fieldLabels, fieldMessage, ruleMessage, type LabelledResource } from '../../api/field-labels.js';
import type { Translate } from '../../i18n/index.js';
import type { ApiErrorItem } from '../../../shared/errors.js';
import type { Conflict } from '../../../shared/operations/sync.js';
import { fieldLabel, valueText as readableValue } from './overruled-words.js';

/** What the last sync problem means, in the planner's language. */
export function plainSyncProblem(problem: string, t: Translate): string {
  const text = problem.toLowerCase();
  if (text.includes('could not be reached') || /econnrefused|enotfound|fetch failed|timed? ?out|abort/.test(text))
    return t('sync.problem.unreachable');
  if (text.includes('no remote is set up')) return t('sync.problem.notSetUp');
  // Before "expired": a limit is waited out, whatever else its message says.
  if (text.includes('rate limiting') || text.includes('(429)')) return t('sync.problem.rateLimited');
  if (text.includes('sign in again') || text.includes('expired')) return t('sync.problem.signInAgain');
  if (/not logged in|401|api key|credentials/.test(text)) return t('sync.problem.refusedKey');
  if (/forbidden|403/.test(text)) return t('sync.problem.forbidden');
  if (/not json|malformed|cut off|only part/.test(text)) return t('sync.problem.garbled');
  return t('sync.problem.other', { problem });
}

interface ErrorItem {
  description?: unknown;
  message?: unknown;
  field?: unknown;
  rule?: unknown;
}

/** A day or a moment as the API writes it (ISO), inside a sentence. */
const isoDays = /\b\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?(?![\d-])/g;

/** The days and moments in a reason written as the app writes them ("Mon, 7 Dec 2026"), not as ISO. */
function readableDays(text: string, t: Translate): string {
  return text.replace(isoDays, (iso) => readableValue(iso, null, t));
}

/**
 * Why the remote refused a change: one line per problem it named, in the planner's words. A
 * field is named by its label: for a `resource` the screens label, as its form would say it
 * (api/field-labels.ts); otherwise by the label sync gives it, with the broken rule worded as a
 * form would, or the API's description after it. Days are written as the app writes them.
 */
export function refusalReasons(error: unknown, t: Translate, resource?: string): string[] {
  const items = (error as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(items) || items.length === 0) return [t('conflict.noReason')];
  const labelled = resource !== undefined && Object.hasOwn(fieldLabels, resource) ? (resource as LabelledResource) : undefined;
  return items.map((item: ErrorItem) => {
    const field = typeof item.field === 'string' ? item.field : undefined;
    // The API's error items have the shape of ApiErrorItem; a rule this app does not know is worded by its description.
    const apiItem = item as ApiErrorItem;
    const worded = labelled && field ? fieldMessage(t, labelled, apiItem) : undefined;
    if (worded) return worded;
    const label = field ? fieldLabel(resource ?? '', field, t) : undefined;
    const ruled = label && typeof item.rule === 'string' ? ruleMessage(t, label, apiItem) : undefined;
    if (ruled) return ruled;
    const text = readableDays(
      typeof item.description === 'string' && item.description
        ? item.description
        : typeof item.message === 'string'
          ? item.message
          : t('conflict.noReason'),
      t,
    );
    if (!field || !label) return text;
    // "name is required" names the field by its API name: say its label instead.
    return text.startsWith(field) ? `${label}${text.slice(field.length)}` : `${label}: ${text}`;
  });
}

/** A record's name, for saying which one a change was about. */
export function recordName(fields: Record<string, unknown> | null | undefined): string | null {
  for (const key of ['name', 'code', 'description', 'email', 'external_ref']) {
    const value = fields?.[key];
    if (typeof value === 'string' && value) return value;
  }
  return null;
}

/**
 * A refused action of several changes (docs/API.md "Sync", "Actions sync whole"), said as the
 * planner did it ("Move 5 cards"); null for a single refused change, which is said by its record.
 */
export function refusedAction(conflict: Pick<Conflict, 'group'>, t: Translate): string | null {
  const group = conflict.group;
  if (!group || group.items.length < 2) return null;
  return t.count('conflict.refusedAction', group.items.length, { action: group.description ?? t('conflict.anAction') });
}
