/**
 * Cards waiting for "Delete 12 cards?" to be answered. Deleting more than `confirmDeleteAbove`
 * cards at once asks first (issue 18, "Safe and calm"); a few go at once, and their toast
 * offers Undo.
 */
import { create } from 'zustand';
import type { PlanCard } from './plan-card.js';

export const confirmDeleteAbove = 3;

interface DeleteConfirmState {
  cards: readonly PlanCard[] | null;
  ask(cards: readonly PlanCard[]): void;
  close(): void;
}

export const useDeleteConfirm = create<DeleteConfirmState>()((set) => ({
  cards: null,
  ask: (cards) => set({ cards }),
  close: () => set({ cards: null }),
}));
