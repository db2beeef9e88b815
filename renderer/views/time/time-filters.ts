/**
 * The filters of the entries list and the export dialog, as the API's filter text. Ids are
 * quoted; a "no user" choice (entries tracked with an API key) is `user_id:eq:null`.
 *
 * The export and mark-exported routes filter time entries by their own fields only (not
 * `card.board_id`), so a board or collection there becomes the list of its cards' ids.
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

function ownFieldAtoms(filters: Pick<TimeFilters, 'userId' | 'activityId' | 'status'>): string[] {
  const atoms: string[] = [];
  if (filters.userId === noUser) atoms.push('user_id:eq:null');
  else if (filters.userId) atoms.push(`user_id:eq:${quote(filters.userId)}`);
  if (filters.activityId) atoms.push(`activity_id:eq:${quote(filters.activityId)}`);
  if (filters.status) atoms.push(`status:eq:${filters.status}`);
  return atoms;
}

/** The entries list: started within the period, and the other filters. */
export function entryListFilter(filters: TimeFilters, period: { from: string; to: string }): string {
  const atoms = [`start:gte:${period.from}`, `start:lt:${period.to}`, ...ownFieldAtoms(filters)];
  if (filters.collectionId) atoms.push(`card.collection_id:eq:${quote(filters.collectionId)}`);
  else if (filters.boardId) atoms.push(`card.board_id:eq:${quote(filters.boardId)}`);
  return atoms.join(',and,');
}

export interface ExportFilterInput extends Pick<TimeFilters, 'userId' | 'activityId' | 'status'> {
  /** Only entries not exported before. */
  notExported: boolean;
  /** The cards of the chosen board or collection; null when neither is chosen. */
  cardIds: readonly string[] | null;
}

/** The report's filter (the period is its own parameter). Empty when nothing is filtered. */
export function exportFilter(input: ExportFilterInput): string {
  const atoms = ownFieldAtoms(input);
  if (input.notExported) atoms.push('synchronized_at:eq:null');
  if (input.cardIds) {
    // card_id is required, so `eq:null` matches nothing: a board without cards has no time.
    const cards = input.cardIds.length === 0 ? ['card_id:eq:null'] : input.cardIds.map((id) => `card_id:eq:${quote(id)}`);
    atoms.push(cards.length === 1 ? cards[0]! : `(${cards.join(',or,')})`);
  }
  return atoms.join(',and,');
}

/**
 * Mark as exported selects what the report showed: entries overlapping the period (a report
 * clips them to it), a running one included.
 */
export function markExportedFilter(reportFilter: string, period: { from: string; to: string }): string {
  const overlap = `start:lt:${period.to},and,(end:gt:${period.from},or,end:eq:null)`;
  return reportFilter ? `${overlap},and,${reportFilter}` : overlap;
}
