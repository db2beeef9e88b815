/**
 * UI state only: which screen is open, which board the planner works on, which panel is open,
 * and similar choices that no one else needs to know. Anything that comes from the Planning
 * API belongs in React Query, never here, so there is exactly one copy of each record in the
 * renderer.
 */
import { create } from 'zustand';

export type ViewName =
  'planboard' | 'exceptions' | 'kpi' | 'orders' | 'projects' | 'activities' | 'resources' | 'time' | 'sync' | 'settings';

/** The board setup panel: closed, setting up a new board, or the picked one. */
export type BoardSetupMode = 'closed' | 'new' | 'picked';

/** A collection another screen asked the planboard to show, such as an order's collection. */
export interface CollectionFocus {
  collectionId: string;
  /** Typed into the backlog's search when it is shown there. */
  name: string | null;
  /** The board to show it on: its own, or one whose backlog lists collections on no board. */
  boardId: string;
  /** Planned: the grid shows and selects its first card. Not planned: the backlog finds it. */
  planned: boolean;
}

interface UiState {
  view: ViewName;
  showView(view: ViewName): void;
  /**
   * The board picked in the board picker. It may name a board deleted elsewhere since; read
   * it through `usePickedBoard`, which falls back to the first board.
   */
  boardId: string | null;
  pickBoard(id: string): void;
  boardSetup: BoardSetupMode;
  openBoardSetup(mode: Exclude<BoardSetupMode, 'closed'>): void;
  closeBoardSetup(): void;
  /** What the planboard is asked to show once it is open; it clears it when shown. */
  collectionFocus: CollectionFocus | null;
  /** Opens the planboard on the focus's board, to show the collection there. */
  focusCollection(focus: CollectionFocus): void;
  clearCollectionFocus(): void;
}

export const useUiStore = create<UiState>()((set) => ({
  // The planboard is where a planner starts: it picks a board or sets up the first one.
  view: 'planboard',
  showView: (view) => set({ view }),
  boardId: null,
  pickBoard: (boardId) => set({ boardId }),
  boardSetup: 'closed',
  openBoardSetup: (boardSetup) => set({ boardSetup }),
  closeBoardSetup: () => set({ boardSetup: 'closed' }),
  collectionFocus: null,
  focusCollection: (focus) => set({ view: 'planboard', boardId: focus.boardId, boardSetup: 'closed', collectionFocus: focus }),
  clearCollectionFocus: () => set({ collectionFocus: null }),
}));
