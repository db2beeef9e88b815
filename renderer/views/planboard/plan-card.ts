/**
 * A card as the planboard reads it: the card's own fields, the ids of its labels and
 * resources, and the two facts of its collection a card shows (name and warnings). The read
 * asks the API for exactly these (`cardListShape`), which keeps 5,000 cards small.
 */
import type { Card, CardTimeTrackingLast } from '../../../shared/resources/card.js';
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
  /** Who booked on it last and when: who started it (a running timer) or finished it. */
  time_tracking_last: CardTimeTrackingLast | null;
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
    'time_tracking_last',
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
    // The API's json field of that shape (shared/resources/card.ts), or absent from a write's answer.
    time_tracking_last: (c.time_tracking_last as CardTimeTrackingLast | null | undefined) ?? previous?.time_tracking_last ?? null,
    labels: links(c.labels, previous?.labels ?? []),
    resources: links(c.resources, previous?.resources ?? []),
    collection: collection ? { name: collection.name, warnings: (collection.warnings as string[]) ?? [] } : (previous?.collection ?? null),
  };
}

/** The name a card shows: its own, else its collection's. */
export function cardTitle(card: PlanCard, t: Translate): string {
  return card.name || card.collection?.name || t('planboard.card.untitled');
}

/**
 * The faces a card's title is drawn in (planboard.css `.pb-card`, `.pb-card--narrow`), and
 * the room each leaves for it: the card is its width less 2 px, less its borders (4 + 1) and
 * its side padding (6 + 6, or 2 + 2 when narrow).
 */
export const cardFaces = {
  normal: { weight: 600, size: 12, room: 2 + 5 + 12 },
  narrow: { weight: 600, size: 10, room: 2 + 5 + 4 },
} as const;
export type CardFace = keyof typeof cardFaces;

/** Measures a text in a card face, in px (text-width.ts in the page, a stand-in in tests). */
export type MeasureTitle = (text: string, face: CardFace) => number;

export interface ShownTitle {
  text: string;
  /** Drawn in the narrow face, which leaves a one-day card of week view room for four digits. */
  narrow: boolean;
}

/**
 * What a card shows in its width. Its title when it fits. Else what tells it apart from the
 * other cards of its row: every card of a stage row is of that stage, so the stage's name says
 * nothing there (ux-walk-2), but its order does: the collection's name, without the part every
 * card of the row shares (`shared`, "SO-" of SO-1001, SO-1002). When even that does not fit,
 * an order number keeps its end, where numbers differ ("…042"); words keep their start. The full
 * name is the hover title.
 */
export function shownTitle(title: string, order: string, shared: string, width: number, measure: MeasureTitle): ShownTitle {
  if (measure(title, 'normal') <= width - cardFaces.normal.room) return { text: title, narrow: false };
  const name = order || title;
  const own = shared && name.startsWith(shared) && name.length > shared.length ? name.slice(shared.length) : name;
  const room = width - cardFaces.narrow.room;
  if (measure(own, 'narrow') <= room || !/\d$/.test(own)) return { text: own, narrow: true };
  let tail = own.slice(1);
  while (tail.length > 1 && measure(`…${tail}`, 'narrow') > room) tail = tail.slice(1);
  return { text: `…${tail}`, narrow: true };
}

/**
 * The start the collection names of a row's cards share, up to and with its last separator
 * ("SO-" of SO-1001 and SO-1002, not "SO-100"): cut there, each name keeps a whole number.
 * Nothing when fewer than two names differ.
 */
export function sharedStart(names: Iterable<string>): string {
  const distinct = [...new Set([...names].filter(Boolean))];
  if (distinct.length < 2) return '';
  let shared = distinct[0]!;
  for (const name of distinct) {
    let at = 0;
    while (at < shared.length && shared[at] === name[at]) at++;
    shared = shared.slice(0, at);
  }
  const cut = shared.search(/[^\p{L}\p{N}][\p{L}\p{N}]*$/u);
  return cut === -1 ? '' : shared.slice(0, cut + 1);
}
