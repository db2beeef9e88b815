/**
 * The planboard's UI state: zoom, what is shown beside the grid, the filters, the selection
 * and keyboard cursor. Cards themselves live in React Query; this holds only choices and ids.
 */
import { create } from 'zustand';
import { noFilters, type CardFilters } from '../views/planboard/card-filter.js';
import type { Zoom } from '../views/planboard/date-geometry.js';
import { emptyNavState, type NavState } from '../views/planboard/keyboard.js';

/** The keyboard's state without the card panel (that one is the card panel's own store). */
export type Selection = Omit<NavState, 'panelOpen'>;

interface PlanboardState {
  zoom: Zoom;
  setZoom(zoom: Zoom): void;
  showCapacity: boolean;
  setShowCapacity(show: boolean): void;
  backlogOpen: boolean;
  setBacklogOpen(open: boolean): void;
  /** Rows of the grid: the board's stages, or the resources active on it (their workload). */
  rowsBy: 'stage' | 'resource';
  setRowsBy(rowsBy: 'stage' | 'resource'): void;
  /**
   * "New collection" was asked for (File menu, the N key) and the backlog has not opened its
   * form yet; the backlog opens it and clears this when it shows.
   */
  newCollectionRequested: boolean;
  requestNewCollection(): void;
  newCollectionShown(): void;
  filters: CardFilters;
  setFilters(filters: CardFilters): void;
  /** The saved board view the filters came from, while they are unchanged. */
  viewId: string | null;
  /** Shows a saved board view: its filters and zoom. */
  applyView(view: { id: string; filters: CardFilters; zoom?: Zoom | undefined }): void;
  selection: Selection;
  setSelection(selection: Selection): void;
  /** Selects exactly these cards (the cursor stays). */
  select(ids: readonly string[]): void;
  /** Forgets the selection and cursor, e.g. when another board is picked. */
  resetSelection(): void;
  setHelpOpen(open: boolean): void;
}

const { panelOpen: _panelOpen, ...emptySelection } = emptyNavState;

export const usePlanboardStore = create<PlanboardState>()((set) => ({
  zoom: 'week',
  setZoom: (zoom) => set({ zoom }),
  showCapacity: true,
  setShowCapacity: (showCapacity) => set({ showCapacity }),
  backlogOpen: true,
  setBacklogOpen: (backlogOpen) => set({ backlogOpen }),
  rowsBy: 'stage',
  setRowsBy: (rowsBy) => set({ rowsBy }),
  newCollectionRequested: false,
  requestNewCollection: () => set({ backlogOpen: true, newCollectionRequested: true }),
  newCollectionShown: () => set({ newCollectionRequested: false }),
  filters: noFilters,
  setFilters: (filters) => set({ filters, viewId: null }),
  viewId: null,
  applyView: (view) => set((state) => ({ filters: view.filters, viewId: view.id || null, zoom: view.zoom ?? state.zoom })),
  selection: emptySelection,
  setSelection: (selection) => set({ selection }),
  select: (ids) => set((state) => ({ selection: { ...state.selection, selected: [...ids] } })),
  resetSelection: () => set({ selection: emptySelection }),
  setHelpOpen: (helpOpen) => set((state) => ({ selection: { ...state.selection, helpOpen } })),
}));
