/**
 * Time tracking (`/v1/time_tracking`). The rules, the same for API calls and synced changes:
 *
 *  - `duration` is minutes from `start` to `end`, rounded; without an end the timer runs;
 *  - a user has at most one running timer: starting one stops the previous one at the new
 *    one's start. Timers started on replicas apart meet on the remote: there the one started
 *    last keeps running and the others stop at its start, a change that syncs to every replica;
 *  - status changes follow `timeTransitions`; approving (and reopening) needs a planner role
 *    when the caller is a user; an approved entry is locked: it cannot be changed or deleted
 *    (except reopened by a planner), but its export fields (external_ref, external_note,
 *    external_failed, synchronized_at) stay writable;
 *  - whose entries (docs/API.md "Permissions"): API keys and planners (admin, manager,
 *    organiser) book, change, stop, delete and mark exported anyone's; a member only their own
 *    (a `user_id` they leave out or send as null is theirs), and not the export fields. The same
 *    holds for a replica's pushed changes, as the user who signed the replica in.
 */
import type { FieldProblem } from '../../../shared/errors.js';
import { timeTrackingSpec, timeTransitions, type TimeStatus } from '../../../shared/resources/time-tracking.js';
import { tableFor, type StoredRecord } from '../../store/environment-store.js';
import { ApiError } from '../errors.js';
import { isPlanner } from '../permissions.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { registerTimeTrackingRoutes } from '../time-tracking/routes.js';
import { activityModule } from './activity.js';
import { cardModule } from './card.js';
import { userModule } from './user.js';

/**
 * Fields a change of which does not touch a locked entry's tracked time: the ones integrations
 * keep for their exports, and the server-owned ones (recomputed on every write).
 */
const unlockedFields = new Set([
  'external_ref',
  'external_note',
  'external_failed',
  'synchronized_at',
  ...Object.entries(timeTrackingSpec.fields as Record<string, { readOnly?: boolean }>).filter(([, f]) => f.readOnly).map(([name]) => name),
]);

export const lockedMessage = 'This time entry is approved and locked: it cannot be changed or deleted (a planner can reopen it).';

export function minutesBetween(start: string, end: string): number {
  return Math.round((Date.parse(end) - Date.parse(start)) / 60_000);
}

/**
 * The export bookkeeping: what `mark_exported` sets and payroll writes back. Integrations and
 * planners keep it; a member who could set it would take their own time out of the billing
 * export (`filter=synchronized_at:eq:null`).
 */
const exportFields = ['synchronized_at', 'external_ref', 'external_note', 'external_failed'] as const;

export const ownEntriesMessage = 'A member books, changes, stops and deletes only their own time entries; an admin, manager or organiser keeps everyone\'s.';
export const exportMessage = 'Only an admin, manager or organiser (or an integration with an API key) marks time entries exported.';

/** 403 unless the caller may act on this entry: a planner, or the member whose entry it is. */
export function checkOwnEntry(ctx: RequestContext, entry: StoredRecord): void {
  if (!isPlanner(ctx.caller) && entry.user_id !== ctx.caller.userId) throw ApiError.forbidden(ownEntriesMessage);
}

/**
 * A member's write: the entry stays theirs (a `user_id` left out or sent as null means them,
 * as the desktop app's replica sends entries tracked without a user) and its export fields
 * stay as they are. A field sent unchanged is no change.
 */
function checkMemberWrite(ctx: RequestContext, values: Record<string, unknown>, current: StoredRecord | undefined): void {
  if (current) checkOwnEntry(ctx, current);
  if (values.user_id === null || (!current && values.user_id === undefined)) values.user_id = ctx.caller.userId ?? null;
  if (values.user_id !== undefined && values.user_id !== ctx.caller.userId) throw ApiError.forbidden(ownEntriesMessage);
  const fields = timeTrackingSpec.fields as Record<string, { default?: unknown }>;
  const changed = exportFields.filter((f) => values[f] !== undefined && values[f] !== (current ? current[f] : (fields[f]?.default ?? null)));
  if (changed.length > 0) throw ApiError.forbidden(exportMessage);
}

function checkTransition(ctx: RequestContext, from: TimeStatus, to: TimeStatus): FieldProblem[] {
  if (from === to) return [];
  const step = timeTransitions[from].find((t) => t.to === to);
  if (!step) return [{ field: 'status', description: `status cannot change from ${from} to ${to}` }];
  if (step.planner && !isPlanner(ctx.caller)) throw ApiError.forbidden(`Only an admin, manager or organiser may set a time entry to ${to}.`);
  return [];
}

function checkEntry(ctx: RequestContext, values: Record<string, unknown>, current: StoredRecord | undefined): FieldProblem[] {
  if (!isPlanner(ctx.caller)) checkMemberWrite(ctx, values, current);
  const from = (current?.status as TimeStatus | undefined) ?? 'draft';
  const to = (values.status as TimeStatus | undefined) ?? from;
  if (current?.locked) {
    // The tracked time is frozen; the export bookkeeping stays writable (payroll writes back
    // its reference or a failure), and a record sent back unchanged changes nothing. Server-owned
    // fields (sync sends them; they are recomputed below) do not count.
    const changing = Object.keys(values).filter((f) => f !== 'status' && !unlockedFields.has(f) && values[f] !== current[f]);
    if (changing.length > 0 || (to !== 'approved' && to !== 'pending')) return [{ field: 'status', description: lockedMessage }];
  }
  const problems = checkTransition(ctx, from, to);
  if (!current && values.user_id === undefined && ctx.caller.kind === 'user') values.user_id = ctx.caller.userId ?? null;
  const start = (values.start ?? current?.start) as string;
  const end = ('end' in values ? values.end : current?.end) as string | null;
  if (start && end && end < start) problems.push({ field: 'end', description: 'end may not be before start' });
  if (to === 'approved' && !end) problems.push({ field: 'status', description: 'a running timer cannot be approved; stop it first' });
  // Server-owned figures follow from the rest.
  values.duration = start && end ? minutesBetween(start, end) : null;
  values.running = !end;
  values.locked = to === 'approved';
  return problems;
}

function runningTimers(ctx: RequestContext, userId: unknown): StoredRecord[] {
  return ctx.store.list(timeTrackingModule.table, { match: { user_id: userId, running: true }, limit: 100, offset: 0 }).rows;
}

/** Stops the user's other running timers at this one's start (one running timer per user). */
function stopOtherTimers(ctx: RequestContext, entry: StoredRecord): void {
  for (const other of runningTimers(ctx, entry.user_id)) {
    if (other.id === entry.id) continue;
    const end = (other.start as string) > (entry.start as string) ? (other.start as string) : (entry.start as string);
    ctx.store.update(timeTrackingModule.table, other.id, { end, running: false, duration: minutesBetween(other.start as string, end) });
  }
}

/** The user's running timer that started last (the larger id on a tie), this one included. */
function lastStarted(ctx: RequestContext, entry: StoredRecord): StoredRecord {
  const later = (x: StoredRecord, y: StoredRecord) => Date.parse(x.start as string) - Date.parse(y.start as string) || (x.id > y.id ? 1 : -1);
  return runningTimers(ctx, entry.user_id).reduce((last, other) => (later(other, last) > 0 ? other : last), entry);
}

export const timeTrackingModule: ResourceModule = {
  spec: timeTrackingSpec,
  table: tableFor(timeTrackingSpec),
  path: '/time_tracking',
  relations: {
    card: { kind: 'belongsTo', target: () => cardModule, foreignKey: 'card_id' },
    activity: { kind: 'belongsTo', target: () => activityModule, foreignKey: 'activity_id' },
    user: { kind: 'belongsTo', target: () => userModule, foreignKey: 'user_id' },
  },
  rules: {
    check: checkEntry,
    checkDelete(ctx, entry) {
      checkOwnEntry(ctx, entry);
      return entry.locked ? [{ field: 'id', description: lockedMessage }] : [];
    },
    checkRestore: checkOwnEntry,
    afterWrite(ctx, entry) {
      if (entry.running) stopOtherTimers(ctx, entry);
    },
    afterSynced(ctx, entry) {
      if (entry.running) stopOtherTimers(ctx, lastStarted(ctx, entry));
    },
  },
  routes: registerTimeTrackingRoutes,
};
