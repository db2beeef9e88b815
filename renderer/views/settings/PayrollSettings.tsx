/**
 * The payroll settings (docs/API.md "Payroll files"): the hour codes absences are paid under,
 * the numbers the payroll packages know the company by, and whether overtime counts per week
 * or per day (docs/API.md "Overtime balance"). One record per environment: the
 * form changes it, or makes it the first time. Only admins change it: anyone else sees the
 * API's refusal above the form's button.
 */
import { useList } from '../../api/hooks.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { RecordForm } from '../../components/RecordForm.js';
import { useRecordForm } from '../../components/use-record-form.js';
import { useT } from '../../i18n/index.js';
import type { PayrollSetting } from '../../../shared/resources/payroll-setting.js';
import {
  newPayrollSettingDraft,
  payrollSettingBody,
  payrollSettingDraftFrom,
  payrollSettingFields,
  payrollSettingInputs,
} from './payroll-setting-draft.js';

// The oldest record is the one the payroll files read (docs/API.md "Payroll files").
const settingsQuery = { sort: 'created_at:asc', limit: 1 };

export function PayrollSettings() {
  const t = useT();
  const settings = useList('payroll_setting', settingsQuery);
  const current = settings.data?.data[0];
  return (
    <section className="panel panel--stack settings-section" aria-labelledby="payroll-settings-title">
      <h2 id="payroll-settings-title" className="panel__title">
        {t('payrollSettings.title')}
      </h2>
      <p className="muted">{t('payrollSettings.intro')}</p>
      {settings.error && <ErrorNotice error={settings.error} />}
      {!settings.isPending && <PayrollSettingForm key={current?.id ?? 'new'} setting={current} />}
    </section>
  );
}

function PayrollSettingForm({ setting }: { setting: PayrollSetting | undefined }) {
  const t = useT();
  const form = useRecordForm('payroll_setting', {
    record: setting,
    draftFrom: payrollSettingDraftFrom,
    blank: newPayrollSettingDraft,
    inputs: payrollSettingInputs,
    onDone: () => undefined,
  });
  const { draft, change, errors } = form;
  return (
    <RecordForm
      {...form.shell}
      title={t('payrollSettings.title')}
      onSubmit={() => form.submit(payrollSettingBody(draft))}
      submitLabel={t('payrollSettings.save')}
      busy={form.busy}
    >
      {payrollSettingFields.map(([name, label]) => (
        <Field key={name} label={t(label)} error={errors[name]}>
          {(control) => (
            <input
              {...control}
              value={draft[name]}
              maxLength={50}
              autoComplete="off"
              onChange={(event) => change({ [name]: event.target.value })}
            />
          )}
        </Field>
      ))}
      <Field label={t('payrollSettings.overtimePer')} error={errors.overtime_per}>
        {(control) => (
          <select
            {...control}
            value={draft.overtime_per}
            onChange={(event) => change({ overtime_per: event.target.value === 'day' ? 'day' : 'week' })}
          >
            <option value="week">{t('payrollSettings.overtimePer.week')}</option>
            <option value="day">{t('payrollSettings.overtimePer.day')}</option>
          </select>
        )}
      </Field>
    </RecordForm>
  );
}
