/**
 * Short messages about what just happened: "Moved Frame to 24 Nov", or why it did not. Errors
 * stay until the planner dismisses them (a failure is never a silent nothing); confirmations
 * fade after a few seconds.
 */
import { create } from 'zustand';

export type NoticeTone = 'info' | 'error';

export interface Notice {
  id: number;
  tone: NoticeTone;
  text: string;
  /** A button beside the text that does what the message offers ("Move anyway"); it dismisses the message. */
  action?: NoticeAction;
}

export interface NoticeAction {
  label: string;
  run: () => void;
}

interface NoticesState {
  notices: Notice[];
  notify(text: string, tone?: NoticeTone, action?: NoticeAction): void;
  dismiss(id: number): void;
}

const infoLifetime = 5_000;
/** A confirmation that offers something (Undo) stays longer, so there is time to take it. */
const actionLifetime = 8_000;
/** Older messages go first when more pile up than anyone reads. */
const maxShown = 4;
let nextId = 1;

export const useNotices = create<NoticesState>()((set, get) => ({
  notices: [],
  notify(text, tone = 'info', action) {
    const id = nextId++;
    set({ notices: [...get().notices, { id, tone, text, ...(action && { action }) }].slice(-maxShown) });
    if (tone === 'info') setTimeout(() => get().dismiss(id), action ? actionLifetime : infoLifetime);
  },
  dismiss(id) {
    set({ notices: get().notices.filter((notice) => notice.id !== id) });
  },
}));
