/**
 * What the backlog, the order screen and the board say of material (renderer/views/planboard/
 * material.ts, docs/API.md "Material"), in English and Dutch, from answers of GET /v1/material
 * written out by hand. Tue 15 Dec 2026 is the expected day.
 */
import { describe, expect, it } from 'vitest';
import type { AwaitedMaterial, CollectionMaterial } from '../../shared/material.js';
import { translatorFor } from '../../renderer/i18n/index.js';
import { earlyCardWarning, materialLines } from '../../renderer/views/planboard/material.js';

const english = translatorFor('en');
const dutch = translatorFor('nl');

function awaited(order_code: string | null, expected: string | null): AwaitedMaterial {
  return {
    row_id: `row-${order_code}`,
    order_id: `order-${order_code}`,
    order_code,
    item_id: null,
    expected,
    basis: expected ? 'promised_date' : null,
    activity_id: null,
  };
}

const waiting: CollectionMaterial = {
  collection_id: 'c1',
  waits: [{ stage_id: 'saw', earliest_start: '2026-12-15', waiting_for: [awaited('PO-123', '2026-12-15'), awaited('PO-9', '2026-12-10')] }],
  date_unknown: [awaited('PO-700', null), awaited(null, null)],
  early_cards: [{ card_id: 'k1', stage_id: 'saw', start_date: '2026-12-14', earliest_start: '2026-12-15' }],
};

describe('material in words', () => {
  it('names the latest material of each waiting stage with its day, then the orders without a date', () => {
    expect(materialLines(waiting, english)).toEqual([
      'Waiting for PO-123, expected Tue 15 Dec',
      'Waiting for PO-700, date unknown',
      'Waiting for a purchase order without a code, date unknown',
    ]);
    expect(materialLines(waiting, dutch)).toEqual([
      'Wacht op PO-123, verwacht di 15 dec',
      'Wacht op PO-700, datum onbekend',
      'Wacht op een inkooporder zonder code, datum onbekend',
    ]);
  });

  it('says nothing of a collection that waits for nothing, or is not known yet', () => {
    expect(materialLines(undefined, english)).toEqual([]);
    expect(materialLines({ collection_id: 'c2', waits: [], date_unknown: [], early_cards: [] }, english)).toEqual([]);
  });

  it('warns on the card that starts before its material, and on no other', () => {
    expect(earlyCardWarning(waiting, 'k1', english)).toBe('Starts before its material: waiting for PO-123, expected Tue 15 Dec');
    expect(earlyCardWarning(waiting, 'k1', dutch)).toBe('Begint voordat het materiaal er is: wacht op PO-123, verwacht di 15 dec');
    expect(earlyCardWarning(waiting, 'k2', english)).toBeNull();
    expect(earlyCardWarning(undefined, 'k1', english)).toBeNull();
  });
});
