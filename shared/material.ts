/**
 * What a collection waits for (docs/API.md "Material"): the answer of `GET /v1/material`, worked
 * out by electron/api/planning/material.ts and shown by the backlog, the order screen and the
 * board.
 */

/** What an expected date rests on: the supplying order's promised date, else its desired date. */
export type MaterialBasis = 'promised_date' | 'desired_date';

/** One supplying row a collection still waits for (not delivered). */
export interface AwaitedMaterial {
  /** The supplying row, and its order. */
  row_id: string;
  order_id: string;
  /** How the planner names the order: its code, else its external_ref, else its description. */
  order_code: string | null;
  item_id: string | null;
  /** When it is expected; null: date unknown. */
  expected: string | null;
  basis: MaterialBasis | null;
  /** The activity of the receiving row, the work the material is for (null: none named). */
  activity_id: string | null;
}

/** One stage's wait: the first day it may start, and the material behind that (latest first). */
export interface MaterialWait {
  /** Null for a collection on no board: its plan's first dependent stage, wherever it goes. */
  stage_id: string | null;
  earliest_start: string;
  waiting_for: AwaitedMaterial[];
}

export interface CollectionMaterial {
  collection_id: string;
  /** Per stage that waits, earliest start first. */
  waits: MaterialWait[];
  /** Material without a date: a finite plan refuses the collection. */
  date_unknown: AwaitedMaterial[];
  /** Planned cards that start before their stage's material is expected. */
  early_cards: { card_id: string; stage_id: string; start_date: string; earliest_start: string }[];
}

/** Most collections one `GET /v1/material` names: the backlog's rows on screen, in a query string that stays short. */
export const maxMaterialCollections = 200;
