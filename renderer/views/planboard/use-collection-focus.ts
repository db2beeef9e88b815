/**
 * Showing the collection another screen asked for (`focusCollection` in the UI store, e.g. an
 * order's "Open on the planboard"). A planned collection: the grid jumps to the day of its
 * first card and, once that block of days has loaded, scrolls the card into view and selects
 * it. A collection not planned: the backlog opens, and finds it itself (BacklogPanel).
 *
 * The first card is read from the API when the link is followed, not taken from what the
 * order screen had loaded: its cards may have moved since.
 */
import { useEffect, useRef, useState, type RefObject } from 'react';
import { describeError } from '../../api/client.js';
import { useApi } from '../../api/provider.js';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import { usePlanboardStore } from '../../state/planboard.js';
import { useUiStore, type CollectionFocus } from '../../state/ui.js';
import type { BoardLayout } from './board-layout.js';
import { fetchCollectionCards } from './planboard-api.js';
import type { GridHandle } from './PlanboardGrid.js';

export function useCollectionFocus(boardId: string, grid: RefObject<GridHandle | null>, layout: BoardLayout): void {
  const t = useT();
  const { transport } = useApi();
  const notify = useNotices((state) => state.notify);
  const focus = useUiStore((state) => state.collectionFocus);
  const focusCollection = useUiStore((state) => state.focusCollection);
  const clearFocus = useUiStore((state) => state.clearCollectionFocus);
  const setBacklogOpen = usePlanboardStore((state) => state.setBacklogOpen);
  const select = usePlanboardStore((state) => state.select);
  const selected = usePlanboardStore((state) => state.selection.selected);
  /** The focus being looked up, so that a re-render does not read its cards twice. */
  const started = useRef<CollectionFocus | null>(null);
  /** The card to scroll to once its days are loaded. */
  const [pendingCard, setPendingCard] = useState<string | null>(null);

  useEffect(() => {
    if (!focus || focus.boardId !== boardId) return;
    if (!focus.planned) {
      setBacklogOpen(true);
      return;
    }
    // The grid is there once the board and its stages have loaded, which changes the layout.
    if (!grid.current || started.current === focus) return;
    started.current = focus;
    fetchCollectionCards(transport, focus.collectionId).then(
      (cards) => {
        const first = cards
          .filter((card) => card.board_id === boardId && card.start_date)
          .sort((a, b) => a.start_date!.localeCompare(b.start_date!))[0];
        if (!first) {
          // Sent back to the backlog since the link was drawn: look for it there.
          focusCollection({ ...focus, planned: false });
          return;
        }
        clearFocus();
        grid.current?.scrollToDate(first.start_date!);
        // Selected at once, so it is the selected card even while a filter hides it.
        select([first.id]);
        setPendingCard(first.id);
      },
      (error: unknown) => {
        clearFocus();
        notify(t('backlog.focusFailed', { name: focus.name ?? t('backlog.untitled'), problem: describeError(error) }), 'error');
      },
    );
  }, [focus, boardId, grid, layout, transport, t, notify, setBacklogOpen, select, clearFocus, focusCollection]);

  useEffect(() => {
    if (!pendingCard) return;
    // Once the planner selects something else, a card loading later must not pull the view back.
    if (!selected.includes(pendingCard) || grid.current?.showCard(pendingCard)) setPendingCard(null);
  }, [pendingCard, selected, grid, layout]);
}
