import { defineResource, idField, jsonField, timestampField, type InputOf, type RecordOf } from '../fields.js';

/**
 * A payroll period closed once its hours are paid (docs/API.md "Closed periods"): from `start`
 * to `end` (dates, both included) no time entry is created, changed or deleted. A period is
 * closed (created) and reopened (deleted), never edited; it syncs, so every replica refuses
 * the same entries the remote does. When it closes, each user's overtime balance at its end is
 * frozen on it (`overtime_closing`), so the next period opens with what was paid.
 */
export const closedPeriodSpec = defineResource({
  name: 'closed_period',
  title: 'ClosedPeriod',
  fields: {
    id: idField,
    start: { type: 'date', required: true, description: 'The first day of the period.' },
    end: { type: 'date', required: true, description: 'The last day of the period (on or after start).' },
    closed_by: {
      type: 'uuid',
      nullable: true,
      readOnly: true,
      references: 'user',
      description: 'The user who closed it; null when an API key did.',
    },
    overtime_closing: jsonField<Record<string, number>>()({
      type: 'json',
      shape: 'object',
      nullable: true,
      readOnly: true,
      description:
        'Each user\'s overtime balance in minutes at the end of the period, by user id, frozen when it closed (docs/API.md "Overtime balance"); null on a period closed before the balance existed.',
    }),
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type ClosedPeriod = RecordOf<typeof closedPeriodSpec>;
export type ClosedPeriodInput = InputOf<typeof closedPeriodSpec>;
