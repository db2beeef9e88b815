import { defineResource, externalRefField, idField, timestampField, type InputOf, type RecordOf } from '../fields.js';

export const timeStatuses = ['draft', 'pending', 'approved', 'rejected'] as const;
export type TimeStatus = (typeof timeStatuses)[number];

/**
 * Which status changes are allowed, and which need a planner (admin, manager or organiser)
 * when the caller is a user. Approval locks an entry; a planner may reopen it (to pending).
 */
export const timeTransitions: Record<TimeStatus, { to: TimeStatus; planner: boolean }[]> = {
  draft: [{ to: 'pending', planner: false }, { to: 'approved', planner: true }],
  pending: [{ to: 'approved', planner: true }, { to: 'rejected', planner: true }, { to: 'draft', planner: false }],
  rejected: [{ to: 'draft', planner: false }, { to: 'pending', planner: false }],
  approved: [{ to: 'pending', planner: true }],
};

/**
 * Time tracked on a card (SPEC.md "TimeTracking"). `duration` is in minutes, computed from
 * `start` and `end`; a running timer has no end.
 */
export const timeTrackingSpec = defineResource({
  name: 'time_tracking',
  title: 'TimeTracking',
  fields: {
    id: idField,
    card_id: { type: 'uuid', required: true, references: 'card' },
    activity_id: { type: 'uuid', nullable: true, references: 'activity' },
    user_id: { type: 'uuid', nullable: true, references: 'user', description: 'Defaults to the signed-in user.' },
    start: { type: 'datetime', required: true },
    end: { type: 'datetime', nullable: true, description: 'Absent while the timer runs.' },
    duration: { type: 'integer', nullable: true, readOnly: true, description: 'Minutes from start to end, rounded.' },
    status: { type: 'enum', enum: timeStatuses, default: 'draft' },
    locked: { type: 'boolean', readOnly: true, default: false, description: 'Approved entries are locked: they cannot be changed or deleted.' },
    running: { type: 'boolean', readOnly: true, default: false },
    note: { type: 'string', nullable: true, maxLength: 65535 },
    synchronized_at: { type: 'datetime', nullable: true, description: 'When it was exported to an outside system (payroll, invoicing).' },
    external_ref: externalRefField,
    external_note: { type: 'string', nullable: true, maxLength: 65535 },
    external_failed: { type: 'boolean', default: false },
    created_at: timestampField,
    updated_at: timestampField,
  },
});

export type TimeTracking = RecordOf<typeof timeTrackingSpec>;
export type TimeTrackingInput = InputOf<typeof timeTrackingSpec>;
