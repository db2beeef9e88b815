/**
 * Batch commands on time entries, order rows and schedules (docs/API.md "Commands and undo"):
 * set the status of a set of time entries, edit a set of order rows, add overtime. Each record is written
 * through the ordinary record write, with the rules a PUT of it has (an approved or locked
 * entry stays as the time-entry rules say, a member sets only what a member may).
 */
import { isUuid } from '../../../shared/ids.js';
import type { RecordWrites } from '../../store/record-store.js';
import { createRecord, updateRecord } from '../records.js';
import type { RequestContext } from '../resource.js';
import { orderRowModule } from '../resources/order-row.js';
import { scheduleDeviationModule } from '../resources/resource.js';
import { timeTrackingModule } from '../resources/time-tracking.js';
import { ApiError } from '../errors.js';
import { tables } from '../tables.js';
import { writeEachIn } from './batch.js';

export async function setTimeStatus(ctx: RequestContext, tx: RecordWrites, entries: readonly string[], status: string): Promise<void> {
  await writeEachIn(tx, entries, 'entries', async (id) => {
    const entry = isUuid(id) ? await tx.get(tables.time_tracking, id.toLowerCase()) : undefined;
    if (!entry) throw ApiError.notFound(`no time entry with id ${id}`);
    if (entry.status === status) return;
    await updateRecord(ctx, tx, timeTrackingModule, entry.id, { status });
  });
}

export interface OrderRowEdit {
  id: string;
  fields: Record<string, unknown>;
}

export async function editOrderRows(ctx: RequestContext, tx: RecordWrites, rows: readonly OrderRowEdit[]): Promise<void> {
  await writeEachIn(tx, rows, 'rows', async (edit) => {
    // Undefined for an id that is no uuid, as findRecord answers 404 for one; through the typed order row table.
    const row = isUuid(edit.id) ? await tx.get(tables.order_row, edit.id.toLowerCase()) : undefined;
    if (!row) throw ApiError.notFound(`no order row with id ${edit.id}`);
    await updateRecord(ctx, tx, orderRowModule, row.id, edit.fields, { order_id: row.order_id });
  });
}

export interface OvertimeDay {
  resource_id: string;
  date: string;
  minutes: number;
}

/** Overtime for each person and day: an `overtime` deviation of its minutes, written as a POST of one writes it. */
export async function addOvertime(ctx: RequestContext, tx: RecordWrites, days: readonly OvertimeDay[]): Promise<void> {
  await writeEachIn(tx, days, 'overtime', async (day) => {
    const resource = await tx.get(tables.resource, day.resource_id.toLowerCase());
    if (!resource) throw ApiError.unprocessable([{ field: 'resource_id', description: `no resource with id ${day.resource_id}` }]);
    const values = { type: 'overtime', start_date: day.date, end_date: day.date, time: day.minutes, description: 'Overtime' };
    await createRecord(ctx, tx, scheduleDeviationModule, values, { resource_id: resource.id });
  });
}
