/**
 * Time tracking (`/v1/time_tracking`). The rules, the same for API calls and synced changes:
 *
 *  - an entry is on a card, or on an activity with no card; naming no activity on a card with
 *    exactly one, it gets that one;
 *  - `duration` is minutes from `start` to `end`, rounded; without an end the timer runs; sent
 *    without an end, `duration` sets it. The end is after the start (`overnight: true` moves an
 *    earlier end to the next day), an entry lasts at most 24 hours and a user books at most 24
 *    hours a day; overlapping entries and forgotten timers are flagged (time-tracking/entry-time.ts);
 *  - a user has at most one running timer: starting one stops the previous one at the new
 *    one's start. Timers started on replicas apart meet on the remote: there the one started
 *    last keeps running and the others stop at its start, a change that syncs to every replica;
 *  - status changes follow `timeTransitions`; approving (and reopening) needs a planner role
 *    when the caller is a user; an approved entry is locked, and a planner may lock (or unlock)
 *    any finished entry with `locked`: a locked entry cannot be changed or deleted (except
 *    reopened or unlocked by a planner), but its export fields (external_ref, external_note,
 *    external_failed, synchronized_at) stay writable;
 *  - whose entries (docs/API.md "Permissions"): API keys and planners (admin, manager,
 *    organiser) book, change, stop, delete and mark exported anyone's; a member only their own
 *    (a `user_id` they leave out or send as null is theirs), and not the export fields. The same
 *    holds for a replica's pushed changes, as the user who signed the replica in;
 *  - an entry whose days (shared/closed-periods.ts `entryDays`, in its user's time zone) meet a
 *    closed payroll period is neither created, changed, deleted nor restored, and no entry is moved into
 *    or out of one: 409 naming the period (docs/API.md "Closed periods"). As on a locked entry,
 *    its export fields stay writable.
 */
import type { FieldProblem } from '../../../shared/errors.js';
import type { FieldSpec } from '../../../shared/fields.js';
import { nowTimestamp } from '../../../shared/ids.js';
import { timeTrackingSpec, timeTransitions, type TimeStatus } from '../../../shared/resources/time-tracking.js';
import type { StoredOf, StoredRecord } from '../../../shared/fields.js';
import { ApiError } from '../errors.js';
import { isPlanner } from '../permissions.js';
import type { RequestContext, ResourceModule, ResourceRules } from '../resource.js';
import {
  dayLimitProblems,
  endAfter,
  flagEntries,
  maxEntryMinutes,
  overnightEnd,
  spanProblems,
  userTimeZone,
} from '../time-tracking/entry-time.js';
import { tables } from '../tables.js';
import { closedPeriodMessage, closedPeriodOver, entryDays, type PeriodDays } from '../../../shared/closed-periods.js';
import type { RecordWrites } from '../../store/record-store.js';

type TimeEntry = StoredOf<typeof timeTrackingSpec>;

/**
 * Fields a change of which does not touch a locked entry's tracked time: the ones integrations
 * keep for their exports, and the server-owned ones (recomputed on every write).
 */
const unlockedFields = new Set([
  'external_ref',
  'external_note',
  'external_failed',
  'synchronized_at',
  ...Object.entries<FieldSpec>(timeTrackingSpec.fields)
    .filter(([, f]) => f.readOnly)
    .map(([name]) => name),
]);

export const lockedMessage = 'This time entry is approved or locked: it cannot be changed or deleted (a planner can reopen or unlock it).';
export const lockMessage = 'Only an admin, manager or organiser (or an integration with an API key) locks or unlocks time entries.';
export const approvedLockMessage = 'An approved entry stays locked; reopen it (status pending) to unlock it.';
export const noCardMessage = 'a time entry needs a card, or an activity when it is on no card (card_id or activity_id)';

export function minutesBetween(start: string, end: string): number {
  return Math.round((Date.parse(end) - Date.parse(start)) / 60_000);
}

/**
 * The export bookkeeping: what `mark_exported` sets and payroll writes back. Integrations and
 * planners keep it; a member who could set it would take their own time out of the billing
 * export (`filter=synchronized_at:eq:null`).
 */
const exportFields = ['synchronized_at', 'external_ref', 'external_note', 'external_failed'] as const;

export const ownEntriesMessage =
  "A member books, changes, stops and deletes only their own time entries; an admin, manager or organiser keeps everyone's.";
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
  const fields: Record<string, FieldSpec | undefined> = timeTrackingSpec.fields;
  const changed = exportFields.filter(
    (f) => values[f] !== undefined && values[f] !== (current ? current[f] : (fields[f]?.default ?? null)),
  );
  if (changed.length > 0) throw ApiError.forbidden(exportMessage);
}

function checkTransition(ctx: RequestContext, from: TimeStatus, to: TimeStatus): FieldProblem[] {
  if (from === to) return [];
  const step = timeTransitions[from].find((t) => t.to === to);
  if (!step) return [{ field: 'status', description: `status cannot change from ${from} to ${to}` }];
  if (step.planner && !isPlanner(ctx.caller))
    throw ApiError.forbidden(`Only an admin, manager or organiser may set a time entry to ${to}.`);
  return [];
}

/** Two stored values (or a missing and a null one) that are the same. */
const same = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/**
 * With several activities on a card the planner picks one; with exactly one, an entry that
 * names none gets it (the card's own activities, else its stage's), so timer and week sheet
 * entries carry an activity, its rate and its billable flag into the reports.
 */
async function defaultActivity(tx: RecordWrites, cardId: string): Promise<string | null> {
  const card = await tx.get(tables.card, cardId);
  if (!card) return null;
  const own = await tx.getWhereIn(tables.card_activity, 'card_id', [cardId]);
  if (own.length > 0) return own.length === 1 ? own[0]!.activity_id : null;
  const staged = await tx.getWhereIn(tables.stage_activity, 'stage_id', [card.stage_id]);
  return staged.length === 1 ? staged[0]!.activity_id : null;
}

/**
 * Starting a timer stops the user's running one at the new one's start (`stopOtherTimers`),
 * a write the rules would not see: it is checked here instead, so a forgotten timer is not
 * turned into an entry of more than 24 hours by starting the next one.
 */
async function otherTimerProblems(tx: RecordWrites, userId: unknown, id: string | undefined, start: string): Promise<FieldProblem[]> {
  for (const other of await runningTimers(tx, userId)) {
    if (other.id === id) continue;
    const end = other.start > start ? other.start : start;
    if (Date.parse(end) - Date.parse(other.start) > maxEntryMinutes * 60_000) {
      return [
        {
          field: 'start',
          description: `the timer started at ${other.start} still runs and would be stopped here after more than 24 hours; stop it with its real end first`,
          rule: 'timerRunning',
        },
      ];
    }
  }
  return [];
}

async function checkEntry(
  ctx: RequestContext,
  tx: RecordWrites,
  values: Record<string, unknown>,
  current: TimeEntry | undefined,
  _parent?: Record<string, unknown>,
  input: Record<string, unknown> = {},
): Promise<FieldProblem[]> {
  const planner = isPlanner(ctx.caller);
  // A replica's change carries what its own rules made of it (end from duration, overnight,
  // the default activity): the remote checks the result and does not apply them again.
  const synced = ctx.origin === 'sync';
  if (!planner) checkMemberWrite(ctx, values, current);
  const from = current?.status ?? 'draft';
  // `values` passed field validation: a status sent is one of the enum's.
  const to = (values.status as TimeStatus | undefined) ?? from;
  const lockChange = values.locked !== undefined && values.locked !== (current?.locked ?? false);
  if (lockChange && !planner) throw ApiError.forbidden(lockMessage);
  if (current?.locked) {
    // The tracked time is frozen; the export bookkeeping stays writable (payroll writes back
    // its reference or a failure), and a record sent back unchanged changes nothing. Server-owned
    // fields (sync sends them; they are recomputed below) do not count. A planner unlocks an
    // entry locked on its own (not approved) by sending locked: false, and may change it then.
    const unlocking = values.locked === false && from !== 'approved';
    if (!unlocking) {
      const stored: StoredRecord = current;
      const changing = Object.keys(values).filter(
        (f) => f !== 'status' && f !== 'locked' && !unlockedFields.has(f) && !same(values[f], stored[f]),
      );
      const statusAllowed = to === from || to === 'approved' || (from === 'approved' && to === 'pending');
      if (changing.length > 0 || !statusAllowed) return [{ field: 'status', description: lockedMessage }];
      if (from === 'approved' && to === 'approved' && values.locked === false)
        return [{ field: 'locked', description: approvedLockMessage }];
    }
  }
  const problems = checkTransition(ctx, from, to);
  // The caller's user: a signed-in user, or the app's user on the desktop's bridge (api/app-user.ts).
  if (!current && values.user_id === undefined && ctx.caller.userId) values.user_id = ctx.caller.userId;

  const cardId = ('card_id' in values ? values.card_id : current?.card_id) ?? null;
  if (!synced && !current && values.activity_id === undefined && typeof cardId === 'string') {
    const activityId = await defaultActivity(tx, cardId);
    if (activityId) values.activity_id = activityId;
  }
  const activityId = ('activity_id' in values ? values.activity_id : current?.activity_id) ?? null;
  // A card_id or activity_id refused by its own check already has its 422.
  const refused =
    (input.card_id !== undefined && input.card_id !== null && !('card_id' in values)) ||
    (input.activity_id !== undefined && input.activity_id !== null && !('activity_id' in values));
  if (!cardId && !activityId && !refused && (!current || 'card_id' in values || 'activity_id' in values)) {
    problems.push({ field: 'card_id', description: noCardMessage });
  }

  // Validated or stored date-times (strings), or null for no end.
  const start = (values.start ?? current?.start) as string | undefined;
  let end = ('end' in values ? values.end : current?.end) as string | null | undefined;
  // A timer stopped now (running: false, as the stop routes send) in the second it started
  // ends when it started: a 0-minute entry, the one kind allowed to end at its start.
  let stoppedNow = false;
  if (!synced && start) {
    // `duration` on write (the public API's clients send start + duration): it sets the end,
    // unless the end is sent too, when both must agree.
    const durationSent = typeof values.duration === 'number' && values.duration !== (current?.duration ?? null);
    const endSent = 'end' in values && !same(values.end, current?.end);
    // durationSent holds only for a number.
    if (durationSent && !endSent) end = values.end = endAfter(start, values.duration as number);
    else if (durationSent && end && minutesBetween(start, end) !== values.duration) {
      problems.push({ field: 'duration', description: 'duration and end disagree: send one of them' });
    }
    if (input.overnight === true && end && Date.parse(end) <= Date.parse(start)) end = values.end = overnightEnd(start, end);
    // `running` is server-owned (it is "no end"), but a client of the public API stops a timer
    // with running: false: that stops it now, as POST …/stop does. running: true is never a
    // change: a finished entry restarts only by clearing its end (or POST /start).
    if (input.running === false && current?.running && !('end' in values) && !durationSent) {
      end = values.end = nowTimestamp();
      stoppedNow = true;
    } else if (input.running === true && end && !current?.running)
      problems.push({ field: 'running', description: 'a finished entry does not run again: send end: null, or start a new timer' });
  }
  const userId = (values.user_id !== undefined ? values.user_id : current?.user_id) ?? null;
  const timeChanged = !current || !same(start, current.start) || !same(end, current.end) || !same(userId, current.user_id);
  // The day limit and the one running timer are decided on the user's other entries: the user
  // is locked first, so two entries of theirs written at once on two nodes take turns, whether
  // a planner or a replica's push writes them.
  if (start && timeChanged && typeof userId === 'string') await tx.sync.getForSync(tables.user, userId, { lock: true });
  if (start && end && timeChanged && !(stoppedNow && end === start)) {
    const span = spanProblems(start, end);
    problems.push(...span);
    if (span.length === 0 && typeof userId === 'string')
      problems.push(...(await dayLimitProblems(tx, { ...(current ? { id: current.id } : {}), userId, start, end })));
  }
  if (start && !end && timeChanged && !synced) problems.push(...(await otherTimerProblems(tx, userId, current?.id, start)));
  if (to === 'approved' && !end) problems.push({ field: 'status', description: 'a running timer cannot be approved; stop it first' });
  else if (values.locked === true && !end)
    problems.push({ field: 'locked', description: 'a running timer cannot be locked; stop it first' });
  // Server-owned figures follow from the rest. Approving locks; reopening unlocks (unless the
  // planner sends locked: true with it); otherwise the lock is what was sent or stored.
  values.duration = start && end ? minutesBetween(start, end) : null;
  values.running = !end;
  // A validated or stored boolean.
  values.locked =
    to === 'approved' ? true : from === 'approved' ? values.locked === true : ((values.locked ?? current?.locked ?? false) as boolean);
  // A closed payroll period: what is stored there stays, and nothing is moved in. A record sent
  // back unchanged, or a change of only the export bookkeeping, writes no tracked time; a
  // deleted entry a replica brings back (sync passes it with its deleted_at) is written anew.
  const stored: StoredRecord | undefined = current;
  const changes =
    !stored || Boolean(stored.deleted_at) || Object.keys(values).some((f) => !unlockedFields.has(f) && !same(values[f], stored[f]));
  if (changes && start) {
    const periods = (await tx.list(tables.closed_period, { limit: 1_000_000, offset: 0 })).rows;
    if (periods.length > 0) {
      const storedUser = typeof stored?.user_id === 'string' ? await tx.get(tables.user, stored.user_id) : undefined;
      const user = typeof userId === 'string' ? (userId === stored?.user_id ? storedUser : await tx.get(tables.user, userId)) : undefined;
      const closed =
        (current && closedPeriodOver(periods, entryDays(current.start, current.end, userTimeZone(storedUser)))) ||
        closedPeriodOver(periods, entryDays(start, end, userTimeZone(user)));
      if (closed) throw ApiError.conflict(closedPeriodMessage(closed));
    }
  }
  return problems;
}

/** 409 when a closed payroll period holds the entry (a delete, a restore): its time stays as paid. */
export function refuseClosedPeriod(periods: readonly PeriodDays[], entry: TimeEntry, timeZone: string): void {
  const closed = closedPeriodOver(periods, entryDays(entry.start, entry.end, timeZone));
  if (closed) throw ApiError.conflict(closedPeriodMessage(closed));
}

async function runningTimers(tx: RecordWrites, userId: unknown): Promise<TimeEntry[]> {
  return (await tx.list(tables.time_tracking, { match: { user_id: userId, running: true }, limit: 100, offset: 0 })).rows;
}

/** Stops the user's other running timers at this one's start (one running timer per user). */
async function stopOtherTimers(tx: RecordWrites, entry: TimeEntry): Promise<void> {
  for (const other of await runningTimers(tx, entry.user_id)) {
    if (other.id === entry.id) continue;
    const end = other.start > entry.start ? other.start : entry.start;
    await tx.update(tables.time_tracking, other.id, { end, running: false, duration: minutesBetween(other.start, end) });
  }
}

/** The user's running timer that started last (the larger id on a tie), this one included. */
async function lastStarted(tx: RecordWrites, entry: TimeEntry): Promise<TimeEntry> {
  const later = (x: TimeEntry, y: TimeEntry) => Date.parse(x.start) - Date.parse(y.start) || (x.id > y.id ? 1 : -1);
  return (await runningTimers(tx, entry.user_id)).reduce((last, other) => (later(other, last) > 0 ? other : last), entry);
}

export const timeTrackingModule: ResourceModule = {
  spec: timeTrackingSpec,
  table: tables.time_tracking,
  path: '/time_tracking',
  relations: {
    card: { kind: 'belongsTo', target: 'card', foreignKey: 'card_id' },
    activity: { kind: 'belongsTo', target: 'activity', foreignKey: 'activity_id' },
    user: { kind: 'belongsTo', target: 'user', foreignKey: 'user_id' },
  },
  rules: {
    check: checkEntry,
    present: (ctx, records) => flagEntries(ctx, records),
    async checkDelete(ctx, tx, entry) {
      checkOwnEntry(ctx, entry);
      const periods = (await tx.list(tables.closed_period, { limit: 1_000_000, offset: 0 })).rows;
      if (periods.length > 0) {
        const user = typeof entry.user_id === 'string' ? await tx.get(tables.user, entry.user_id) : undefined;
        refuseClosedPeriod(periods, entry, userTimeZone(user));
      }
      return entry.locked ? [{ field: 'id', description: lockedMessage }] : [];
    },
    checkRestore: checkOwnEntry,
    async checkRestoreOnRecords(_ctx, tx, entry) {
      const periods = (await tx.list(tables.closed_period, { limit: 1_000_000, offset: 0 })).rows;
      if (periods.length === 0) return;
      const user = typeof entry.user_id === 'string' ? await tx.get(tables.user, entry.user_id) : undefined;
      refuseClosedPeriod(periods, entry, userTimeZone(user));
    },
    async afterWrite(_ctx, tx, entry) {
      if (entry.running) await stopOtherTimers(tx, entry);
    },
    async afterSynced(_ctx, tx, entry) {
      if (entry.running) await stopOtherTimers(tx, await lastStarted(tx, entry));
    },
  } satisfies ResourceRules<typeof timeTrackingSpec>,
};
