/**
 * How a relation between two cards reads from one of them. A relation is stored once, from
 * `card_id` to `related_card_id`; seen from the related card, "blocks" reads "blocked by".
 */
import type { CardRelation } from '../../../shared/resources/card.js';

export type RelationType = CardRelation['type'];

/** What the "Add relation" choice offers, in the words of the card being edited. */
export const relationChoices: readonly { type: RelationType; text: string }[] = [
  { type: 'blocks', text: 'Blocks' },
  { type: 'depends', text: 'Depends on' },
  { type: 'related', text: 'Related to' },
  { type: 'cloned', text: 'Cloned from' },
];

const outgoing: Record<RelationType, string> = { blocks: 'Blocks', depends: 'Depends on', related: 'Related to', cloned: 'Cloned from' };
const incoming: Record<RelationType, string> = { blocks: 'Blocked by', depends: 'Needed by', related: 'Related to', cloned: 'Cloned as' };

export interface RelationSide {
  /** The other card's id. */
  otherId: string;
  /** "Blocks", "Blocked by", …: read before the other card's name. */
  wording: string;
}

/** The relation as `cardId` sees it: which card is the other one, and what it is to it. */
export function relationFrom(relation: Pick<CardRelation, 'card_id' | 'related_card_id' | 'type'>, cardId: string): RelationSide {
  if (relation.card_id === cardId) return { otherId: relation.related_card_id, wording: outgoing[relation.type] };
  return { otherId: relation.card_id, wording: incoming[relation.type] };
}
