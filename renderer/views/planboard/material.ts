/**
 * What collections wait for, as the backlog, the order screen and the board show it (docs/API.md
 * "Material"): one read for the collections on screen, worked out by the server on every read,
 * so a purchase order whose date moves shows at once in the orders it feeds. The words are
 * pure and tested in test/renderer/material.test.ts.
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CollectionMaterial } from '../../../shared/material.js';
import { send } from '../../api/client.js';
import { materialKey } from '../../api/hooks.js';
import { useApi } from '../../api/provider.js';
import { formatDay } from '../../components/dates-format.js';
import type { Translate } from '../../i18n/index.js';

/** What each collection waits for, by collection id; one call for the lot. */
export function useMaterial(collectionIds: readonly string[]) {
  const { transport } = useApi();
  return useQuery({
    queryKey: [...materialKey, collectionIds],
    queryFn: async () => {
      const answer = await send<{ data: CollectionMaterial[] }>(transport, {
        method: 'GET',
        path: '/v1/material',
        query: { collection_ids: collectionIds.join(',') },
      });
      return new Map(answer.data.map((material) => [material.collection_id, material]));
    },
    enabled: collectionIds.length > 0,
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/**
 * The material of the collections planned on the board whose cards start before it, by card id
 * (docs/API.md "Material"): the board warns on those cards as on a broken dependency.
 */
export function useBoardMaterial(boardId: string) {
  const { transport } = useApi();
  return useQuery({
    queryKey: [...materialKey, 'board', boardId],
    queryFn: async () => {
      const answer = await send<{ data: CollectionMaterial[] }>(transport, {
        method: 'GET',
        path: '/v1/material',
        query: { board_id: boardId },
      });
      return new Map(answer.data.flatMap((material) => material.early_cards.map((card) => [card.card_id, material] as const)));
    },
    enabled: boardId !== '',
    placeholderData: keepPreviousData,
    retry: false,
  });
}

/**
 * "Waiting for PO-123, expected Tue 15 Dec": one line per stage that waits (its latest
 * material), then each order whose date is unknown.
 */
export function materialLines(material: CollectionMaterial | undefined, t: Translate): string[] {
  if (!material) return [];
  const lines = material.waits.flatMap((wait) => {
    const latest = wait.waiting_for[0];
    return latest
      ? [t('plan.material.waiting', { order: latest.order_code ?? t('plan.material.noCode'), date: day(wait.earliest_start, t) })]
      : [];
  });
  const unknown = [...new Set(material.date_unknown.map((m) => m.order_code ?? t('plan.material.noCode')))];
  return [...new Set(lines), ...unknown.map((order) => t('plan.material.unknown', { order }))];
}

/** The board's warning for a card that starts before its material is expected; null when it does not. */
export function earlyCardWarning(material: CollectionMaterial | undefined, cardId: string, t: Translate): string | null {
  const early = material?.early_cards.find((card) => card.card_id === cardId);
  if (!early) return null;
  const wait = material!.waits.find((w) => w.stage_id === early.stage_id);
  const order = wait?.waiting_for[0]?.order_code ?? t('plan.material.noCode');
  return t('plan.material.cardEarly', { order, date: day(early.earliest_start, t) });
}

function day(date: string, t: Translate): string {
  return formatDay(date, t.locale);
}
