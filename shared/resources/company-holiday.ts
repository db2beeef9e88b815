import { defineResource, externalRefField, idField, timestampField, type InputOf, type RecordOf } from '../fields.js';

/** A holiday lasts at most a year; longer is a typing error, not a holiday. */
export const maxHolidayDays = 366;

/**
 * A day (or days) off that belongs to the company, not to one resource: it holds for every
 * resource, including one added after it, or for every member of a group, whoever joins it
 * later (docs/API.md "Absences and holidays"). Capacity, schedules and planning read it into
 * each resource's days; a resource's deviation list shows it as a read-only deviation.
 */
export const companyHolidaySpec = defineResource({
  name: 'company_holiday',
  title: 'CompanyHoliday',
  fields: {
    id: idField,
    description: { type: 'string', required: true, maxLength: 255, description: 'Names the holiday.' },
    start_date: { type: 'date', required: true },
    end_date: { type: 'date', required: true, description: `Its last day (at most ${maxHolidayDays} days in all).` },
    time: {
      type: 'integer',
      nullable: true,
      minimum: 1,
      maximum: 1440,
      description: 'Minutes off per day; null means whole days.',
    },
    group_id: {
      type: 'uuid',
      nullable: true,
      references: 'group',
      onDelete: 'cascade',
      description: "Null: it holds for every resource. A group's id: for its members, whoever joins later.",
    },
    external_ref: externalRefField,
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type CompanyHoliday = RecordOf<typeof companyHolidaySpec>;
export type CompanyHolidayInput = InputOf<typeof companyHolidaySpec>;
