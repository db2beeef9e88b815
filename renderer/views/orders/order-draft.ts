/**
 * The header of an order as a form holds it — text per field — and what the form sends.
 * Blank clears a field: every header field of an order is optional.
 */
import type { WriteBody } from '../../api/resources.js';
import type { Order } from '../../../shared/resources/order.js';

export const orderHeaderFields = [
  'code',
  'description',
  'type',
  'status',
  'relation_id',
  'project_id',
  'warehouse_id',
  'address_id',
  'date',
  'promised_date',
  'desired_date',
  'delivered_date',
] as const;

export type OrderHeaderField = (typeof orderHeaderFields)[number];

export type OrderDraft = Record<OrderHeaderField, string>;

export function orderDraft(order?: Order): OrderDraft {
  const draft = {} as OrderDraft;
  for (const field of orderHeaderFields) draft[field] = order?.[field] ?? '';
  return draft;
}

/** The fields in `edits` as a write body: trimmed text, blank as null. */
export function headerChanges(edits: Partial<OrderDraft>): WriteBody<'order'> {
  const body: Record<string, string | null> = {};
  for (const field of orderHeaderFields) {
    const text = edits[field];
    if (text === undefined) continue;
    body[field] = text.trim() || null;
  }
  return body as WriteBody<'order'>;
}

/** A new order's header: only the fields that were filled in. */
export function newOrderHeader(draft: OrderDraft): WriteBody<'order'> {
  const filled: Partial<OrderDraft> = {};
  for (const field of orderHeaderFields) if (draft[field].trim()) filled[field] = draft[field];
  return headerChanges(filled);
}
