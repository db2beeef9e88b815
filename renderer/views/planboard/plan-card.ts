/**
 * A card as the planboard reads it: the card's own fields, the ids of its labels and
 * resources, and the two facts of its collection a card shows (name and warnings). The read
 * asks the API for exactly these (`cardListShape`), which keeps 5,000 cards small.
 */
import type { Card } from '../../../shared/resources/card.js';
import type { Collection } from '../../../shared/resources/collection.js';
import type { Translate } from '../../i18n/index.js';

export interface PlanCard {
  id: string;
  collection_id: string;
  stage_id: string;
  status_id: string | null;
  name: string | null;
  start_date: string;
  end_date: string;
  rank: string;
  time_tracking_running: boolean;
  labels: { id: string }[];
  resources: { id: string }[];
  collection: { name: string | null; warnings: string[] } | null;
}

/** `with` and `show` of the planboard's card read. */
export const cardListShape = {
  with: 'labels,resources,collection',
  show: [
    'id',
    'collection_id',
    'stage_id',
    'status_id',
    'name',
    'start_date',
    'end_date',
    'rank',
    'time_tracking_running',
    'labels.*.id',
    'resources.*.id',
    'collection.name',
    'collection.warnings',
  ].join(','),
} as const;

/**
 * A card as a write or the planning operation returns it (all fields, no relations) in the
 * planboard's shape. Relations it does not carry are kept from `previous` when given.
 */
export function toPlanCard(
  card: Card | Record<string, unknown>,
  collection: Pick<Collection, 'name' | 'warnings'> | null,
  previous?: PlanCard,
): PlanCard {
  const c = card as Record<string, unknown>;
  const links = (value: unknown, fallback: { id: string }[]): { id: string }[] =>
    Array.isArray(value) ? value.map((item) => ({ id: String((item as { id: unknown }).id) })) : fallback;
  return {
    id: String(c.id),
    collection_id: String(c.collection_id),
    stage_id: String(c.stage_id),
    status_id: (c.status_id as string | null | undefined) ?? null,
    name: (c.name as string | null | undefined) ?? null,
    start_date: String(c.start_date),
    end_date: String(c.end_date ?? c.start_date),
    rank: String(c.rank ?? ''),
    time_tracking_running: Boolean(c.time_tracking_running),
    labels: links(c.labels, previous?.labels ?? []),
    resources: links(c.resources, previous?.resources ?? []),
    collection: collection ? { name: collection.name, warnings: (collection.warnings as string[]) ?? [] } : (previous?.collection ?? null),
  };
}

/** The name a card shows: its own, else its collection's. */
export function cardTitle(card: PlanCard, t: Translate): string {
  return card.name || card.collection?.name || t('planboard.card.untitled');
}

/** Roughly how wide a character of a card's title runs (12 px semibold), and what a card keeps free (padding, border). */
const titleCharWidth = 7;
const titleMargin = 14;

/**
 * The title a card shows in its width: its name when it fits, else its stage's name. In week
 * and month views a day is some 40 px wide, and every card of an order would read "SO-…";
 * the stage ("Saw", "Paint") tells them apart (issue 17). The full name is the hover title.
 */
export function shownTitle(title: string, stageName: string, width: number): string {
  return !stageName || title.length * titleCharWidth <= width - titleMargin ? title : stageName;
}
