/**
 * Batch commands on time entries and order rows (docs/API.md "Commands and undo"): set the
 * status of a set of time entries, and edit a set of order rows. Each record is written
 * through the ordinary record write, with the rules a PUT of it has (an approved or locked
 * entry stays as the time-entry rules say, a member sets only what a member may).
 */
import { isUuid } from '../../../shared/ids.js';
import { findRecordOrNone, updateRecord } from '../records.js';
import type { RequestContext } from '../resource.js';
import { orderRowModule } from '../resources/order-row.js';
import { timeTrackingModule } from '../resources/time-tracking.js';
import { ApiError } from '../errors.js';
import { tables } from '../tables.js';
import { writeEach } from './batch.js';

export function setTimeStatus(ctx: RequestContext, entries: readonly string[], status: string): void {
  writeEach(entries, 'entries', (id) => {
    const entry = findRecordOrNone(ctx, timeTrackingModule, id);
    if (!entry) throw ApiError.notFound(`no time entry with id ${id}`);
    if (entry.status === status) return;
    updateRecord(ctx, timeTrackingModule, entry.id, { status });
  });
}

export interface OrderRowEdit {
  id: string;
  fields: Record<string, unknown>;
}

export function editOrderRows(ctx: RequestContext, rows: readonly OrderRowEdit[]): void {
  writeEach(rows, 'rows', (edit) => {
    // As findRecordOrNone does, through the typed order row table.
    const row = isUuid(edit.id) ? ctx.store.get(tables.order_row, edit.id.toLowerCase()) : undefined;
    if (!row) throw ApiError.notFound(`no order row with id ${edit.id}`);
    updateRecord(ctx, orderRowModule, row.id, edit.fields, { order_id: row.order_id });
  });
}
