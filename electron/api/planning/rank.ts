/**
 * Card ranks: strings whose text order is the cards' order in a stage, so a card moves between
 * two others by getting a rank between theirs, without renumbering the rest.
 *
 * A rank is 12 letters a–z read as a base-26 number (26^12 ≈ 9.5 × 10^16 places). Appending
 * steps 26^7 past the last rank (millions of appends before the end), inserting takes the
 * midpoint; only when two ranks are adjacent numbers does a rank grow a letter, by fractional
 * indexing on the text. Generated ranks never make room run out at the start: the smallest
 * rank we make is far above `aaaaaaaaaaaa`.
 */
const width = 12;
const base = 26n;
const space = base ** BigInt(width);
const appendStep = base ** 7n;
const letterA = 'a'.charCodeAt(0);
const pastZ = 'z'.charCodeAt(0) + 1;

function toNumber(rank: string): bigint {
  let n = 0n;
  for (let i = 0; i < width; i++) {
    const code = i < rank.length ? rank.charCodeAt(i) - letterA : 0;
    n = n * base + BigInt(Math.min(25, Math.max(0, code)));
  }
  return n;
}

function fromNumber(n: bigint): string {
  let text = '';
  for (let i = 0; i < width; i++) {
    text = String.fromCharCode(letterA + Number(n % base)) + text;
    n /= base;
  }
  return text;
}

/** Fractional indexing on the text, for two ranks with no whole number between them. */
function extend(before: string | null, after: string | null): string {
  let rank = '';
  let boundedBelow = before !== null;
  let boundedAbove = after !== null;
  for (let i = 0; i < 256; i++) {
    const lo = boundedBelow && i < before!.length ? before!.charCodeAt(i) : letterA;
    const hi = boundedAbove && i < after!.length ? after!.charCodeAt(i) : pastZ;
    if (hi - lo > 1) return rank + String.fromCharCode(Math.floor((lo + hi) / 2));
    rank += String.fromCharCode(lo);
    if (lo < hi) boundedAbove = false;
    if (!(boundedBelow && i < before!.length)) boundedBelow = false;
  }
  throw new Error('no rank fits between these two');
}

/** A rank strictly between `before` and `after` (either may be null: the start or the end). */
export function rankBetween(before: string | null, after: string | null): string {
  if (before !== null && after !== null && before >= after) throw new Error(`rank ${before} is not before ${after}`);
  const lo = before === null ? 0n : toNumber(before);
  const hi = after === null ? space : toNumber(after);
  if (after === null && lo + appendStep < hi) return fromNumber(before === null ? space / 2n : lo + appendStep);
  if (before === null && hi > appendStep * 2n) return fromNumber(hi - appendStep);
  const middle = (lo + hi) / 2n;
  const candidate = fromNumber(middle);
  // Never `aaaaaaaaaaaa`: nothing could go before it.
  if (middle > 0n && (before === null || candidate > before) && (after === null || candidate < after)) return candidate;
  return extend(before, after);
}
