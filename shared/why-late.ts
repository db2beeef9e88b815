/**
 * Why a collection is late (docs/API.md "Why late"): for each late collection, the constraint
 * that binds it, in one sentence with the days, and the stages and people that make the most
 * collections late, per week. What `GET /v1/why_late` answers, shared by the API and the app.
 */

/**
 * What binds a late collection, in the order they are looked for:
 *  - `past_due`: the day it should end by has passed;
 *  - `material`: its material comes too late, or its date is unknown (docs/API.md "Material");
 *  - `work_before`: the card before it, on an earlier stage, ends too late to leave it time;
 *  - `person_away`: a person it needs is away in the days it could have had;
 *  - `stage_full`: its stage is full on the days it could have had;
 *  - `no_room`: its stage has room, but not enough before that day: nothing fits without overtime;
 *  - `placed_late`: there is room before that day: it is planned later than it needs to be.
 */
export const lateReasonKinds = ['past_due', 'material', 'work_before', 'person_away', 'stage_full', 'no_room', 'placed_late'] as const;
export type LateReasonKind = (typeof lateReasonKinds)[number];

export interface LateReason {
  kind: LateReasonKind;
  /** In the planner's words, in English (the app words it in its own language from the fields). */
  text: string;
  /** The stage it is about (every kind but `past_due`). */
  stage: { id: string; name: string } | null;
  /** The person away (`person_away`). */
  resource: { id: string; name: string } | null;
  /** The days it names: the run of full or away days; for `no_room` the first day it fits (`to`); for `work_before` the end of the work before. */
  from: string | null;
  to: string | null;
  /** The earlier stage whose card ends too late (`work_before`). */
  previous_stage: string | null;
  /** `material`: how the planner names the order it waits for ("PO-123"); its expected day is `to` (null: unknown). */
  waiting_for: string | null;
  /** `no_room` on a board that counts no load, or for a card with no minutes: the workdays the card takes. */
  workdays: number | null;
}

export interface LateCollection {
  collection: { id: string; name: string };
  board_id: string;
  /** Its planned end. */
  end: string;
  /** The day it should end by: the earlier of its due date and the date promised that it misses. */
  missed_date: string;
  missed: 'due_date' | 'promised_date';
  /** The card whose end makes it late: the first of its late cards. */
  card_id: string | null;
  reason: LateReason;
  /**
   * What would make it fit, when room is what binds it (`stage_full`, `no_room`, `person_away`
   * short of room): overtime, person by day; null otherwise, or when not even that is enough.
   */
  what_it_takes: WhatItTakes | null;
}

/** Overtime that would give a late collection's card the room it lacks (docs/API.md "What would it take?"). */
export interface WhatItTakes {
  /** All of it together. */
  minutes: number;
  /** By day, then by name: as `POST /v1/command/add_overtime` takes it. */
  overtime: { resource_id: string; name: string; date: string; minutes: number }[];
}

/** A stage or person that binds late collections in one week (the ISO week of the days it names). */
export interface Bottleneck {
  /** The Monday of the week. */
  week: string;
  kind: 'stage' | 'resource';
  id: string;
  name: string;
  /** How many late collections it binds that week. */
  collections: number;
}

export interface WhyLateList {
  data: LateCollection[];
  count: number;
  /** By week, then by how many collections, most first. */
  bottlenecks: Bottleneck[];
}
