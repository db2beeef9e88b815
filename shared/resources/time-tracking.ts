import { defineResource, externalRefField, idField, limits, timestampField, type InputOf, type RecordOf } from '../fields.js';

export const timeStatuses = ['draft', 'pending', 'approved', 'rejected'] as const;
export type TimeStatus = (typeof timeStatuses)[number];

/**
 * Which status changes are allowed, and which need a planner (admin, manager or organiser)
 * when the caller is a user. Approval locks an entry; a planner may reopen it (to pending).
 */
export const timeTransitions: Record<TimeStatus, { to: TimeStatus; planner: boolean }[]> = {
  draft: [
    { to: 'pending', planner: false },
    { to: 'approved', planner: true },
  ],
  pending: [
    { to: 'approved', planner: true },
    { to: 'rejected', planner: true },
    { to: 'draft', planner: false },
  ],
  rejected: [
    { to: 'draft', planner: false },
    { to: 'pending', planner: false },
  ],
  approved: [{ to: 'pending', planner: true }],
};

/**
 * Time tracked on a card, or on an activity with no card (docs/API.md
 * "Time tracking"). `duration` is in minutes from `start` to `end`; a running timer has no
 * end. Sent without an end, `duration` sets it (a finished entry of that length).
 */
export const timeTrackingSpec = defineResource({
  name: 'time_tracking',
  title: 'TimeTracking',
  fields: {
    id: idField,
    card_id: {
      type: 'uuid',
      nullable: true,
      references: 'card',
      description: 'The card worked on; null for work on no card (a meeting, cleaning), which then names its activity.',
    },
    activity_id: { type: 'uuid', nullable: true, references: 'activity' },
    user_id: { type: 'uuid', nullable: true, references: 'user', description: 'Defaults to the signed-in user.' },
    start: { type: 'datetime', required: true },
    end: { type: 'datetime', nullable: true, description: 'Absent while the timer runs.' },
    duration: {
      type: 'integer',
      nullable: true,
      minimum: 0,
      maximum: limits.minutes,
      description: 'Minutes from start to end, rounded. Sent with start and no end, it sets the end: a finished entry of that length.',
    },
    overnight: {
      type: 'boolean',
      virtual: true,
      writeOnly: true,
      description: 'Ends next day: an end sent at or before the start is moved one day (24 hours) later.',
    },
    status: { type: 'enum', enum: timeStatuses, default: 'draft' },
    locked: {
      type: 'boolean',
      default: false,
      description:
        'A locked entry cannot be changed or deleted. Approved entries are always locked; admins, managers, organisers and API keys lock and unlock others.',
    },
    running: { type: 'boolean', readOnly: true, default: false },
    forgotten: {
      type: 'boolean',
      readOnly: true,
      virtual: true,
      description: "A running timer that has run longer than its user's forgotten_timer_hours (10 unless set).",
    },
    overlaps: {
      type: 'json',
      shape: 'array',
      readOnly: true,
      virtual: true,
      description: "Ids of the same user's other entries that overlap this one in time.",
    },
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
