/**
 * Sync's problems in plain words. The sync client reports what went wrong in its own terms
 * ("the remote could not be reached (fetch failed)"); a planner needs to know what it means
 * for them and what to do. Refused changes carry the API's error body; its descriptions are
 * the reason. Pure (test/renderer/sync-words.test.ts).
 */
import { fieldLabels, fieldMessage, type LabelledResource } from '../../api/field-labels.js';
import type { Translate } from '../../i18n/index.js';
import type { ApiErrorItem } from '../../../shared/errors.js';
import type { Conflict } from '../../../shared/operations/sync.js';

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
}

/**
 * Why the remote refused a change: one line per problem it named. A problem with a field of a
 * `resource` the screens label is said in their words (api/field-labels.ts), as the form would.
 */
export function refusalReasons(error: unknown, t: Translate, resource?: string): string[] {
  const items = (error as { errors?: unknown } | null)?.errors;
  if (!Array.isArray(items) || items.length === 0) return [t('conflict.noReason')];
  const labelled = resource !== undefined && Object.hasOwn(fieldLabels, resource) ? (resource as LabelledResource) : undefined;
  return items.map((item: ErrorItem) => {
    const worded = labelled && typeof item.field === 'string' ? fieldMessage(t, labelled, item as ApiErrorItem) : undefined;
    if (worded) return worded;
    const text =
      typeof item.description === 'string' && item.description
        ? item.description
        : typeof item.message === 'string'
          ? item.message
          : t('conflict.noReason');
    return typeof item.field === 'string' && !text.startsWith(item.field) ? `${item.field}: ${text}` : text;
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
