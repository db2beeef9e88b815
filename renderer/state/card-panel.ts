/**
 * Which card the card detail panel shows. The planboard opens it (Enter, double-click) and,
 * while it is open, a plain click on another card shows that one; the panel closes it (Esc, its
 * close button). UI state only: the card itself is read through React Query by the panel.
 */
import { create } from 'zustand';

interface CardPanelState {
  openCardId: string | null;
  open(id: string): void;
  close(): void;
}

export const useCardPanel = create<CardPanelState>()((set) => ({
  openCardId: null,
  open: (openCardId) => set({ openCardId }),
  close: () => set({ openCardId: null }),
}));
