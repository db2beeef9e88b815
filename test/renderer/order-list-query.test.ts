import { describe, expect, it } from 'vitest';
import {
  noOrderFilters,
  orderFilterText,
  orderPageQuery,
  orderSortText,
  toggledSort,
} from '../../renderer/views/orders/order-list-query.js';

describe('order list query', () => {
  it('sends no filter when nothing is filtered', () => {
    expect(orderFilterText(noOrderFilters)).toBeUndefined();
  });

  it('searches code and description, quoted so commas and colons are text', () => {
    expect(orderFilterText({ ...noOrderFilters, search: 'ab, c:d' })).toBe("(code:contains:'ab, c:d',or,description:contains:'ab, c:d')");
  });

  it('splits a search at quotes, which the filter grammar cannot carry, and requires every piece', () => {
    expect(orderFilterText({ ...noOrderFilters, search: "O'Brien" })).toBe(
      "(code:contains:'O',or,description:contains:'O'),and,(code:contains:'Brien',or,description:contains:'Brien')",
    );
  });

  it('combines type, status, relation and a date range on the chosen date with and', () => {
    const filter = orderFilterText({
      ...noOrderFilters,
      type: 'Sales',
      status: 'open',
      relationId: '0190a1b2-0000-7000-8000-000000000001',
      dateField: 'promised_date',
      from: '2025-01-01',
      to: '2025-01-31',
    });
    expect(filter).toBe(
      "type:eq:Sales,and,status:eq:'open',and,relation_id:eq:0190a1b2-0000-7000-8000-000000000001,and,promised_date:gte:2025-01-01,and,promised_date:lte:2025-01-31",
    );
  });

  it('flips the direction on the same column and starts ascending on another', () => {
    expect(toggledSort({ field: 'code', direction: 'asc' }, 'code')).toEqual({ field: 'code', direction: 'desc' });
    expect(toggledSort({ field: 'code', direction: 'desc' }, 'date')).toEqual({ field: 'date', direction: 'asc' });
    expect(orderSortText({ field: 'promised_date', direction: 'desc' })).toBe('promised_date:desc');
  });

  it('pages in 500s with the relation and the collection embedded', () => {
    expect(orderPageQuery(undefined, 'code:asc', 3)).toEqual({
      filter: undefined,
      sort: 'code:asc',
      limit: 500,
      offset: 1500,
      with: 'relation,collection',
    });
  });
});
