/**
 * What the Time screen shows, kept while the planner visits other screens: the tab, the week
 * of the sheet, whose it is and the rows added to it, the entries list's filters, the payroll
 * summary's period, and whether the export dialog is open (the app menu's "Export time report"
 * opens it from anywhere).
 */
import { create } from 'zustand';
import { noTimeFilters, type PeriodChoice, type TimeFilters } from './time-filters.js';
import { rowKey, type RowSubject } from './week-grid.js';

export type TimeTab = 'week' | 'entries' | 'payroll';

interface TimeScreenState {
  tab: TimeTab;
  showTab(tab: TimeTab): void;
  /** The Monday of the week on the sheet; null follows the current week. */
  monday: string | null;
  showWeek(monday: string | null): void;
  /** Whose week the sheet shows and books for; undefined: the app's user. */
  sheetUser: string | null | undefined;
  showSheetOf(userId: string | null | undefined): void;
  addedRows: RowSubject[];
  addRow(row: RowSubject): void;
  filters: TimeFilters;
  setFilter<K extends keyof TimeFilters>(key: K, value: TimeFilters[K]): void;
  clearFilters(): void;
  /** The payroll summary's period: a month by default, as payroll is run. */
  payrollPeriod: PeriodChoice;
  setPayrollPeriod<K extends keyof PeriodChoice>(key: K, value: PeriodChoice[K]): void;
  exportOpen: boolean;
  /** The period the export dialog opens with: the payroll screen's when opened there; null: this month. */
  exportPeriod: PeriodChoice | null;
  openExport(period?: PeriodChoice): void;
  closeExport(): void;
}

export const useTimeScreen = create<TimeScreenState>()((set, get) => ({
  tab: 'week',
  showTab: (tab) => set({ tab }),
  monday: null,
  showWeek: (monday) => set({ monday }),
  sheetUser: undefined,
  showSheetOf: (sheetUser) => set({ sheetUser }),
  addedRows: [],
  addRow: (row) =>
    set({ addedRows: get().addedRows.some((added) => rowKey(added) === rowKey(row)) ? get().addedRows : [...get().addedRows, row] }),
  filters: noTimeFilters,
  setFilter: (key, value) => {
    const filters = { ...get().filters, [key]: value };
    // A collection belongs to one board: another board clears it.
    if (key === 'boardId') filters.collectionId = '';
    set({ filters });
  },
  clearFilters: () => set({ filters: noTimeFilters }),
  payrollPeriod: { period: 'this_month', customStart: '', customEnd: '' },
  setPayrollPeriod: (key, value) => set({ payrollPeriod: { ...get().payrollPeriod, [key]: value } }),
  exportOpen: false,
  exportPeriod: null,
  openExport: (period) => set({ exportOpen: true, exportPeriod: period ?? null }),
  closeExport: () => set({ exportOpen: false }),
}));
