import { defineResource, idField, limits, timestampField, type InputOf, type RecordOf } from '../fields.js';

/**
 * A correction of a user's overtime balance on a date (docs/API.md "Overtime balance"): a
 * payout books the paid minutes as a negative `minutes`, a balance brought over from the old
 * payroll system a positive one. Its own record, not a time entry (it is no work: reports,
 * payroll files and day limits must not see it) nor a schedule deviation (it takes no
 * capacity and belongs to the user, who is the one paid).
 */
export const overtimeCorrectionSpec = defineResource({
  name: 'overtime_correction',
  title: 'OvertimeCorrection',
  fields: {
    id: idField,
    user_id: { type: 'uuid', required: true, references: 'user', description: 'Whose balance it corrects.' },
    date: { type: 'date', required: true, description: 'The day it counts on: the balance changes from the end of this day.' },
    minutes: {
      type: 'integer',
      required: true,
      minimum: -limits.minutes,
      maximum: limits.minutes,
      description: 'Minutes added to the balance; a payout is negative (paid out 6 hours: -360). Never 0.',
    },
    description: { type: 'string', nullable: true, maxLength: 255, description: 'Why, for the bookkeeper: "Paid out with November".' },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type OvertimeCorrection = RecordOf<typeof overtimeCorrectionSpec>;
export type OvertimeCorrectionInput = InputOf<typeof overtimeCorrectionSpec>;
