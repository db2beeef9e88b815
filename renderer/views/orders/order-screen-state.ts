/**
 * UI state of the Orders screen, kept in a store so it survives switching screens: which part
 * is open (the list, one order, the new-order form), the list's filters and sort, and the
 * selected row. Orders themselves live in React Query, never here.
 */
import { create } from 'zustand';
import {
  defaultOrderSort,
  noOrderFilters,
  toggledSort,
  type OrderFilters,
  type OrderSort,
  type OrderSortField,
} from './order-list-query.js';

export type OrderScreen = { kind: 'list' } | { kind: 'order'; id: string } | { kind: 'new' };

interface OrderScreenState {
  screen: OrderScreen;
  openOrder(id: string): void;
  newOrder(): void;
  backToList(): void;
  filters: OrderFilters;
  setFilter<K extends keyof OrderFilters>(key: K, value: OrderFilters[K]): void;
  clearFilters(): void;
  sort: OrderSort;
  sortBy(field: OrderSortField): void;
  /** Index in the filtered, sorted list; another filter or sort makes it meaningless. */
  selectedIndex: number | null;
  select(index: number | null): void;
}

export const useOrderScreen = create<OrderScreenState>()((set) => ({
  screen: { kind: 'list' },
  openOrder: (id) => set({ screen: { kind: 'order', id } }),
  newOrder: () => set({ screen: { kind: 'new' } }),
  backToList: () => set({ screen: { kind: 'list' } }),
  filters: noOrderFilters,
  setFilter: (key, value) => set((state) => ({ filters: { ...state.filters, [key]: value }, selectedIndex: null })),
  clearFilters: () => set({ filters: noOrderFilters, selectedIndex: null }),
  sort: defaultOrderSort,
  sortBy: (field) => set((state) => ({ sort: toggledSort(state.sort, field), selectedIndex: null })),
  selectedIndex: null,
  select: (selectedIndex) => set({ selectedIndex }),
}));
