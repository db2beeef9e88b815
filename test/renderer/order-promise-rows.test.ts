import { describe, expect, it } from 'vitest';
import { blankRow } from '../../renderer/views/orders/new-order-rows.js';
import { draftRowsOf } from '../../renderer/views/orders/OrderPromiseDate.js';

describe('a new order’s rows as a promise-date draft', () => {
  it('sends the rows that name an activity, with their quantity and unit', () => {
    const cut = { ...blankRow(1), values: { ...blankRow(1).values, activity_id: 'a1', quantity: '2', unit: 'hours' } };
    const bare = { ...blankRow(2), values: { ...blankRow(2).values, activity_id: 'a2' } };
    const noActivity = { ...blankRow(3), values: { ...blankRow(3).values, description: 'Crate', quantity: '1' } };
    expect(draftRowsOf([blankRow(0), cut, bare, noActivity])).toEqual([
      { activity_id: 'a1', quantity: 2, unit: 'hours' },
      { activity_id: 'a2' },
    ]);
  });
});
