/** Which collection's path the strip above the planboard shows (CollectionStrip.tsx), if any. */
import { create } from 'zustand';

interface PathStripState {
  collectionId: string | null;
  show(collectionId: string): void;
  close(): void;
}

export const usePathStrip = create<PathStripState>()((set) => ({
  collectionId: null,
  show: (collectionId) => set({ collectionId }),
  close: () => set({ collectionId: null }),
}));
