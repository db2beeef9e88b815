import { defineResource, idField, timestampField, type InputOf, type RecordOf } from '../fields.js';

const hourCode = (what: string) =>
  ({
    type: 'string',
    nullable: true,
    blankIsNull: true,
    maxLength: 50,
    description: `The payroll package's hour code for ${what} (docs/API.md "Payroll files").`,
  }) as const;

/**
 * The environment's payroll settings (docs/API.md "Payroll files"): the hour codes absences
 * are paid under, the numbers the payroll packages know the employer by, and whether overtime
 * counts per week or per day (docs/API.md "Overtime balance"). One record per
 * environment: `scope` is always `environment` and unique, so a second one is refused; it
 * syncs like the other base data, and admins write it.
 */
export const payrollSettingSpec = defineResource({
  name: 'payroll_setting',
  title: 'PayrollSetting',
  unique: [['scope']],
  fields: {
    id: idField,
    scope: {
      type: 'enum',
      enum: ['environment'],
      default: 'environment',
      description: 'Always `environment`: an environment has one record of payroll settings.',
    },
    vacation_hour_code: hourCode('vacation (absence type vacation)'),
    sick_hour_code: hourCode('sick leave (absence type sick)'),
    leave_hour_code: hourCode('other leave (absence types leave, absence, other, maintenance, malfunction)'),
    holiday_hour_code: hourCode('public holidays (absence type holiday and company holidays)'),
    time_for_time_hour_code: hourCode('time off taken from the overtime balance (absence type time_for_time)'),
    overtime_per: {
      type: 'enum',
      enum: ['week', 'day'],
      default: 'week',
      description:
        'How overtime is counted for the overtime balance (docs/API.md "Overtime balance"): worked minutes above the expected ones per ISO week, or per day.',
    },
    nmbrs_debtor_number: {
      type: 'string',
      nullable: true,
      blankIsNull: true,
      maxLength: 20,
      description: 'Nmbrs: the debtor number (Debiteurnr) of the Nmbrs file.',
    },
    nmbrs_company_number: {
      type: 'string',
      nullable: true,
      blankIsNull: true,
      maxLength: 20,
      description: 'Nmbrs: the company number (Bedrijfnr) of the Nmbrs file.',
    },
    datev_consultant_number: {
      type: 'string',
      nullable: true,
      blankIsNull: true,
      pattern: '^[0-9]{4,7}$',
      description: 'DATEV: the consultant number (Beraternummer), 4 to 7 digits.',
    },
    datev_client_number: {
      type: 'string',
      nullable: true,
      blankIsNull: true,
      pattern: '^[0-9]{1,5}$',
      description: 'DATEV: the client number (Mandantennummer), 1 to 5 digits.',
    },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type PayrollSetting = RecordOf<typeof payrollSettingSpec>;
export type PayrollSettingInput = InputOf<typeof payrollSettingSpec>;
