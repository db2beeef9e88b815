/**
 * Whether the "Print the plan" dialog is open: the planboard's toolbar and the desktop menu's
 * "Print the plan…" (shared/ipc.ts) both open it, so it is state outside the toolbar.
 */
import { create } from 'zustand';

interface PrintPlanState {
  open: boolean;
  setOpen(open: boolean): void;
}

export const usePrintPlan = create<PrintPlanState>()((set) => ({
  open: false,
  setOpen: (open) => set({ open }),
}));
