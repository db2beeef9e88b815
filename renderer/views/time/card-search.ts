/**
 * What a planner types to find a card, as the API's filter (docs/API.md "Filtering"): words
 * are looked for in the card's and its collection's name, its stage and its activities
 * (description or code), and a date — `2026-12-02`, `2-12`, `2/12/2026`, `2 Dec`, `2 december`,
 * `2 mrt` — finds the cards planned on that day. "SO-1001 zagen 2 dec" finds the sawing card
 * of SO-1001 on 2 December. Pure (test/renderer/card-search.test.ts).
 */
import { addDays } from '../../../shared/dates.js';
import { textSearchFilter } from '../../../shared/filter.js';

/** Where a word is looked for. */
export const cardSearchFields = ['name', 'collection.name', 'stage.name', 'activities.description', 'activities.code'] as const;

/** Month names and their short forms, English and Dutch, as a planner types them. */
const months: readonly (readonly string[])[] = [
  ['jan', 'january', 'januari'],
  ['feb', 'february', 'februari'],
  ['mar', 'march', 'mrt', 'maart'],
  ['apr', 'april'],
  ['may', 'mei'],
  ['jun', 'june', 'juni'],
  ['jul', 'july', 'juli'],
  ['aug', 'august', 'augustus'],
  ['sep', 'sept', 'september'],
  ['oct', 'october', 'okt', 'oktober'],
  ['nov', 'november'],
  ['dec', 'december'],
];

function monthOf(word: string): number | null {
  const lower = word.toLowerCase().replace(/\.$/, '');
  const index = months.findIndex((names) => names.includes(lower));
  return index === -1 ? null : index + 1;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** A real calendar date, or null (31 Feb is none). */
function dateOf(year: number, month: number, day: number): string | null {
  if (month < 1 || month > 12 || day < 1 || day > 31) return null;
  const date = `${year}-${pad(month)}-${pad(day)}`;
  // 31 Feb rolls over to March: not the date typed.
  return addDays(date, 0) === date ? date : null;
}

/** A day and month without a year: the one nearest to today (a planner in December means next January). */
function nearest(month: number, day: number, today: string): string | null {
  const year = Number(today.slice(0, 4));
  const candidates = [year - 1, year, year + 1].map((y) => dateOf(y, month, day)).filter((d): d is string => d !== null);
  const distance = (date: string) => Math.abs(Date.parse(date) - Date.parse(today));
  return candidates.sort((a, b) => distance(a) - distance(b))[0] ?? null;
}

function fullYear(text: string): number {
  return text.length === 2 ? 2000 + Number(text) : Number(text);
}

/** The dates in a text and what is left of it: `{dates: ['2026-12-02'], words: 'SO-1001 zagen'}`. */
export function datesInSearch(text: string, today: string): { dates: string[]; words: string } {
  const dates: string[] = [];
  const take = (date: string | null, whole: string): string => {
    if (!date) return whole;
    dates.push(date);
    return ' ';
  };
  let rest = text.replace(/(?<![\w-])(\d{4})-(\d{1,2})-(\d{1,2})(?![\w-])/g, (whole, y: string, m: string, d: string) =>
    take(dateOf(Number(y), Number(m), Number(d)), whole),
  );
  rest = rest.replace(
    /(?<![\w-])(\d{1,2})[-/.](\d{1,2})(?:[-/.](\d{4}|\d{2}))?(?![\w-])/g,
    (whole, d: string, m: string, y: string | undefined) =>
      take(y ? dateOf(fullYear(y), Number(m), Number(d)) : nearest(Number(m), Number(d), today), whole),
  );
  rest = rest.replace(
    /(?<![\w-])(\d{1,2})\s+([a-z]{3,9}\.?)(?:\s+(\d{4}))?(?![\w-])/gi,
    (whole, d: string, name: string, y: string | undefined) => {
      const month = monthOf(name);
      if (month === null) return whole;
      return take(y ? dateOf(Number(y), month, Number(d)) : nearest(month, Number(d), today), whole);
    },
  );
  return { dates, words: rest.replace(/\s+/g, ' ').trim() };
}

/** The filter for a card search; undefined when the text asks for nothing. */
export function cardSearchFilter(text: string, today: string): string | undefined {
  const { dates, words } = datesInSearch(text, today);
  const atoms = words
    ? words
        .split(' ')
        .map((word) => textSearchFilter(word, cardSearchFields))
        .filter((atom): atom is string => Boolean(atom))
    : [];
  // A card is on a day when its span holds it.
  for (const date of dates) atoms.push(`(start_date:lte:${date},and,end_date:gte:${date})`);
  return atoms.length > 0 ? atoms.join(',and,') : undefined;
}
