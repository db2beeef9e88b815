/**
 * The panel's reads in React Query. Every key starts with the resource it shows (`card`,
 * `checklist`, `comment`, …), so a change event for that resource — from the planboard,
 * another window, an integration or sync — refreshes it without a reload. Writes that change
 * what other reads show (a card's dates on the planboard, its timer) refresh those too.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useApi } from '../../api/provider.js';
import type { CardRef } from '../../api/paths.js';
import { cardApi, type CardApi } from './card-api.js';

export const cardPanelKeys = {
  card: (cardId: string) => ['card', 'panel', cardId] as const,
  board: (boardId: string) => ['board', 'card-panel', boardId] as const,
  checklists: (cardId: string) => ['checklist', 'card', cardId] as const,
  comments: (cardId: string) => ['comment', 'card', cardId] as const,
  attachments: (cardId: string) => ['attachment', 'card', cardId] as const,
  relations: (cardId: string) => ['card_relation', 'card', cardId] as const,
  cardSearch: (boardId: string, text: string) => ['card', 'search', boardId, text] as const,
  timeEntries: (cardId: string) => ['time_tracking', 'card', cardId] as const,
};

export function useCardApi(): CardApi {
  const { transport } = useApi();
  return useMemo(() => cardApi(transport), [transport]);
}

export function useCardDetail(cardId: string) {
  const api = useCardApi();
  return useQuery({ queryKey: cardPanelKeys.card(cardId), queryFn: () => api.card(cardId) });
}

export function usePanelBoard(boardId: string | null) {
  const api = useCardApi();
  return useQuery({ queryKey: cardPanelKeys.board(boardId ?? ''), queryFn: () => api.board(boardId!), enabled: boardId !== null });
}

export function useChecklists(card: CardRef) {
  const api = useCardApi();
  return useQuery({ queryKey: cardPanelKeys.checklists(card.id), queryFn: () => api.checklists(card) });
}

export function useComments(card: CardRef) {
  const api = useCardApi();
  return useQuery({ queryKey: cardPanelKeys.comments(card.id), queryFn: () => api.comments(card) });
}

export function useAttachments(card: CardRef) {
  const api = useCardApi();
  return useQuery({ queryKey: cardPanelKeys.attachments(card.id), queryFn: () => api.attachments(card) });
}

export function useRelations(cardId: string) {
  const api = useCardApi();
  return useQuery({ queryKey: cardPanelKeys.relations(cardId), queryFn: () => api.relations(cardId) });
}

export function useCardSearch(boardId: string, text: string) {
  const api = useCardApi();
  return useQuery({
    queryKey: cardPanelKeys.cardSearch(boardId, text),
    queryFn: () => api.searchCards(boardId, text),
    enabled: text.trim().length > 0,
  });
}

export function useTimeEntries(cardId: string) {
  const api = useCardApi();
  return useQuery({ queryKey: cardPanelKeys.timeEntries(cardId), queryFn: () => api.timeEntries(cardId) });
}

/**
 * A write of the panel that is not an edit of the card itself (a comment, a checklist item, a
 * timer): it runs, then refreshes the reads named by `refresh` — also after a failure, since a
 * 404 means the record went elsewhere and the list should stop offering it.
 */
export function usePanelWrite<V, R>(write: (api: CardApi, variables: V) => Promise<R>, refresh: readonly (readonly unknown[])[]) {
  const api = useCardApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: V) => write(api, variables),
    onSettled: () => Promise.all(refresh.map((queryKey) => queryClient.invalidateQueries({ queryKey }))),
  });
}
