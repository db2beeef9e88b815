/**
 * How a relation between two cards reads from one of them. A relation is stored once, from
 * `card_id` to `related_card_id`; seen from the related card, "blocks" reads "blocked by".
 */
import type { CardRelation } from '../../../shared/resources/card.js';
import type { MessageKey, Translate } from '../../i18n/index.js';

export type RelationType = CardRelation['type'];

const outgoing: Record<RelationType, MessageKey> = {
  blocks: 'card.relation.blocks',
  depends: 'card.relation.depends',
  related: 'card.relation.related',
  cloned: 'card.relation.cloned',
};
const incoming: Record<RelationType, MessageKey> = {
  blocks: 'card.relation.blockedBy',
  depends: 'card.relation.neededBy',
  related: 'card.relation.related',
  cloned: 'card.relation.clonedAs',
};

/** What the "Add relation" choice offers, in the words of the card being edited. */
export function relationChoices(t: Translate): { type: RelationType; text: string }[] {
  return (Object.keys(outgoing) as RelationType[]).map((type) => ({ type, text: t(outgoing[type]) }));
}

export interface RelationSide {
  /** The other card's id. */
  otherId: string;
  /** "Blocks", "Blocked by", …: read before the other card's name. */
  wording: string;
}

/** The relation as `cardId` sees it: which card is the other one, and what it is to it. */
export function relationFrom(
  relation: Pick<CardRelation, 'card_id' | 'related_card_id' | 'type'>,
  cardId: string,
  t: Translate,
): RelationSide {
  if (relation.card_id === cardId) return { otherId: relation.related_card_id, wording: t(outgoing[relation.type]) };
  return { otherId: relation.card_id, wording: t(incoming[relation.type]) };
}
