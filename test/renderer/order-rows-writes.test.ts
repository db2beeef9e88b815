import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../renderer/api/client.js';
import type { OrderRow } from '../../shared/resources/order-row.js';
import { blankRow, placeOrderErrors, rowsToSend } from '../../renderer/views/orders/new-order-rows.js';
import { duplicateWrites } from '../../renderer/views/orders/row-duplicate.js';

function row(id: string, position: number | null, extra: Partial<OrderRow> = {}): OrderRow {
  return { id, position, code: null, description: null, quantity: null, quantity_delivered: null, ...extra } as OrderRow;
}

describe('duplicating an order row', () => {
  it('puts the copy right below the original and moves the rows below down one place', () => {
    const rows = [row('a', 0), row('b', 1, { code: 'B', quantity: 3, quantity_delivered: 2, external_ref: 'X-1' }), row('c', 2)];
    expect(duplicateWrites(rows, 1)).toEqual([
      { id: 'c', position: 3 },
      { position: 2, code: 'B', quantity: 3 },
    ]);
  });

  it('numbers rows whose position was never set', () => {
    expect(duplicateWrites([row('a', null), row('b', null)], 0)).toEqual([
      { id: 'a', position: 0 },
      { id: 'b', position: 2 },
      { position: 1 },
    ]);
  });
});

describe('the rows of a new order', () => {
  it('leaves blank rows out and remembers which form row each sent row is', () => {
    const drafts = [blankRow(0), blankRow(1), blankRow(2)];
    drafts[0]!.values.description = 'Frame';
    drafts[2]!.values.quantity = 'abc';
    expect(rowsToSend(drafts)).toEqual({ rows: [{ description: 'Frame' }, { quantity: 'abc' }], formIndex: [0, 2] });
  });

  it('places order_rows.N problems beside the form row that was sent as N', () => {
    const error = new ApiRequestError(422, {
      reference: 'r',
      errors: [
        {
          code: 10422,
          message: 'Unprocessable Content',
          description: 'order_rows.1.quantity must be a number',
          field: 'order_rows.1.quantity',
        },
        { code: 10422, message: 'Unprocessable Content', description: 'code may be at most 100 characters long', field: 'code' },
        {
          code: 10422,
          message: 'Unprocessable Content',
          description: 'order_rows.0.position must be at least 0',
          field: 'order_rows.0.position',
        },
      ],
    });
    expect(placeOrderErrors(error, [0, 2])).toEqual({
      header: { code: 'code may be at most 100 characters long' },
      rows: { 2: { quantity: 'quantity must be a number' } },
      elsewhere: ['order_rows.0.position: order_rows.0.position must be at least 0'],
    });
  });
});
