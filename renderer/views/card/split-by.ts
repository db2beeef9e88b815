/** What the split form sends: `{date}` as it is, or a percentage the card keeps as `{share}`. */
import type { SplitBy } from './card-api.js';

/** "25" → {share: 0.25}; blank, 0 or less, or 100 or more → null (the API takes 0 < share < 1). */
export function percentShare(text: string): SplitBy | null {
  const value = Number(text.trim());
  if (!text.trim() || !Number.isFinite(value) || value <= 0 || value >= 100) return null;
  return { share: value / 100 };
}
