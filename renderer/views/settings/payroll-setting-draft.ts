/**
 * The payroll settings form's draft (docs/API.md "Payroll files", "Overtime balance"): every
 * field but `overtime_per` is text, and a blank one is sent as null (not set); `overtime_per` is
 * week or day. Pure.
 */
import { optionalText } from '../../components/form-values.js';
import type { WriteBody } from '../../api/resources.js';
import type { PayrollSetting } from '../../../shared/resources/payroll-setting.js';
import type { MessageKey } from '../../i18n/index.js';

/** The form's fields in order, with their labels. */
export const payrollSettingFields = [
  ['vacation_hour_code', 'payrollSettings.vacation'],
  ['sick_hour_code', 'payrollSettings.sick'],
  ['leave_hour_code', 'payrollSettings.leave'],
  ['holiday_hour_code', 'payrollSettings.holiday'],
  ['time_for_time_hour_code', 'payrollSettings.timeForTime'],
  ['nmbrs_debtor_number', 'payrollSettings.nmbrsDebtor'],
  ['nmbrs_company_number', 'payrollSettings.nmbrsCompany'],
  ['datev_consultant_number', 'payrollSettings.datevConsultant'],
  ['datev_client_number', 'payrollSettings.datevClient'],
] as const satisfies readonly (readonly [keyof PayrollSetting, MessageKey])[];

export type PayrollSettingField = (typeof payrollSettingFields)[number][0];
export type PayrollSettingDraft = Record<PayrollSettingField, string> & { overtime_per: 'week' | 'day' };

export const payrollSettingInputs: readonly string[] = [...payrollSettingFields.map(([name]) => name), 'overtime_per'];

export function newPayrollSettingDraft(): PayrollSettingDraft {
  // Every text field, as the type says, and overtime counted per week (the API's default).
  return { ...Object.fromEntries(payrollSettingFields.map(([name]) => [name, ''])), overtime_per: 'week' } as PayrollSettingDraft;
}

export function payrollSettingDraftFrom(setting: PayrollSetting): PayrollSettingDraft {
  const draft = newPayrollSettingDraft();
  for (const [name] of payrollSettingFields) draft[name] = setting[name] ?? '';
  draft.overtime_per = setting.overtime_per === 'day' ? 'day' : 'week';
  return draft;
}

export function payrollSettingBody(draft: PayrollSettingDraft): WriteBody<'payroll_setting'> {
  return {
    ...Object.fromEntries(payrollSettingFields.map(([name]) => [name, optionalText(draft[name])])),
    overtime_per: draft.overtime_per,
  };
}
