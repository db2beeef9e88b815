import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../renderer/api/client.js';
import { catalogues } from '../../renderer/i18n/catalogues.js';
import { createTranslate } from '../../renderer/i18n/translate.js';
import { valueFromText, orderRowColumns } from '../../renderer/views/orders/order-row-columns.js';
import { isCellBlock, parseSpreadsheetText, pasteProblems, rowsFromPaste } from '../../renderer/views/orders/row-paste.js';

const english = createTranslate(catalogues, 'en');
const dutch = createTranslate(catalogues, 'nl');

const lookups = {
  items: [{ id: 'item-1', code: 'SEAT', description: 'Seat' }],
  activities: [
    { id: 'act-1', code: 'PNT', description: 'Painting' },
    { id: 'act-2', code: null, description: 'Welding' },
    { id: 'act-3', code: null, description: 'Welding' },
  ],
};

describe('reading cells copied from a spreadsheet', () => {
  it('splits lines at line breaks and cells at tabs, ignoring the trailing line break', () => {
    expect(parseSpreadsheetText('a\tb\r\nc\td\r\n')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('keeps tabs, line breaks and doubled quotes inside a quoted cell', () => {
    expect(parseSpreadsheetText('"two\nlines"\t"say ""hi"""\tx\n')).toEqual([['two\nlines', 'say "hi"', 'x']]);
  });

  it('keeps empty cells in their column', () => {
    expect(parseSpreadsheetText('R1\t\t\t\t5\n')).toEqual([['R1', '', '', '', '5']]);
  });

  it('tells one value from a block of cells', () => {
    expect(isCellBlock('12\n')).toBe(false);
    expect(isCellBlock('12\t13')).toBe(true);
    expect(isCellBlock('12\n13')).toBe(true);
  });
});

describe('rows from pasted cells', () => {
  it('reads the columns in the grid order and names items and activities by code or description', () => {
    const { rows, problems } = rowsFromPaste([['R1', 'Frame', 'seat', 'Painting', '2,5', 'hours']], lookups, english);
    expect(problems).toEqual([]);
    expect(rows).toEqual([{ code: 'R1', description: 'Frame', item_id: 'item-1', activity_id: 'act-1', quantity: 2.5, unit: 'hours' }]);
    expect(orderRowColumns.map((column) => column.field).slice(0, 6)).toEqual([
      'code',
      'description',
      'item_id',
      'activity_id',
      'quantity',
      'unit',
    ]);
  });

  it('names the pasted row of an unknown or ambiguous activity, skipping blank lines in the count', () => {
    const { problems } = rowsFromPaste(
      [
        ['R1', '', '', 'Sanding'],
        ['', ''],
        ['R2', '', '', 'welding'],
      ],
      lookups,
      english,
    );
    expect(problems).toEqual([
      'Pasted row 1: no activity has the code or description “Sanding”.',
      'Pasted row 2: 2 activity records are called “welding”; use the code.',
    ]);
  });

  it('refuses a row with more filled columns than the grid has', () => {
    const { problems } = rowsFromPaste([[...Array(10).fill('x'), 'extra']], lookups, english);
    expect(problems).toEqual(['Pasted row 1: has 11 columns; the grid has 10.']);
  });

  it('sends a quantity it cannot read as typed, for the API to refuse', () => {
    const quantity = orderRowColumns.find((column) => column.field === 'quantity')!;
    expect(valueFromText(quantity, 'abc')).toBe('abc');
    expect(valueFromText(quantity, ' 12 ')).toBe(12);
    expect(valueFromText(quantity, '0x10')).toBe('0x10');
    expect(valueFromText(quantity, '')).toBeNull();
  });

  it("turns the API's order_rows.N paths into pasted row numbers", () => {
    const error = new ApiRequestError(422, {
      reference: 'r',
      errors: [
        {
          code: 10422,
          message: 'Unprocessable Content',
          description: 'order_rows.1.quantity must be a number',
          field: 'order_rows.1.quantity',
        },
        {
          code: 10422,
          message: 'Unprocessable Content',
          description: 'order_rows.0.quantity_delivered must be a number',
          field: 'order_rows.0.quantity_delivered',
        },
      ],
    });
    expect(pasteProblems(error, english)).toEqual([
      'Pasted row 2, quantity: must be a number',
      'Pasted row 1, delivered: must be a number',
    ]);
    // The API's own words stay as they come; the planner's language names the row and column.
    expect(pasteProblems(error, dutch)).toEqual([
      'Geplakte regel 2, aantal: must be a number',
      'Geplakte regel 1, geleverd: must be a number',
    ]);
  });

  it('names the pasted row and the column in the planner’s language', () => {
    const { problems } = rowsFromPaste([['R1', '', 'Stoel']], lookups, dutch);
    expect(problems).toEqual(['Geplakte regel 1: geen artikel heeft de code of omschrijving “Stoel”.']);
  });
});
