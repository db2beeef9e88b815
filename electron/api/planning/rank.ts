/**
 * Card ranks: strings whose text order is the cards' order in a stage, so a card moves between
 * two others by getting a rank between theirs, without renumbering the rest (fractional
 * indexing over the letters a–z). A rank never ends in `a`, so there is always room before it.
 */
const first = 'a'.charCodeAt(0);
const pastLast = 'z'.charCodeAt(0) + 1;

/** A rank strictly between `before` and `after` (either may be null: the start or the end). */
export function rankBetween(before: string | null, after: string | null): string {
  if (before !== null && after !== null && before >= after) throw new Error(`rank ${before} is not before ${after}`);
  let rank = '';
  // While the rank so far equals a bound's prefix, that bound still limits the next letter.
  let boundedBelow = before !== null;
  let boundedAbove = after !== null;
  for (let i = 0; i < 64; i++) {
    const lo = boundedBelow && i < before!.length ? before!.charCodeAt(i) : first;
    const hi = boundedAbove && i < after!.length ? after!.charCodeAt(i) : pastLast;
    if (hi - lo > 1) return rank + String.fromCharCode(Math.floor((lo + hi) / 2));
    rank += String.fromCharCode(lo);
    if (lo < hi) boundedAbove = false;
    if (!(boundedBelow && i < before!.length)) boundedBelow = false;
  }
  throw new Error('no rank fits between these two');
}
