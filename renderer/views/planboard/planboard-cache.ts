/**
 * The planboard's reads in React Query, and the optimistic edits of them. Keys start with the
 * resource they show (`card`, `collection`), so a change event for that resource — from
 * another window, an integration, or sync — refreshes them without a reload.
 *
 * Cards are read in blocks of days (`['card', 'planboard', boardId, from, to]`); a card that
 * spans two blocks is in both, and the board merges them by id. An optimistic edit therefore
 * changes every block that holds the card, and adds it to loaded blocks its new dates reach.
 */
import type { QueryClient, QueryKey } from '@tanstack/react-query';
import type { ListQuery } from '../../api/client.js';
import { capacityKey } from '../../api/hooks.js';
import { textSearchFilter } from '../../../shared/filter.js';
import { maxLimit, type ListEnvelope } from '../../../shared/list.js';
import { boardBacklogFilter, type Board } from '../../../shared/resources/board.js';
import type { Collection } from '../../../shared/resources/collection.js';
import type { PlanCard } from './plan-card.js';

export const planboardKeys = {
  cardsOfBoard: (boardId: string) => ['card', 'planboard', boardId] as const,
  cardBlock: (boardId: string, from: string, to: string) => ['card', 'planboard', boardId, from, to] as const,
  capacityOfBoard: (boardId: string) => [...capacityKey, boardId] as const,
  capacityBlock: (boardId: string, from: string, to: string) => [...capacityKey, boardId, from, to] as const,
  // Under the board's capacity: a change of a resource's hours refreshes both.
  stageDaysBlock: (boardId: string, from: string, to: string) => [...capacityKey, boardId, 'stage_workdays', from, to] as const,
  views: (boardId: string) => ['board_view', boardId] as const,
  // Under `collection`: planning, ignoring and change events refresh it with the other lists.
  backlog: (boardId: string) => ['collection', 'backlog', boardId] as const,
  backlogQuery: (boardId: string, query: ListQuery) => ['collection', 'backlog', boardId, query] as const,
};

/**
 * The backlog of a board: its unplanned collections, soonest due first, with their activities.
 * A board without a backlog of its own (`own_backlog: false`, the default) also lists the
 * shared backlog — unplanned collections on no board yet, which is where an order's collection
 * lands — so they can be planned from any such board (planning sets the collection's board).
 * A board with `own_backlog: true` lists only its own (docs/API.md "Board"). With `search`,
 * only those whose name or description holds it.
 */
export function backlogQuery(board: Pick<Board, 'id' | 'own_backlog'>, search = ''): ListQuery {
  // Searched by the API, so a backlog longer than one read still finds what is asked for.
  const found = textSearchFilter(search, ['name', 'description']);
  const filter = found ? `(${boardBacklogFilter(board)}),and,${found}` : boardBacklogFilter(board);
  return { filter, sort: 'due_date:asc', with: 'activities', limit: maxLimit };
}

/**
 * Takes a collection out of the board's cached backlog at once (whichever query the board's
 * `own_backlog` gave it); answers what was there.
 */
export function removeFromBacklog(queryClient: QueryClient, boardId: string, collectionId: string): CacheSnapshot {
  const snapshot = queryClient.getQueriesData<ListEnvelope<Collection>>({ queryKey: planboardKeys.backlog(boardId) });
  for (const [key, before] of snapshot) {
    if (before)
      queryClient.setQueryData(key, {
        ...before,
        count: before.count - 1,
        data: before.data.filter((collection) => collection.id !== collectionId),
      });
  }
  return snapshot;
}

export type CacheSnapshot = [QueryKey, unknown][];

export interface CardCacheChange {
  /** Cards with their new fields (whole `PlanCard`s). */
  upsert?: readonly PlanCard[];
  /** Ids of cards to drop. */
  remove?: readonly string[];
}

/**
 * Applies a change to every loaded block of the board and answers what was there before, for
 * `restoreSnapshot` when the API refuses.
 */
export function changeCachedCards(queryClient: QueryClient, boardId: string, change: CardCacheChange): CacheSnapshot {
  const snapshot = queryClient.getQueriesData<PlanCard[]>({ queryKey: planboardKeys.cardsOfBoard(boardId) });
  const upserts = new Map((change.upsert ?? []).map((card) => [card.id, card]));
  const removals = new Set(change.remove ?? []);
  for (const [key, cards] of snapshot) {
    if (!cards) continue;
    const [, , , from, to] = key as readonly [string, string, string, string, string];
    const seen = new Set<string>();
    const next: PlanCard[] = [];
    for (const card of cards) {
      if (removals.has(card.id)) continue;
      const updated = upserts.get(card.id);
      if (updated) seen.add(card.id);
      next.push(updated ?? card);
    }
    for (const card of upserts.values()) {
      if (!seen.has(card.id) && card.end_date >= from && card.start_date <= to) next.push(card);
    }
    queryClient.setQueryData(key, next);
  }
  return snapshot;
}

export function restoreSnapshot(queryClient: QueryClient, snapshot: CacheSnapshot): void {
  for (const [key, data] of snapshot) queryClient.setQueryData(key, data);
}

/** Every loaded card of the board with that id (the first block holding it). */
export function cachedCard(queryClient: QueryClient, boardId: string, cardId: string): PlanCard | undefined {
  for (const [, cards] of queryClient.getQueriesData<PlanCard[]>({ queryKey: planboardKeys.cardsOfBoard(boardId) })) {
    const card = cards?.find((candidate) => candidate.id === cardId);
    if (card) return card;
  }
  return undefined;
}

/** Loaded cards of a collection on the board. */
export function cachedCollectionCards(queryClient: QueryClient, boardId: string, collectionId: string): PlanCard[] {
  const found = new Map<string, PlanCard>();
  for (const [, cards] of queryClient.getQueriesData<PlanCard[]>({ queryKey: planboardKeys.cardsOfBoard(boardId) })) {
    for (const card of cards ?? []) if (card.collection_id === collectionId) found.set(card.id, card);
  }
  return [...found.values()];
}

/** After a write: the server may have moved other cards (dependencies) and changed capacity and warnings. */
export function refreshAfterWrite(queryClient: QueryClient, boardId: string): Promise<unknown> {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: planboardKeys.cardsOfBoard(boardId) }),
    queryClient.invalidateQueries({ queryKey: planboardKeys.capacityOfBoard(boardId) }),
    queryClient.invalidateQueries({ queryKey: ['collection'] }),
  ]);
}
