/**
 * The plan check after a sync (docs/API.md "Sync", "Plan check"): what the merge of changes
 * made elsewhere did to the plan that neither computer's plan had on its own. What `GET
 * /v1/sync/plan_check` answers, shared by the API and the app.
 */

/** The kinds of finding, in the order the list shows them. */
export const planFindingKinds = ['over_capacity', 'double_booking', 'broken_dependency', 'late_collection'] as const;
export type PlanFindingKind = (typeof planFindingKinds)[number];

export type PlanFindingStatus = 'open' | 'accepted';

/** One pulled change that took part in a finding, and the computer that made it. */
export interface PlanFindingChange {
  resource: string;
  record_id: string;
  /** The fields the pull changed here (not the time stamps); none when the record was new here. */
  fields: string[];
  /** The record was new here: the other computer made it. */
  created: boolean;
  /** Who wrote it: the node id in its clock (another replica, or the remote itself). */
  changed_by: string;
  /** When it was written, by the clock of the computer that wrote it. */
  changed_at: string;
}

/** A finding as the plan check works it out, before it is kept. */
export interface PlanFindingNotice {
  /** The same while it is the same problem: the kind, its record and, for a day's problem, the day. */
  key: string;
  kind: PlanFindingKind;
  board_id: string;
  /** The day it is about (a stage-day or person-day), else null. */
  date: string | null;
  /** The record it is about: a stage or resource (a day over capacity, or a person's two cards), a collection. */
  record: { resource: 'stage' | 'resource' | 'collection'; id: string; name: string };
  /** The finding in the planner's words, in English (the app words it in its own language from `details`). */
  text: string;
  /** Figures and names the text uses: minutes, dates, stage and card names. */
  details: Record<string, string | number | null>;
  changes: PlanFindingChange[];
}

export interface PlanFinding extends PlanFindingNotice {
  id: string;
  /** When this replica found it. */
  noticed_at: string;
  status: PlanFindingStatus;
  resolved_at: string | null;
}

/**
 * This computer's part in a finding, as `GET /v1/sync/plan_check` answers it: its cards in the
 * finding that the pull did not bring, their collections, and the newest command made here on
 * them that is not undone (what "revert my change" undoes); worked out as the plan is now.
 */
export interface PlanFindingMine {
  card_ids: string[];
  collection_ids: string[];
  command: { id: string; description: string } | null;
}
