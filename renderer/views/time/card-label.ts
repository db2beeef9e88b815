/** What a card is called on the Time screens: its own name, else its collection's. */
import type { Translate } from '../../i18n/index.js';
import type { CardSummary } from './time-api.js';

export function cardLabel(card: Pick<CardSummary, 'name' | 'collection'> | null | undefined, t: Translate): string {
  return card?.name || card?.collection?.name || t('time.untitledCard');
}

/** The collection a card belongs to, when its own name is shown. */
export function cardContext(card: Pick<CardSummary, 'name' | 'collection'> | null | undefined): string | null {
  return card?.name && card.collection?.name && card.collection.name !== card.name ? card.collection.name : null;
}
