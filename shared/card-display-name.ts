/**
 * The one name a planner reads for a card, everywhere: pickers, the timer, the week sheet,
 * time entries, the card panel, the planboard's hover title and the time reports (issue 17,
 * "Cards a person can tell apart"). All cards of an order carry the order's code, so the code
 * alone cannot tell Sawing from Painting: the name is the collection, then the stage (or the
 * activity when there is no stage), then the card's dates when they are needed to tell two
 * cards apart, e.g. "SO-1001 · Sawing · 2–3 Dec".
 *
 * Pure and without time zones: a card's dates are calendar dates (`YYYY-MM-DD`), shown as
 * they are, so the API and the renderer give the same text.
 */

/** The fields of a card its name is made of. */
export interface CardForName {
  name?: string | null;
  start_date?: string | null;
  end_date?: string | null;
}

/** The records around a card that name it; any of them may be missing. */
export interface CardNameParts {
  collection?: { name?: string | null } | null;
  stage?: { name?: string | null } | null;
  activity?: { description?: string | null; code?: string | null } | null;
}

export interface CardNameOptions {
  /** Add the card's dates ("2–3 Dec"). Default false; `cardDisplayNames` adds them when two names clash. */
  dates?: boolean;
  /** Locale of the month names (BCP 47). Default `en-GB`, which writes "2 Dec". */
  locale?: string;
  /** The name of a card with neither a collection name nor a name of its own. Default "Untitled card". */
  untitled?: string;
}

const separator = ' · ';
const monthFormats = new Map<string, Intl.DateTimeFormat>();

function monthName(date: string, locale: string): string {
  let format = monthFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { month: 'short', timeZone: 'UTC' });
    monthFormats.set(locale, format);
  }
  return format.format(Date.UTC(Number(date.slice(0, 4)), Number(date.slice(5, 7)) - 1, 15));
}

const isDate = (value: string | null | undefined): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value);

/**
 * A card's dates, day before month as the rest of the app writes them: "2 Dec", "2–3 Dec",
 * "30 Nov–2 Dec", and with years only when the span crosses one: "30 Dec 2026–2 Jan 2027".
 * Null when the card has no dates (it waits in the backlog).
 */
export function cardDates(card: CardForName, locale = 'en-GB'): string | null {
  const start = isDate(card.start_date) ? card.start_date : isDate(card.end_date) ? card.end_date : null;
  if (!start) return null;
  const end = isDate(card.end_date) && card.end_date > start ? card.end_date : start;
  const day = (date: string) => String(Number(date.slice(8, 10)));
  const month = (date: string) => monthName(date, locale);
  if (end === start) return `${day(start)} ${month(start)}`;
  if (start.slice(0, 4) !== end.slice(0, 4))
    return `${day(start)} ${month(start)} ${start.slice(0, 4)}–${day(end)} ${month(end)} ${end.slice(0, 4)}`;
  if (start.slice(0, 7) !== end.slice(0, 7)) return `${day(start)} ${month(start)}–${day(end)} ${month(end)}`;
  return `${day(start)}–${day(end)} ${month(end)}`;
}

const text = (value: string | null | undefined): string => (typeof value === 'string' ? value.trim() : '');

/**
 * The display name of one card: its collection's name (or its own name when the collection
 * has none), its own name when it differs from the collection's, its stage's name (or, with
 * no stage, its activity's description or code), and with `options.dates` its dates. Parts
 * that are missing or empty are left out; a card with nothing to go by is `options.untitled`.
 *
 *     cardDisplayName(card, { collection, stage }, { dates: true }) // "SO-1001 · Sawing · 2–3 Dec"
 */
export function cardDisplayName(card: CardForName, { collection, stage, activity }: CardNameParts, options: CardNameOptions = {}): string {
  const collectionName = text(collection?.name);
  const ownName = text(card.name);
  const parts: string[] = [];
  if (collectionName) parts.push(collectionName);
  if (ownName && ownName !== collectionName) parts.push(ownName);
  const detail = text(stage?.name) || text(activity?.description) || text(activity?.code);
  if (detail && !parts.includes(detail)) parts.push(detail);
  if (parts.length === 0) parts.push(options.untitled ?? 'Untitled card');
  if (options.dates) {
    const dates = cardDates(card, options.locale);
    if (dates) parts.push(dates);
  }
  return parts.join(separator);
}

/**
 * Display names for a list of cards shown together (a picker, the rows of a week sheet, a
 * report): the dates are added to exactly those cards whose name without dates is shared with
 * another card of the list, so "SO-1001 · Sawing" stays short until a second Sawing card of
 * SO-1001 is listed. `options.dates: true` adds them to every card. Names come back in the
 * order of `cards`.
 */
export function cardDisplayNames(cards: { card: CardForName; parts: CardNameParts }[], options: CardNameOptions = {}): string[] {
  const plain = cards.map(({ card, parts }) => cardDisplayName(card, parts, { ...options, dates: false }));
  const counts = new Map<string, number>();
  for (const name of plain) counts.set(name, (counts.get(name) ?? 0) + 1);
  return cards.map(({ card, parts }, i) =>
    options.dates || (counts.get(plain[i]!) ?? 0) > 1 ? cardDisplayName(card, parts, { ...options, dates: true }) : plain[i]!,
  );
}
