/**
 * UI state only: which screen is open and similar choices that no one else needs to know.
 * Anything that comes from the Planning API belongs in React Query, never here, so there is
 * exactly one copy of each record in the renderer.
 */
import { create } from 'zustand';

export type ViewName = 'planboard' | 'orders' | 'projects' | 'time' | 'sync' | 'settings';

interface UiState {
  view: ViewName;
  showView(view: ViewName): void;
}

export const useUiStore = create<UiState>()((set) => ({
  // Projects is the one screen built so far, so the app opens on it rather than on a
  // placeholder. Move this to the planboard once that screen exists.
  view: 'projects',
  showView: (view) => set({ view }),
}));
