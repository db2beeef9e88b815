/**
 * Company holidays on the Resources screen: a holiday entered once for every resource or for a
 * group, an iCalendar (.ics) file imported the same way, and the list of holidays with delete,
 * which takes a holiday off every resource. The API writes one public-holiday absence per
 * resource (docs/API.md "Absences and holidays").
 */
import { useId, useRef, useState, type ChangeEvent } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { formatDayRange } from '../../components/dates-format.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { RowActions } from '../../components/RecordActions.js';
import { RecordForm } from '../../components/RecordForm.js';
import { useT } from '../../i18n/index.js';
import { maxIcsBytes } from '../../../shared/operations/holidays.js';
import { useAddHoliday, useCompanyHolidays, useGroups, useImportHolidays, useRemoveHoliday, type CompanyHoliday } from './absences-api.js';

export function CompanyHolidays() {
  const holidays = useCompanyHolidays();
  const t = useT();
  const list = holidays.data?.data;

  return (
    <section className="company-holidays" aria-labelledby="company-holidays-title">
      <h2 id="company-holidays-title" className="company-holidays__title">
        {t('holidays.title')}
      </h2>
      <p className="muted">{t('holidays.intro')}</p>
      <HolidayForm />
      {holidays.isError && <ErrorNotice error={holidays.error} onRetry={() => void holidays.refetch()} />}
      {list ? (
        list.length === 0 ? (
          <p className="empty-state">{t('holidays.none')}</p>
        ) : (
          <ul className="record-list" aria-label={t('holidays.title')}>
            {list.map((holiday) => (
              <HolidayRow key={`${holiday.start_date}/${holiday.description}`} holiday={holiday} />
            ))}
          </ul>
        )
      ) : (
        !holidays.isError && (
          <p className="loading" role="status">
            {t('holidays.loading')}
          </p>
        )
      )}
    </section>
  );
}

const inputs = ['description', 'start_date', 'end_date', 'group_id', 'ics'] as const;

function HolidayForm() {
  const add = useAddHoliday();
  const importing = useImportHolidays();
  const groups = useGroups();
  const [draft, setDraft] = useState({ description: '', start_date: '', end_date: '', group_id: '' });
  const [outcome, setOutcome] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const t = useT();
  const { byInput: errors, elsewhere } = placeFieldErrors(add.error ?? importing.error, inputs);
  const target = draft.group_id ? { group_id: draft.group_id } : {};
  const change = (patch: Partial<typeof draft>) => setDraft({ ...draft, ...patch });

  function reset() {
    add.reset();
    importing.reset();
    setOutcome(null);
    setProblem(null);
  }

  async function picked(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    reset();
    if (file.size > maxIcsBytes) {
      setProblem(t('holidays.tooLarge', { file: file.name }));
      return;
    }
    importing.mutate(
      { ics: await file.text(), ...target },
      {
        onSuccess: (answer) =>
          setOutcome(
            t('holidays.imported', {
              holidays: t.count('holidays.count', answer.holidays),
              resources: t.count('holidays.resourceCount', answer.resources),
            }),
          ),
      },
    );
  }

  return (
    <RecordForm
      className="record-form holiday-form"
      wide
      title={t('holidays.add')}
      titleId={titleId}
      errors={[...elsewhere, ...(problem ? [problem] : [])]}
      onSubmit={() => {
        reset();
        add.mutate(
          {
            description: draft.description,
            // An empty first day is sent as is: the server names it under its field.
            start_date: draft.start_date,
            ...(draft.end_date ? { end_date: draft.end_date } : {}),
            ...target,
          },
          { onSuccess: () => setDraft({ ...draft, description: '', start_date: '', end_date: '' }) },
        );
      }}
      submitLabel={t('holidays.add')}
      busy={add.isPending || importing.isPending}
    >
      <Field label={t('holidays.name')} error={errors.description}>
        {(control) => (
          <input
            {...control}
            type="text"
            maxLength={255}
            value={draft.description}
            onChange={(e) => change({ description: e.target.value })}
          />
        )}
      </Field>
      <Field label={t('holidays.from')} error={errors.start_date}>
        {(control) => <input {...control} type="date" value={draft.start_date} onChange={(e) => change({ start_date: e.target.value })} />}
      </Field>
      <Field label={t('holidays.until')} error={errors.end_date}>
        {(control) => <input {...control} type="date" value={draft.end_date} onChange={(e) => change({ end_date: e.target.value })} />}
      </Field>
      <Field label={t('holidays.for')} error={errors.group_id}>
        {(control) => (
          <select {...control} value={draft.group_id} onChange={(e) => change({ group_id: e.target.value })}>
            <option value="">{t('holidays.everyone')}</option>
            {(groups.data?.data ?? []).map((group) => (
              <option key={group.id} value={group.id}>
                {group.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <div className="holiday-form__import form-grid__wide">
        <button type="button" className="button" disabled={importing.isPending} onClick={() => fileInput.current?.click()}>
          {t(importing.isPending ? 'holidays.importing' : 'holidays.import')}
        </button>
        {/* The file's text goes to the API, which reads it with an iCalendar library. */}
        <input
          ref={fileInput}
          type="file"
          accept=".ics,text/calendar"
          hidden
          tabIndex={-1}
          aria-label={t('holidays.import')}
          onChange={(event) => void picked(event)}
        />
        {errors.ics && (
          <p className="form-error" role="alert">
            {errors.ics}
          </p>
        )}
        {outcome && (
          <p className="holiday-form__outcome" role="status">
            {outcome}
          </p>
        )}
      </div>
    </RecordForm>
  );
}

function HolidayRow({ holiday }: { holiday: CompanyHoliday }) {
  const remove = useRemoveHoliday();
  const t = useT();
  const name = t('holidays.rowName', { name: holiday.description, dates: formatDayRange(holiday.start_date, holiday.end_date, t.locale) });

  return (
    <li className="record-row">
      <span className="record-row__name">{name}</span>
      <span className="record-row__detail muted">{t.count('holidays.resourceCount', holiday.resource_ids.length)}</span>
      <RowActions name={name} removal={remove} onDelete={() => remove.mutate(holiday)} />
    </li>
  );
}
