/** What a time entry (or a running timer) is on: its card's display name, else (time on no card) its activity. */
import { cardName } from '../../components/card-name.js';
import type { Translate } from '../../i18n/index.js';
import type { EntryRow } from './time-api.js';

export function entryName(entry: Pick<EntryRow, 'card' | 'activity'>, t: Translate): string {
  if (entry.card) return cardName(entry.card, t);
  return entry.activity?.description ?? t('time.noCard');
}
