/**
 * The rows of a new order as the form holds them, what is sent for them (blank rows are left
 * out), and where the API's problems with the whole order go: `order_rows.N.quantity` belongs
 * beside the quantity of the N-th row *sent*, which is not the N-th row of the form when blank
 * rows were skipped.
 */
import { ApiRequestError, describeError } from '../../api/client.js';
import type { FieldWording } from '../../api/field-labels.js';
import { orderHeaderFields } from './order-draft.js';
import { columnOfField, valueFromText } from './order-row-columns.js';

export const newRowFields = ['code', 'description', 'item_id', 'activity_id', 'quantity', 'unit'] as const;

export type NewRowField = (typeof newRowFields)[number];

export interface NewRowDraft {
  /** Stable across removals, for React. */
  key: number;
  values: Record<NewRowField, string>;
}

export function blankRow(key: number): NewRowDraft {
  return { key, values: { code: '', description: '', item_id: '', activity_id: '', quantity: '', unit: '' } };
}

export function isBlankRow(row: NewRowDraft): boolean {
  return newRowFields.every((field) => row.values[field].trim() === '');
}

export interface RowsToSend {
  rows: Record<string, string | number>[];
  /** For each sent row, its index in the form. */
  formIndex: number[];
}

export function rowsToSend(drafts: readonly NewRowDraft[]): RowsToSend {
  const sent: RowsToSend = { rows: [], formIndex: [] };
  drafts.forEach((draft, index) => {
    if (isBlankRow(draft)) return;
    const row: Record<string, string | number> = {};
    for (const field of newRowFields) {
      const value = valueFromText(columnOfField(field)!, draft.values[field]);
      if (value !== null) row[field] = value;
    }
    sent.rows.push(row);
    sent.formIndex.push(index);
  });
  return sent;
}

export interface PlacedOrderErrors {
  header: Record<string, string>;
  /** Form row index → field → message. */
  rows: Record<number, Partial<Record<NewRowField, string>>>;
  /** What no input shows: said above the buttons, so nothing the API said is lost. */
  elsewhere: string[];
}

export function placeOrderErrors(error: unknown, formIndex: readonly number[], word?: FieldWording): PlacedOrderErrors {
  const placed: PlacedOrderErrors = { header: {}, rows: {}, elsewhere: [] };
  if (!error) return placed;
  if (!(error instanceof ApiRequestError) || error.items.length === 0) {
    placed.elsewhere.push(describeError(error));
    return placed;
  }
  const append = (current: string | undefined, text: string) => (current ? `${current} ${text}` : text);
  for (const item of error.items) {
    const worded = word?.(item);
    const text = worded ?? (item.description || item.message);
    const rowMatch = item.field ? /^order_rows\.(\d+)\.(\w+)$/.exec(item.field) : null;
    const formRow = rowMatch ? formIndex[Number(rowMatch[1])] : undefined;
    const rowField = rowMatch?.[2] as NewRowField | undefined;
    if (rowMatch && formRow !== undefined && rowField && newRowFields.includes(rowField)) {
      // "order_rows.1.quantity must be a number" beside the input reads "quantity must be a number".
      const short = !worded && text.startsWith(`${item.field} `) ? text.slice(item.field!.length - rowField.length) : text;
      const row = (placed.rows[formRow] ??= {});
      row[rowField] = append(row[rowField], short);
    } else if (item.field && (orderHeaderFields as readonly string[]).includes(item.field)) {
      placed.header[item.field] = append(placed.header[item.field], text);
    } else {
      placed.elsewhere.push(item.field && !worded ? `${item.field}: ${text}` : text);
    }
  }
  return placed;
}
