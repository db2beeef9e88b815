/**
 * Which cards depend on which, for the planboard's arrows (DependencyArrows.tsx), and where
 * an arrow runs.
 *
 * A collection's cards follow its stages: on the board's dependent stages (not `independent`,
 * docs/API.md "Planning"), in stage order, each card depends on the cards of the same
 * collection in the stage before it that has any, as the board's dependency behaviour sees it
 * (electron/api/planning/card-set-moves.ts). A card relation of type `blocks` (the card blocks
 * the related one) or `depends` (the card depends on the related one) is a dependency too.
 *
 * A dependency is late when the later card starts before the earlier one has ended: on or
 * before its last day (dates are whole days).
 *
 * Links are worked out once per layout (every loaded card), so a card whose neighbour in the
 * chain is off screen links to that neighbour and not to a card further on; what is drawn is
 * only the links of which both cards are rendered (`arrowsBetween`), recomputed per scroll
 * from a set lookup.
 */
import type { PlacedCard } from './board-layout.js';

export interface ChainStage {
  id: string;
  priority: number;
  independent?: boolean | null;
}

export interface RelationLink {
  card_id: string;
  related_card_id: string;
  type: string;
}

export interface DependencyLink {
  from: PlacedCard;
  to: PlacedCard;
  kind: 'stage' | 'relation';
  late: boolean;
}

export interface Arrow {
  id: string;
  from: string;
  to: string;
  kind: 'stage' | 'relation';
  late: boolean;
  /** The path's points: from the earlier card's right edge to the later card's left edge. */
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

export function isLate(from: { end_date: string | null }, to: { start_date: string | null }): boolean {
  return !!from.end_date && !!to.start_date && to.start_date <= from.end_date;
}

/** Every dependency between the placed cards: stage chains of each collection, then relations. */
export function dependencyLinks(
  placed: Iterable<PlacedCard>,
  stages: readonly ChainStage[],
  relations: readonly RelationLink[] = [],
): DependencyLink[] {
  const rank = new Map<string, number>();
  [...stages]
    .filter((stage) => !stage.independent)
    .sort((a, b) => a.priority - b.priority)
    .forEach((stage, at) => rank.set(stage.id, at));
  // Per collection, its cards by the rank of their stage.
  const chains = new Map<string, Map<number, PlacedCard[]>>();
  const byId = new Map<string, PlacedCard>();
  for (const p of placed) {
    byId.set(p.card.id, p);
    const at = rank.get(p.card.stage_id);
    if (at === undefined || !p.card.collection_id) continue;
    let chain = chains.get(p.card.collection_id);
    if (!chain) chains.set(p.card.collection_id, (chain = new Map()));
    const cards = chain.get(at);
    if (cards) cards.push(p);
    else chain.set(at, [p]);
  }
  const links: DependencyLink[] = [];
  for (const chain of chains.values()) {
    if (chain.size < 2) continue;
    const ranks = [...chain.keys()].sort((a, b) => a - b);
    for (let i = 1; i < ranks.length; i++) {
      for (const from of chain.get(ranks[i - 1]!)!) {
        for (const to of chain.get(ranks[i]!)!) links.push({ from, to, kind: 'stage', late: isLate(from.card, to.card) });
      }
    }
  }
  for (const relation of relations) {
    const [first, then] =
      relation.type === 'blocks'
        ? [relation.card_id, relation.related_card_id]
        : relation.type === 'depends'
          ? [relation.related_card_id, relation.card_id]
          : [];
    const from = first ? byId.get(first) : undefined;
    const to = then ? byId.get(then) : undefined;
    if (from && to) links.push({ from, to, kind: 'relation', late: isLate(from.card, to.card) });
  }
  return links;
}

/** The arrows of the links whose two cards are both rendered (`rendered`: their ids). */
export function arrowsBetween(links: readonly DependencyLink[], rendered: ReadonlySet<string>, cardHeight: number): Arrow[] {
  const arrows: Arrow[] = [];
  for (const { from, to, kind, late } of links) {
    if (!rendered.has(from.card.id) || !rendered.has(to.card.id)) continue;
    arrows.push({
      id: `${kind}:${from.card.id}:${to.card.id}`,
      from: from.card.id,
      to: to.card.id,
      kind,
      late,
      x1: from.left + from.width - 2,
      y1: from.top + cardHeight / 2,
      x2: to.left + 2,
      y2: to.top + cardHeight / 2,
    });
  }
  return arrows;
}

/** An arrow's path: a smooth S from its start to its end, bowing out sideways when it runs back. */
export function arrowPath({ x1, y1, x2, y2 }: Pick<Arrow, 'x1' | 'y1' | 'x2' | 'y2'>): string {
  const bend = Math.max(24, Math.abs(x2 - x1) / 2);
  return `M ${x1} ${y1} C ${x1 + bend} ${y1}, ${x2 - bend} ${y2}, ${x2} ${y2}`;
}
