/**
 * Promise dates and finite planning, as the planboard asks for them (docs/API.md
 * "Finite-capacity planning"): a dry run of the planning call (the plan that *would* be made,
 * nothing written), the promise dates of the backlog in one call, and re-planning late
 * collections as one command.
 *
 * The pure parts (what a plan choice sends, a stage's first and last day, the earliest end a
 * refusal names, which collections are late) are tested in test/renderer/promise-dates.test.ts.
 */
import { endsLate } from '../../../shared/late.js';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { Collection } from '../../../shared/resources/collection.js';
import type { WhatItTakes } from '../../../shared/why-late.js';
import { callOperation, runCommand } from '../../api/commands.js';
import { replanCollectionsOperation } from '../../../shared/operations/commands.js';
import { planCollectionOperation, promiseDatesOperation } from '../../../shared/operations/planning.js';
import { useApi } from '../../api/provider.js';
import { ApiRequestError } from '../../api/request-error.js';
import type { Transport } from '../../api/transport.js';
import type { PlanOptions } from './planboard-api.js';

/** How the planner chose to plan: from a start date, or back from an end date; against capacity or not. */
export interface PlanChoice {
  direction: 'forward' | 'backward';
  finite: boolean;
  /** The first day (forward). */
  start: string;
  /** The last day (backward); empty means the collection's due date. */
  end: string;
  /** Everything on this stage; empty means the board's stages. */
  stageId: string;
}

/** The planning call's body for a choice: the same for the dry run and the real plan. */
export function planRequest(choice: PlanChoice): PlanOptions {
  const options: PlanOptions = {};
  if (choice.direction === 'forward') {
    if (choice.start) options.start = choice.start;
  } else {
    options.reverse = true;
    if (choice.end) options.end = choice.end;
  }
  if (choice.finite) options.capacity = 'finite';
  if (choice.stageId) options.stage_id = choice.stageId;
  return options;
}

/** A card of a dry run: where it would be. */
export interface WouldBeCard {
  stage_id: string;
  start_date: string;
  end_date: string | null;
}

/** The plan that would be made: its cards, first and last day, and the minutes it adds per stage and day. */
export interface DryRun {
  cards: WouldBeCard[];
  start: string | null;
  end: string | null;
  added_load: { stage_id: string; date: string; minutes: number }[];
  /** When the plan would end late and room binds it, the overtime that would make it fit (docs/API.md "What would it take?"). */
  what_it_takes: WhatItTakes | null;
}

/** The plan a choice would make; writes nothing (no card, no change-log row, no command). */
export async function dryRunPlan(transport: Transport, collectionId: string, boardId: string, options: PlanOptions): Promise<DryRun> {
  const body = await callOperation(transport, planCollectionOperation, {
    params: { id: collectionId, board_id: boardId },
    query: { with: 'cards' },
    body: { ...options, dry_run: true },
  });
  // Planned cards have a stage and a start date; a card without one would be nowhere.
  const cards = (body.cards ?? []).flatMap((card) =>
    card.stage_id && card.start_date ? [{ stage_id: card.stage_id, start_date: card.start_date, end_date: card.end_date }] : [],
  );
  return {
    cards,
    start: body.start ?? null,
    end: body.end ?? null,
    added_load: body.added_load ?? [],
    what_it_takes: body.what_it_takes ?? null,
  };
}

export interface StageDates {
  stageId: string;
  start: string;
  end: string;
}

/** Per stage, its first and last day in the plan, in the board's stage order (stages not in `order` last). */
export function stageDates(cards: readonly WouldBeCard[], order: readonly string[]): StageDates[] {
  const byStage = new Map<string, StageDates>();
  for (const card of cards) {
    const end = card.end_date ?? card.start_date;
    const known = byStage.get(card.stage_id);
    if (!known) byStage.set(card.stage_id, { stageId: card.stage_id, start: card.start_date, end });
    else {
      if (card.start_date < known.start) known.start = card.start_date;
      if (end > known.end) known.end = end;
    }
  }
  const rank = (id: string) => {
    const at = order.indexOf(id);
    return at === -1 ? order.length : at;
  };
  return [...byStage.values()].sort((a, b) => rank(a.stageId) - rank(b.stageId));
}

/** A finite plan refused because nothing fits: the end it asked for, and the earliest end that fits. */
export interface NothingFits {
  earliestEnd: string;
  description: string;
}

/** The 422 of reverse finite planning that names the earliest feasible end; null for any other failure. */
export function nothingFits(error: unknown): NothingFits | null {
  if (!(error instanceof ApiRequestError) || error.status !== 422) return null;
  for (const item of error.items) {
    const earliest = (item as { earliest_end?: unknown }).earliest_end;
    if (item.field === 'end' && typeof earliest === 'string') return { earliestEnd: earliest, description: item.description };
  }
  return null;
}

/** One collection's promise date, or why there is none. */
export type PromiseDate = { collection_id: string; start: string; end: string } | { collection_id: string; error: unknown };

/** The promise date of each collection, each as if planned alone now, finite: one call for the lot. */
export async function fetchPromiseDates(transport: Transport, boardId: string, collectionIds: readonly string[]): Promise<PromiseDate[]> {
  if (collectionIds.length === 0) return [];
  const answer = await callOperation(transport, promiseDatesOperation, {
    params: { id: boardId },
    body: { collection_ids: [...collectionIds], capacity: 'finite' },
  });
  // Only collections were asked for, so every answer names one.
  return answer.data.flatMap((date) => ('collection_id' in date ? [date] : []));
}

/** A not-yet-saved order's rows, as promise_dates takes them (`drafts`). */
export interface DraftRow {
  activity_id: string;
  duration?: number;
  quantity?: number;
  unit?: string;
}

/** The promise date of an order that is not saved yet, from its rows; null when there is none. */
export async function fetchDraftPromiseDate(
  transport: Transport,
  boardId: string,
  rows: readonly DraftRow[],
): Promise<{ start: string; end: string } | null> {
  const answer = await callOperation(transport, promiseDatesOperation, {
    params: { id: boardId },
    body: { collection_ids: [], drafts: [{ key: 'new-order', rows: [...rows] }], capacity: 'finite' },
  });
  const found = answer.data.find((item) => 'key' in item && item.key === 'new-order');
  return found && 'end' in found ? { start: found.start, end: found.end } : null;
}

/** The end a promise date names, by collection; collections without one (no capacity) map to null. */
export function promiseEnds(dates: readonly PromiseDate[]): Map<string, string | null> {
  return new Map(dates.map((date) => [date.collection_id, 'end' in date && typeof date.end === 'string' ? date.end : null]));
}

type Planned = Pick<Collection, 'id' | 'name' | 'due_date' | 'end'>;

/** Whether an end (planned, or a promise date) falls after the due date: the one rule, shared/late.ts. */
export { endsLate };

/** Planned collections that end after their due date, the most overdue first. */
export function lateCollections<T extends Planned>(collections: readonly T[]): T[] {
  const late = collections.filter((collection) => endsLate(collection.end, collection.due_date));
  const overdue = (collection: T) => Date.parse(collection.end!) - Date.parse(collection.due_date!);
  return late.sort((a, b) => overdue(b) - overdue(a) || (a.due_date! < b.due_date! ? -1 : 1));
}

/**
 * The ends the collections would get if re-planned finite now, together and in priority order,
 * by collection id: the server plans them and rolls back (a dry run), so nothing is written.
 */
export async function previewReplan(
  transport: Transport,
  boardId: string,
  collectionIds: readonly string[],
): Promise<Map<string, string | null>> {
  if (collectionIds.length === 0) return new Map();
  const answer = await runCommand(transport, replanCollectionsOperation, {
    board_id: boardId,
    collection_ids: [...collectionIds],
    dry_run: true,
  });
  // The dry run answers the collections as presented: each with its id and new end.
  const planned = answer.data as { id: string; end: string | null }[];
  return new Map(planned.map((collection) => [collection.id, collection.end]));
}

/**
 * Re-plans the collections finite, in priority order, from `start` (default today), as one
 * command; answers its id (for undo), or null when it changed nothing and so kept no command.
 */
export async function replanCollections(
  transport: Transport,
  boardId: string,
  collectionIds: readonly string[],
  description: string,
  start?: string,
): Promise<string | null> {
  const body = { board_id: boardId, collection_ids: [...collectionIds], ...(start ? { start } : {}) };
  return (await runCommand(transport, replanCollectionsOperation, body, description)).command_id;
}

/**
 * The promise dates of the collections the backlog shows, in one call, by collection id.
 * Under `card`: when cards change (a plan, a move, another window) the dates are asked again.
 */
export function usePromiseDates(boardId: string, collectionIds: readonly string[]) {
  const { transport } = useApi();
  return useQuery({
    queryKey: ['card', 'promise-dates', boardId, collectionIds],
    queryFn: async () => promiseEnds(await fetchPromiseDates(transport, boardId, collectionIds)),
    enabled: collectionIds.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
}
