import { maxCrew, skillMaxLength, skillPattern } from '../skills.js';
import { defineResource, externalRefField, idField, limits, nestedList, timestampField, type InputOf, type RecordOf } from '../fields.js';

export const resourceTypes = ['machine', 'cell', 'employee'] as const;

/** A kind of work (painting, welding) done by a type of resource (docs/API.md "Resources and paths"). */
export const activitySpec = defineResource({
  name: 'activity',
  title: 'Activity',
  fields: {
    id: idField,
    description: { type: 'string', required: true, maxLength: 150, description: "The activity's name." },
    code: { type: 'string', nullable: true, maxLength: 50 },
    item_id: { type: 'uuid', nullable: true, references: 'item' },
    resource_type: { type: 'enum', enum: resourceTypes, default: 'employee' },
    default_duration: { type: 'integer', minimum: 0, maximum: limits.minutes, default: 0, description: 'Minutes.' },
    day_max_duration: {
      type: 'integer',
      minimum: 0,
      maximum: limits.dayMinutes,
      default: 0,
      description: 'Most minutes per day on one card; 0 means no limit.',
    },
    skill: {
      type: 'string',
      nullable: true,
      maxLength: skillMaxLength,
      pattern: skillPattern,
      description:
        'The skill a resource needs to do this activity (one of its `skills`); null: anyone may (docs/API.md "Skills and crews").',
    },
    crew: {
      type: 'integer',
      minimum: 1,
      maximum: maxCrew,
      default: 1,
      description: 'How many people do this activity at once; their time counts together (docs/API.md "Skills and crews").',
    },
    billable: { type: 'boolean', default: false },
    hourly_rate: { type: 'number', minimum: 0, maximum: limits.hourlyRate, default: 0 },
    hour_code: {
      type: 'string',
      nullable: true,
      blankIsNull: true,
      maxLength: 50,
      description: 'The payroll package\'s code for hours of this activity (docs/API.md "Surcharge rules").',
    },
    external_ref: externalRefField,
    transaction: { type: 'string', nullable: true, maxLength: 36 },
    archived_at: { type: 'datetime', nullable: true },
    stages: nestedList('Stages this activity is allowed in, as [{id}].'),
    created_at: timestampField,
    updated_at: timestampField,
  },
});

export type Activity = RecordOf<typeof activitySpec>;
export type ActivityInput = InputOf<typeof activitySpec>;
