/**
 * A card's name as the planner reads it on every screen: shared/card-display-name.ts in the
 * planner's language ("SO-1001 · Sawing · 2–3 Dec"), so the timer, the week sheet, the
 * entries, the pickers, the card panel and the planboard's hover title all say the same.
 */
import { cardDisplayName, cardDisplayNames, type CardForName, type CardNameParts } from '../../shared/card-display-name.js';
import type { Translate } from '../i18n/index.js';

/** A card with the records around it that its name is made of, as reads with `with` give them. */
export type NamedCard = CardForName & CardNameParts;

function parts(card: NamedCard): CardNameParts {
  return { collection: card.collection ?? null, stage: card.stage ?? null, activity: card.activity ?? null };
}

/** One card's name; `dates` adds its dates (always wanted where a card stands alone, as in a title). */
export function cardName(card: NamedCard | null | undefined, t: Translate, options: { dates?: boolean } = {}): string {
  if (!card) return t('time.untitledCard');
  return cardDisplayName(card, parts(card), { locale: t.locale, untitled: t('time.untitledCard'), ...options });
}

/** The names of cards listed together: dates only where two would otherwise read the same. */
export function cardNames(cards: readonly NamedCard[], t: Translate): string[] {
  return cardDisplayNames(
    cards.map((card) => ({ card, parts: parts(card) })),
    { locale: t.locale, untitled: t('time.untitledCard') },
  );
}
