/**
 * Duplicating a row puts the copy right below the original, as a spreadsheet would. Rows are
 * ordered by `position`, so the rows below move down one place; the copy and those moves are
 * one write (`order_rows` on the order), so no one sees the order half-renumbered.
 */
import type { OrderRow } from '../../../shared/resources/order-row.js';

/**
 * What a copy keeps: what the line is and how much of it is wanted. What already happened to
 * the original — deliveries, backorders, the link to an outside record — stays with it.
 */
const copiedFields = [
  'code',
  'description',
  'item_id',
  'item_code',
  'activity_id',
  'type',
  'unit',
  'quantity',
  'quantity_original',
  'status',
] as const;

export type RowWrite = Record<string, unknown>;

/** The `order_rows` to send to duplicate `rows[index]` (rows in display order). */
export function duplicateWrites(rows: readonly OrderRow[], index: number): RowWrite[] {
  const original = rows[index];
  if (!original) return [];
  const moves: RowWrite[] = [];
  rows.forEach((row, at) => {
    const position = at <= index ? at : at + 1;
    if (row.position !== position) moves.push({ id: row.id, position });
  });
  const copy: RowWrite = { position: index + 1 };
  for (const field of copiedFields) {
    if (original[field] !== null && original[field] !== undefined) copy[field] = original[field];
  }
  return [...moves, copy];
}
