/**
 * Where the week sheet puts the time a planner types, so that what it books lies within the
 * day of the cell and overlaps nothing else of the same person's: an overlap flag then always
 * means two real entries at the same time (docs/API.md "Time tracking", `overlaps`). Pure
 * (test/renderer/week-grid.test.ts).
 *
 *  - **New time** starts at 09:00, or where the person's last entry of that morning or later
 *    ends: the first free stretch of the day from 09:00 on that holds it. When none does, it
 *    goes as late as it fits before that (ending where the free stretch ends), so it is still
 *    booked on that day, in one piece.
 *  - **Changed time** keeps its start and moves its end, when the longer or shorter entry
 *    overlaps nothing and stays within its day; otherwise it moves, as new time would.
 *  - When the day has no free stretch that long, nothing is booked: the planner is told how
 *    much of the day is free, and the longest piece that fits.
 */

/** A stretch of time, in epoch milliseconds: from `start`, up to (not including) `end`. */
export interface Span {
  start: number;
  end: number;
}

export type Placement =
  | { kind: 'placed'; start: number; end: number }
  /** No free stretch holds it: `free` minutes of the day are free, `longest` of them in one piece. */
  | { kind: 'no-room'; free: number; longest: number };

const minuteMs = 60_000;

/** The stretches of `day` that none of `taken` covers, in order. */
export function freeSpans(day: Span, taken: readonly Span[]): Span[] {
  const busy = taken
    .map((span) => ({ start: Math.max(span.start, day.start), end: Math.min(span.end, day.end) }))
    .filter((span) => span.end > span.start)
    .sort((a, b) => a.start - b.start);
  const free: Span[] = [];
  let from = day.start;
  for (const span of busy) {
    if (span.start > from) free.push({ start: from, end: span.start });
    from = Math.max(from, span.end);
  }
  if (day.end > from) free.push({ start: from, end: day.end });
  return free;
}

/** New time of `minutes` on `day`, from `morning` (09:00 there) on if it fits, beside `taken`. */
export function placeOnDay(day: Span, taken: readonly Span[], minutes: number, morning: number): Placement {
  const length = minutes * minuteMs;
  const free = freeSpans(day, taken);
  for (const span of free) {
    const start = Math.max(span.start, morning);
    if (start + length <= span.end) return { kind: 'placed', start, end: start + length };
  }
  for (const span of [...free].reverse()) {
    if (span.end - span.start >= length) return { kind: 'placed', start: span.end - length, end: span.end };
  }
  const lengths = free.map((span) => Math.floor((span.end - span.start) / minuteMs));
  return { kind: 'no-room', free: lengths.reduce((sum, m) => sum + m, 0), longest: Math.max(0, ...lengths) };
}

/**
 * `entry` changed to `minutes`: the same start when that overlaps none of `others` and stays
 * within `day` (an entry that already ran past midnight, a night shift typed in the entry
 * editor, may keep doing so), else placed anew on `day`.
 */
export function resizeOnDay(day: Span, others: readonly Span[], entry: Span, minutes: number, morning: number): Placement {
  const end = entry.start + minutes * minuteMs;
  const lastEnd = entry.end > day.end ? entry.start + 24 * 60 * minuteMs : day.end;
  const clear = entry.start >= day.start && end <= lastEnd && others.every((other) => other.end <= entry.start || other.start >= end);
  return clear ? { kind: 'placed', start: entry.start, end } : placeOnDay(day, others, minutes, morning);
}
