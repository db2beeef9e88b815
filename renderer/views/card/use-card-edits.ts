/**
 * Changes to the card itself — its fields, status, labels, resources, custom fields — and its
 * delete, each as one undoable action in the app's history (state/undo.ts): the planboard's
 * Ctrl+Z takes back an edit made here in the same order as a move made there. An edit is one
 * server command, so undo is the server's undo of it (docs/API.md "Commands and undo"); a
 * delete is undone from the trash, which the server does not undo as a command yet.
 *
 * A refused edit rejects with the API's error, for the form to show beside its inputs.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useT, type Translate } from '../../i18n/index.js';
import { useCardPanel } from '../../state/card-panel.js';
import { undoManager } from '../../state/undo.js';
import { sendCommand } from '../../api/commands.js';
import { cardPath, type CardRef } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';
import type { CardDetail } from './card-api.js';
import { useCardApi } from './card-queries.js';

export interface CardEdit {
  /** What the history calls it: "Edit Frame 1001", "Set status of Frame 1001 to Done". */
  description: string;
  changes: Record<string, unknown>;
}

/** What the panel calls a card: its own name, else its collection's. */
export function cardTitle(card: Pick<CardDetail, 'name'> & { collection?: { name: string | null } | null }, t: Translate): string {
  return card.name || card.collection?.name || t('card.untitled');
}

/** Refreshes everything a card change shows in: the panel, the planboard, capacity, the collection's warnings. */
export function useRefreshCard() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: ['card'] }), queryClient.invalidateQueries({ queryKey: ['collection'] })]);
}

export function useCardEdit(card: CardDetail) {
  const { transport } = useApi();
  const refresh = useRefreshCard();
  const ref: CardRef = { id: card.id, collection_id: card.collection_id };
  return useMutation({
    mutationFn: async ({ description, changes }: CardEdit) => {
      await undoManager.performCommand(async () => {
        try {
          return (await sendCommand(transport, { method: 'PUT', path: cardPath(ref), body: changes })).commandId;
        } finally {
          // Done once the panel shows the result: a form must not flick back to the old value.
          await refresh();
        }
      }, description);
    },
  });
}

export function useDeleteCard(card: CardDetail) {
  const t = useT();
  const api = useCardApi();
  const refresh = useRefreshCard();
  const close = useCardPanel((state) => state.close);
  const ref: CardRef = { id: card.id, collection_id: card.collection_id };
  return useMutation({
    mutationFn: () =>
      undoManager.perform(
        async () => {
          await api.deleteCard(ref);
          if (useCardPanel.getState().openCardId === card.id) close();
          void refresh();
        },
        async () => {
          await api.restoreCard(card.id);
          void refresh();
        },
        t('card.history.delete', { card: cardTitle(card, t) }),
      ),
  });
}
