/**
 * The planning operations (docs/API.md "Planning"): planning a collection onto a board (or its
 * dry run), moving it back to the backlog, the promise dates of collections and unsaved
 * orders, and splitting a card, declared once for the server's checks, the OpenAPI document and the renderer's
 * client (shared/operation.ts). Checks that need the store (a stage of this board, an
 * activity that exists) stay in the routes.
 */
import { defineOperation, shape } from '../operation.js';
import type { Card } from '../resources/card.js';
import type { Collection } from '../resources/collection.js';
import type { WhatItTakes } from '../why-late.js';

/** Most ids `force_stages` or `resources` take: a board has far fewer stages or resources. */
export const maxPlanIds = 1000;
/** Most collections, and most drafts, one promise_dates call takes. */
export const maxPromises = 500;
/** Most rows one draft order takes. */
export const maxDraftRows = 1000;
/** A draft row's duration or quantity is at most this. */
export const maxDraftAmount = 10_000_000;

const capacity = shape.optional(
  shape.choice(['finite', 'infinite'], 'finite: only where the stages still have free capacity; infinite: 480 minutes a workday.'),
);
const shapeQuery = { show: 'Fields to show.', hide: 'Fields to hide.', with: 'Relations to include (default cards).' } as const;

/** The minutes a plan would add to a stage on a day (a dry run's `added_load`). */
export interface AddedLoad {
  stage_id: string;
  date: string;
  minutes: number;
}

/** A planned collection with its cards; a dry run adds `dry_run` and `added_load`. */
export type PlannedCollection = Omit<Collection, 'cards'> & {
  cards: Card[];
  dry_run?: true;
  added_load?: AddedLoad[];
  /**
   * A dry run's "what would it take?": when the plan would end after the date it should end by
   * and room is what binds it, the overtime that would make it fit, as the Exceptions screen
   * offers it (docs/API.md "What would it take?"); else null.
   */
  what_it_takes?: WhatItTakes | null;
  /** An infinite plan's warnings of material whose date is unknown (docs/API.md "Material"). */
  material_warnings?: string[];
};

export const planCollectionOperation = defineOperation<PlannedCollection>()({
  method: 'POST',
  path: '/collection/:id/board/:board_id',
  summary: 'Plan the collection onto a board: its cards are made at once',
  tag: 'Collection',
  body: shape.object({
    start: shape.optional(shape.date('The first day (default today).')),
    end: shape.optional(shape.date('The last day, for reverse (default the due date).')),
    reverse: shape.optional(shape.boolean('Plan backwards so the last stage ends on end or the due date.')),
    capacity,
    dry_run: shape.optional(shape.boolean('true: answer the plan that would be made, with its added_load; nothing is written.')),
    force_stages: shape.optional(
      shape.list(shape.uuid(), { max: maxPlanIds }, 'Stages of the board that get a card even without activities.'),
    ),
    resources: shape.optional(shape.list(shape.uuid(), { max: maxPlanIds }, 'Resources assigned to every card.')),
    stage_id: shape.optional(shape.uuid('Everything goes on this stage of the board.')),
    status_id: shape.optional(shape.uuid("The cards' status (default the board's first entry status).")),
    before: shape.optional(shape.uuid('The new cards go right before this card (or collection’s card) in their stage.')),
    after: shape.optional(shape.uuid('The new cards go right after this card (or collection’s card) in their stage.')),
  }),
  answer: 'The collection as planned, with its cards (a dry run: as it would be, with added_load and what_it_takes)',
  query: shapeQuery,
});

export const moveToBacklogOperation = defineOperation<Collection>()({
  method: 'POST',
  path: '/collection/:id/backlog',
  summary: 'Move the collection back to the backlog (its cards are removed)',
  tag: 'Collection',
  body: undefined,
  answer: 'The collection, not planned',
  query: { show: 'Fields to show.', hide: 'Fields to hide.', with: 'Relations to include.' },
});

/** One collection's or draft's promise date, or why there is none. */
export type PromiseDateAnswer = ({ collection_id: string } | { key: string }) &
  ({ start: string; end: string; warning?: string } | { error: string });

export const promiseDatesOperation = defineOperation<{ data: PromiseDateAnswer[] }>()({
  method: 'POST',
  path: '/board/:id/promise_dates',
  summary: 'When collections (or unsaved orders) could be done if each alone were planned now; writes nothing',
  tag: 'Board',
  body: shape.object({
    collection_ids: shape.optional(shape.list(shape.uuid(), { max: maxPromises }, 'Collections, each planned alone.')),
    capacity,
    start: shape.optional(shape.date('The first day (default today).')),
    drafts: shape.optional(
      shape.list(
        shape.object({
          key: shape.text(200, { min: 1, description: 'Names the draft in the answer.' }),
          rows: shape.list(
            shape.object({
              activity_id: shape.uuid(),
              duration: shape.optional(shape.number(0, maxDraftAmount, 'Minutes; when left out, the quantity in its unit.')),
              quantity: shape.optional(shape.number(0, maxDraftAmount)),
              unit: shape.optional(shape.text(25, { description: 'minutes, hours, days or pieces, as an order row counts it.' })),
            }),
            { max: maxDraftRows },
          ),
        }),
        { max: maxPromises },
        'Unsaved orders: their rows count as an order’s rows do.',
      ),
    ),
  }),
  answer: 'Per collection, then per draft: its start and end, or the error why it cannot be planned',
});

export const splitCardOperation = defineOperation<{ data: Card[] }>()({
  method: 'POST',
  path: '/collection/:collection_id/card/:id/split',
  summary: 'Split a card in two by a date or a share of its time',
  tag: 'Collection',
  // One of the two; both: the date. A share of 0 or 1 leaves a card empty, which the split refuses.
  body: shape.object({
    date: shape.optional(shape.date('The new card starts on this workday (or the next); the original ends the workday before.')),
    share: shape.optional(shape.number(0, 1, 'The share of the days and minutes the original keeps, between 0 and 1 (exclusive).')),
  }),
  answer: 'Both cards: the original (shortened) first, then the new one',
  query: { show: 'Fields to show.', hide: 'Fields to hide.', with: 'Relations to include.' },
});
