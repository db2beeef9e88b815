/**
 * The filters of the entries list and the export dialog, as the API's filter text. Ids are
 * quoted; a "no user" choice (entries tracked with an API key) is `user_id:eq:null`. A board
 * or collection filters on the entry's card (`card.board_id`), which the list, the report
 * and mark-as-exported all accept.
 */
import type { TimeStatus } from '../../../shared/resources/time-tracking.js';
import type { PeriodPreset } from './periods.js';

/** The user filter's choice for entries without a user. */
export const noUser = 'none';

export interface TimeFilters {
  userId: string;
  boardId: string;
  collectionId: string;
  activityId: string;
  status: TimeStatus | '';
  period: PeriodPreset;
  customStart: string;
  customEnd: string;
}

/** The period and its custom days, as the filters and the payroll summary pick them. */
export type PeriodChoice = Pick<TimeFilters, 'period' | 'customStart' | 'customEnd'>;

export const noTimeFilters: TimeFilters = {
  userId: '',
  boardId: '',
  collectionId: '',
  activityId: '',
  status: '',
  period: 'this_week',
  customStart: '',
  customEnd: '',
};

const quote = (value: string) => `'${value.replace(/'/g, '')}'`;

type ChosenFilters = Omit<TimeFilters, 'period' | 'customStart' | 'customEnd'>;

/** The chosen filters other than the period; a collection makes its board's filter moot. */
function chosenAtoms(filters: ChosenFilters): string[] {
  const atoms: string[] = [];
  if (filters.userId === noUser) atoms.push('user_id:eq:null');
  else if (filters.userId) atoms.push(`user_id:eq:${quote(filters.userId)}`);
  if (filters.activityId) atoms.push(`activity_id:eq:${quote(filters.activityId)}`);
  if (filters.status) atoms.push(`status:eq:${filters.status}`);
  if (filters.collectionId) atoms.push(`card.collection_id:eq:${quote(filters.collectionId)}`);
  else if (filters.boardId) atoms.push(`card.board_id:eq:${quote(filters.boardId)}`);
  return atoms;
}

/** The entries list: started within the period, and the other filters. */
export function entryListFilter(filters: TimeFilters, period: { from: string; to: string }): string {
  return [`start:gte:${period.from}`, `start:lt:${period.to}`, ...chosenAtoms(filters)].join(',and,');
}

export interface ExportFilterInput extends ChosenFilters {
  /** Only entries not exported before. */
  notExported: boolean;
}

/** The report's filter (the period is its own parameter). Empty when nothing is filtered. */
export function exportFilter(input: ExportFilterInput): string {
  const atoms = chosenAtoms(input);
  if (input.notExported) atoms.push('synchronized_at:eq:null');
  return atoms.join(',and,');
}

/**
 * Mark as exported selects what the report showed: entries overlapping the period (a report
 * clips them to it), a running one included.
 */
export function markExportedFilter(reportFilter: string, period: { from: string; to: string }): string {
  const overlap = withTimeIn(period);
  return reportFilter ? `${overlap},and,${reportFilter}` : overlap;
}

/** Entries with time between two instants (the API's ISO text): also one begun before, and running timers. */
function withTimeIn(period: { from: string; to: string }): string {
  return `start:lt:${period.to},and,(end:gt:${period.from},or,end:eq:null)`;
}

/** Whose time the sheet and the timer show: one user's, or (`null`) the entries booked for nobody. */
export function userEntriesFilter(userId: string | null): string {
  return userId ? `user_id:eq:'${userId}'` : 'user_id:eq:null';
}

/** A person's entries with time in a week, also a night shift begun on the Sunday before. */
export function entriesWithTimeIn(userId: string | null, period: { from: string; to: string }): string {
  return `${userEntriesFilter(userId)},and,${withTimeIn(period)}`;
}
