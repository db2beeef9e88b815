/**
 * Surcharge rules (docs/API.md "Surcharge rules"): when hours are paid at another percentage,
 * under which payroll hour code. A list of the rules with Edit and Delete (which asks once more),
 * and a form that adds a rule or changes the one picked. Only admins change them: anyone else
 * sees the API's refusal above the form's buttons.
 */
import { useId, useState } from 'react';
import { useList, useRemove } from '../../api/hooks.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { CheckboxField, Field } from '../../components/Field.js';
import { FieldError } from '../../components/FieldError.js';
import { RecordForm, RecordNameField } from '../../components/RecordForm.js';
import { useRecordForm } from '../../components/use-record-form.js';
import { useT } from '../../i18n/index.js';
import type { SurchargeRule } from '../../../shared/resources/surcharge-rule.js';
import {
  isoWeekdays,
  newSurchargeRuleDraft,
  surchargeRuleBody,
  surchargeRuleDraftFrom,
  surchargeRuleInputs,
  surchargeRuleWhen,
} from './surcharge-rule-draft.js';

const rulesQuery = { sort: 'name:asc', limit: 1000 };

export function SurchargeRulesSettings() {
  const t = useT();
  const rules = useList('surcharge_rule', rulesQuery);
  const remove = useRemove('surcharge_rule');
  const [editing, setEditing] = useState<SurchargeRule | undefined>(undefined);
  const [deleting, setDeleting] = useState<string | null>(null);
  const list = rules.data?.data ?? [];

  return (
    <section className="panel panel--stack settings-section" aria-labelledby="surcharges-title">
      <h2 id="surcharges-title" className="panel__title">
        {t('surcharges.title')}
      </h2>
      <p className="muted">{t('surcharges.intro')}</p>
      {rules.error && <ErrorNotice error={rules.error} />}
      {remove.error && <ErrorNotice error={remove.error} />}
      {list.length === 0 && !rules.isPending ? (
        <p className="muted">{t('surcharges.none')}</p>
      ) : (
        <ul className="surcharge-rules" aria-label={t('surcharges.title')}>
          {list.map((rule) => (
            <li key={rule.id} className="surcharge-rules__row">
              <span className="surcharge-rules__name">{rule.name}</span>
              <span>{surchargeRuleWhen(rule, t)}</span>
              <span>{t('surcharges.percentageValue', { percentage: rule.percentage })}</span>
              <span className="muted">{rule.hour_code ?? t('surcharges.activityCode')}</span>
              {deleting === rule.id ? (
                <div className="row-actions">
                  <span className="row-actions__question">{t('common.deleteQuestion', { name: rule.name })}</span>
                  <button
                    type="button"
                    className="button button--danger"
                    autoFocus
                    disabled={remove.isPending}
                    onClick={() => remove.mutate(rule.id, { onSettled: () => setDeleting(null) })}
                  >
                    {t('common.confirmDelete')}
                  </button>
                  <button type="button" className="button" onClick={() => setDeleting(null)}>
                    {t('common.cancel')}
                  </button>
                </div>
              ) : (
                <div className="row-actions">
                  <button
                    type="button"
                    className="button button--quiet"
                    aria-label={t('common.editName', { name: rule.name })}
                    onClick={() => setEditing(rule)}
                  >
                    {t('common.edit')}
                  </button>
                  <button
                    type="button"
                    className="button button--quiet"
                    aria-label={t('common.deleteName', { name: rule.name })}
                    onClick={() => setDeleting(rule.id)}
                  >
                    {t('common.delete')}
                  </button>
                </div>
              )}
            </li>
          ))}
        </ul>
      )}
      <SurchargeRuleForm key={editing?.id ?? 'new'} rule={editing} onDone={() => setEditing(undefined)} />
    </section>
  );
}

function SurchargeRuleForm({ rule, onDone }: { rule: SurchargeRule | undefined; onDone: () => void }) {
  const t = useT();
  const daysId = useId();
  const form = useRecordForm('surcharge_rule', {
    record: rule,
    draftFrom: surchargeRuleDraftFrom,
    blank: newSurchargeRuleDraft,
    inputs: surchargeRuleInputs,
    onDone,
  });
  const { draft, change, errors, isNew } = form;

  return (
    <RecordForm
      {...form.shell}
      title={rule ? t('common.editName', { name: rule.name }) : t('surcharges.new')}
      onSubmit={() => form.submit(surchargeRuleBody(draft, isNew))}
      submitLabel={t('surcharges.save')}
      busy={form.busy}
    >
      <RecordNameField
        label={t('surcharges.name')}
        error={errors.name}
        value={draft.name}
        inputRef={form.nameInput}
        focus={!isNew}
        onChange={(name) => change({ name })}
      />
      <fieldset className="form-grid__wide surcharge-rules__days" aria-describedby={errors.weekdays ? `${daysId}-error` : undefined}>
        <legend>{t('surcharges.weekdays')}</legend>
        <div className="settings-choices">
          {isoWeekdays.map((day) => (
            <CheckboxField
              key={day}
              label={t(`common.weekday.${day}`)}
              checked={draft.weekdays.includes(day)}
              onChange={(on) => change({ weekdays: on ? [...draft.weekdays, day] : draft.weekdays.filter((d) => d !== day) })}
            />
          ))}
          <CheckboxField
            label={t('surcharges.publicHoliday')}
            checked={draft.public_holiday}
            error={errors.public_holiday}
            onChange={(public_holiday) => change({ public_holiday })}
          />
        </div>
        <FieldError id={`${daysId}-error`} message={errors.weekdays} />
      </fieldset>
      <Field label={t('surcharges.from')} error={errors.from_time}>
        {(control) => (
          <input {...control} type="time" value={draft.from_time} onChange={(event) => change({ from_time: event.target.value })} />
        )}
      </Field>
      <Field label={t('surcharges.to')} error={errors.to_time}>
        {(control) => (
          <input {...control} type="time" value={draft.to_time} onChange={(event) => change({ to_time: event.target.value })} />
        )}
      </Field>
      <Field label={t('surcharges.percentage')} error={errors.percentage}>
        {(control) => (
          <input
            {...control}
            type="number"
            min={1}
            step="any"
            value={draft.percentage}
            onChange={(event) => change({ percentage: event.target.value })}
          />
        )}
      </Field>
      <Field label={t('surcharges.hourCode')} error={errors.hour_code}>
        {(control) => (
          <input
            {...control}
            value={draft.hour_code}
            maxLength={50}
            autoComplete="off"
            placeholder={t('surcharges.activityCode')}
            onChange={(event) => change({ hour_code: event.target.value })}
          />
        )}
      </Field>
    </RecordForm>
  );
}
