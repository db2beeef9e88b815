import { defineResource, idField, limits, nestedList, timestampField, type InputOf, type RecordOf } from '../fields.js';

/** A row of a board: a step the work goes through (docs/API.md "Resources and paths"). */
export const stageSpec = defineResource({
  name: 'stage',
  title: 'Stage',
  fields: {
    id: idField,
    board_id: { type: 'uuid', required: true, references: 'board' },
    name: { type: 'string', required: true, maxLength: 150 },
    priority: { type: 'integer', minimum: 0, default: 0, description: 'Order within the board, 0 first.' },
    delay_day: {
      type: 'integer',
      minimum: 0,
      maximum: 365,
      default: 0,
      description: 'Workdays kept between this stage and the next (drying time).',
    },
    independent: { type: 'boolean', default: false, description: 'Starts at the collection start instead of after the previous stage.' },
    efficiency: { type: 'integer', minimum: 1, maximum: 1000, default: 100, description: 'Percent of scheduled time that is productive.' },
    default_percentage: {
      type: 'integer',
      minimum: 0,
      maximum: 100,
      default: 100,
      description: 'Percentage a resource gets on this stage when none is given.',
    },
    setup_minutes: {
      type: 'integer',
      minimum: 0,
      maximum: limits.capacity,
      default: 0,
      description: 'Minutes added once per card on this stage, before the work; counts in capacity load (docs/API.md "Setup times").',
    },
    capacity_notification: { type: 'boolean', default: false },
    capacity_notification_min: { type: 'number', nullable: true, minimum: 0, maximum: limits.capacity },
    capacity_notification_max: { type: 'number', nullable: true, minimum: 0, maximum: limits.capacity },
    activities: nestedList('Activities allowed in this stage, as [{id, priority}].'),
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type Stage = RecordOf<typeof stageSpec>;
export type StageInput = InputOf<typeof stageSpec>;

/** Link: an activity allowed in a stage. */
export const stageActivitySpec = defineResource({
  name: 'stage_activity',
  title: 'StageActivity',
  fields: {
    id: idField,
    stage_id: { type: 'uuid', required: true },
    activity_id: { type: 'uuid', required: true },
    priority: { type: 'integer', minimum: 0, default: 0 },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
