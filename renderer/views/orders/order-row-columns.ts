/**
 * The columns of the order-rows grid, in the order they are shown and in which pasted
 * spreadsheet columns are read, with how each turns a row's value into text and typed text
 * back into what the API takes.
 */
import type { Translate } from '../../i18n/index.js';
import type { OrderRow } from '../../../shared/resources/order-row.js';

export type OrderRowField =
  | 'code'
  | 'description'
  | 'item_id'
  | 'activity_id'
  | 'quantity'
  | 'unit'
  | 'quantity_delivered'
  | 'quantity_backorder'
  | 'status'
  | 'delivered_date';

export type ColumnKind = 'text' | 'number' | 'date' | 'item' | 'activity' | 'unit';

export interface OrderRowColumn {
  field: OrderRowField;
  kind: ColumnKind;
}

export const orderRowColumns: readonly OrderRowColumn[] = [
  { field: 'code', kind: 'text' },
  { field: 'description', kind: 'text' },
  { field: 'item_id', kind: 'item' },
  { field: 'activity_id', kind: 'activity' },
  { field: 'quantity', kind: 'number' },
  { field: 'unit', kind: 'unit' },
  { field: 'quantity_delivered', kind: 'number' },
  { field: 'quantity_backorder', kind: 'number' },
  { field: 'status', kind: 'text' },
  { field: 'delivered_date', kind: 'date' },
];

/** The column header: "Quantity". */
export function columnTitle(column: OrderRowColumn, t: Translate): string {
  return t(`orders.rowField.${column.field}`);
}

/**
 * The column's name inside a sentence: "quantity". Every column's name is a common noun in
 * English and Dutch, so its header in lower case reads right in "Row 1 quantity".
 */
export function columnName(column: OrderRowColumn, t: Translate): string {
  return columnTitle(column, t).toLocaleLowerCase(t.locale);
}

/** "Row 1 quantity": what a cell and its editor are called. Rows count from 1. */
export function cellLabel(rowIndex: number, column: OrderRowColumn, t: Translate): string {
  return t('orders.rows.cell', { row: rowIndex + 1, column: columnName(column, t) });
}

export function columnOfField(field: string): OrderRowColumn | undefined {
  return orderRowColumns.find((column) => column.field === field);
}

/** What an editor starts with: the stored value as text (an id for item and activity). */
export function editText(row: OrderRow, column: OrderRowColumn): string {
  const value = row[column.field];
  return value === null || value === undefined ? '' : String(value);
}

/**
 * Typed text as the API takes it: blank clears the field. A number that cannot be read is sent
 * as typed, so the API's 422 says what is wrong beside the cell instead of the grid guessing.
 * A decimal comma ("2,5", as Dutch spreadsheets write it) is read as a point.
 */
export function valueFromText(column: OrderRowColumn, text: string): string | number | null {
  const trimmed = text.trim();
  if (!trimmed) return null;
  if (column.kind === 'number') return readNumber(trimmed) ?? trimmed;
  return trimmed;
}

const numberPattern = /^[-+]?(\d+([.,]\d*)?|[.,]\d+)([eE][-+]?\d+)?$/;

export function readNumber(text: string): number | null {
  if (!numberPattern.test(text)) return null;
  const value = Number(text.replace(',', '.'));
  return Number.isFinite(value) ? value : null;
}

/** Whether saving `value` would change nothing (so Enter just moves on). */
export function sameValue(stored: unknown, value: string | number | null): boolean {
  return (stored ?? null) === value;
}
