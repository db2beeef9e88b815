/**
 * Batch commands on time entries and order rows (docs/API.md "Commands and undo"): set the
 * status of a set of time entries, and edit a set of order rows. Each record is written
 * through the ordinary record write, with the rules a PUT of it has (an approved or locked
 * entry stays as the time-entry rules say, a member sets only what a member may).
 */
import { isUuid } from '../../../shared/ids.js';
import type { RecordWrites } from '../../store/record-store.js';
import { updateSteps } from '../records.js';
import { onRecords } from '../store-steps.js';
import type { RequestContext } from '../resource.js';
import { orderRowModule } from '../resources/order-row.js';
import { timeTrackingModule } from '../resources/time-tracking.js';
import { ApiError } from '../errors.js';
import { tables } from '../tables.js';
import { writeEachIn } from './batch.js';

export async function setTimeStatus(ctx: RequestContext, tx: RecordWrites, entries: readonly string[], status: string): Promise<void> {
  await writeEachIn(tx, entries, 'entries', async (id) => {
    const entry = isUuid(id) ? await tx.get(tables.time_tracking, id.toLowerCase()) : undefined;
    if (!entry) throw ApiError.notFound(`no time entry with id ${id}`);
    if (entry.status === status) return;
    await onRecords(tx, updateSteps(ctx, timeTrackingModule, entry.id, { status }));
  });
}

export interface OrderRowEdit {
  id: string;
  fields: Record<string, unknown>;
}

export async function editOrderRows(ctx: RequestContext, tx: RecordWrites, rows: readonly OrderRowEdit[]): Promise<void> {
  await writeEachIn(tx, rows, 'rows', async (edit) => {
    // Undefined for an id that is no uuid, as findSteps answers 404 for one; through the typed order row table.
    const row = isUuid(edit.id) ? await tx.get(tables.order_row, edit.id.toLowerCase()) : undefined;
    if (!row) throw ApiError.notFound(`no order row with id ${edit.id}`);
    await onRecords(tx, updateSteps(ctx, orderRowModule, row.id, edit.fields, { order_id: row.order_id }));
  });
}
