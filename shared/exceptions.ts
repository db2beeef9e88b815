/**
 * The exception inbox as its callers see it (docs/API.md "Exceptions"): what `GET
 * /v1/exception` answers, shared by the API and the app.
 */

/** The kinds of exception, in the order the inbox lists them. */
export const exceptionKinds = [
  'late_collection',
  'over_capacity',
  'broken_dependency',
  'material_late',
  'unplanned_due',
  'timer_running',
  'approval_waiting',
  'automation_notice',
] as const;
export type ExceptionKind = (typeof exceptionKinds)[number];

/** How long a time entry may wait for approval before it is an exception. */
export const approvalWaitDays = 7;

/** The workdays ahead the inbox looks at when no setting says otherwise. */
export const defaultHorizonWorkdays = 10;
export const maxHorizonWorkdays = 260;

/**
 * One click that fixes an item. `open_card` names a card (and its board and collection) for the
 * app to show, `open_collection` a collection (planned: on the planboard; not: in the backlog);
 * the others are API calls, with the method, path and body to send.
 */
export type ExceptionLink =
  | { action: 'open_card'; card_id: string; collection_id: string; board_id: string }
  | { action: 'open_collection'; collection_id: string; board_id: string | null }
  | { action: 'replan_finite'; method: 'POST'; path: string; body: { board_id: string; collection_ids: string[] } }
  | { action: 'approve'; method: 'POST'; path: string; body: { entries: string[]; status: 'approved' } }
  | { action: 'stop_timer'; method: 'POST'; path: string };

export interface ExceptionItem {
  /** Stable while the item is the same exception: what its handling (seen, snoozed) is kept under. */
  key: string;
  kind: ExceptionKind;
  /** The record it is about. */
  record: { resource: 'collection' | 'card' | 'stage' | 'resource' | 'time_tracking' | 'user'; id: string; name: string };
  board_id: string | null;
  /** The day it is about (a stage-day or person-day over capacity), else null. */
  date: string | null;
  /** The item in the planner's words, in English (the app words it in its own language from the fields). */
  text: string;
  /** When it became an exception, as well as the data tells (ISO 8601), or null when nothing does. */
  since: string | null;
  /** Figures the text names, for the app to word: minutes, dates, counts. */
  details: Record<string, string | number | null>;
  links: ExceptionLink[];
  /** This user's handling, when they snoozed it or marked it seen (listed with `handled=true`). */
  handling: { id: string; seen: boolean; snoozed_until: string | null } | null;
}

export interface ExceptionList {
  data: ExceptionItem[];
  count: number;
  /** The workdays ahead that over-capacity and unplanned-due items look at. */
  horizon_workdays: number;
  /** Per kind, the items listed. */
  counts: Record<ExceptionKind, number>;
}

/** The key of an item: its kind, its record and, for a day's item, the day. */
export function exceptionKey(kind: ExceptionKind, id: string, date?: string): string {
  return date ? `${kind}:${id}:${date}` : `${kind}:${id}`;
}

/** Whether a handling leaves its item out on `today`: seen, or snoozed up to today or later. */
export function isHandled(handling: { seen: boolean; snoozed_until: string | null } | null | undefined, today: string): boolean {
  return Boolean(handling && (handling.seen || (handling.snoozed_until !== null && handling.snoozed_until >= today)));
}
