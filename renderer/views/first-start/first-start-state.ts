/**
 * Whether the planner put the first-start checklist away. Kept in localStorage, so it stays
 * away after a restart; the navigation's "Getting started" brings it back while setup is not
 * complete.
 */
import { create } from 'zustand';

const storageKey = 'planner.firstStart.dismissed';

function storedDismissed(): boolean {
  try {
    return globalThis.localStorage?.getItem(storageKey) === 'true';
  } catch {
    return false;
  }
}

interface FirstStartState {
  dismissed: boolean;
  setDismissed(dismissed: boolean): void;
}

export const useFirstStart = create<FirstStartState>()((set) => ({
  dismissed: storedDismissed(),
  setDismissed(dismissed) {
    try {
      globalThis.localStorage?.setItem(storageKey, String(dismissed));
    } catch {
      // Then it is put away for this session only.
    }
    set({ dismissed });
  },
}));
