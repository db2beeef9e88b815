/** Whether the planboard draws dependency arrows (the toolbar's Arrows toggle). */
import { create } from 'zustand';

interface ArrowsState {
  shown: boolean;
  setShown(shown: boolean): void;
}

export const useArrows = create<ArrowsState>()((set) => ({
  shown: false,
  setShown: (shown) => set({ shown }),
}));
