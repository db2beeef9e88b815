import { defineResource, idField, timestampField, type RecordOf } from '../fields.js';

/**
 * The figures of one closed period of GET /v1/kpi (docs/API.md "KPIs"), kept the first time the
 * period is read after it closed, so that a later edit of an old card leaves them as they were.
 * One per board, time frame and period. Kept by each environment for itself and never synced:
 * every node works out the same figures from the same synced records (docs/API.md "KPIs").
 */
export const kpiSnapshotSpec = defineResource({
  name: 'kpi_snapshot',
  title: 'KpiSnapshot',
  unique: [['board_id', 'time_frame', 'period_start']],
  fields: {
    id: idField,
    board_id: { type: 'uuid', required: true },
    time_frame: { type: 'string', required: true, maxLength: 10 },
    period_start: { type: 'date', required: true },
    period_end: { type: 'date', required: true },
    figures: { type: 'json', shape: 'object', required: true },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type KpiSnapshot = RecordOf<typeof kpiSnapshotSpec>;
