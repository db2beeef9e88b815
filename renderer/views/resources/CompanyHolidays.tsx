/**
 * Company holidays on the Resources screen: a holiday entered once for everyone or for a group,
 * an iCalendar (.ics) file imported the same way, and the list of holidays with delete, which
 * takes a holiday off everyone who has it. A company holiday is one record that every resource
 * has, one added later too, or every member of the group, whoever joins (docs/API.md "Absences
 * and holidays"); a holiday given to resources one by one before company holidays shows who has
 * it, and "Give to everyone" makes it the company's.
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

  /** What an add or an import did, in words that are true: "3 company holidays, for everyone". */
  function said(answer: { holidays: number }): string {
    const group = groups.data?.data.find((g) => g.id === draft.group_id);
    return t('holidays.added', {
      holidays: t.count('holidays.count', answer.holidays),
      scope: group ? t('holidays.forGroup', { group: group.name }) : t('holidays.forEveryone'),
    });
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
    importing.mutate({ ics: await file.text(), ...target }, { onSuccess: (answer) => setOutcome(said(answer)) });
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
          {
            onSuccess: (answer) => {
              setOutcome(said(answer));
              setDraft({ ...draft, description: '', start_date: '', end_date: '' });
            },
          },
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
  const give = useAddHoliday();
  const groups = useGroups();
  const t = useT();
  const name = t('holidays.rowName', { name: holiday.description, dates: formatDayRange(holiday.start_date, holiday.end_date, t.locale) });
  const resources = t.count('holidays.resourceCount', holiday.resource_ids.length);
  const groupNames = holiday.group_ids.map((id) => groups.data?.data.find((g) => g.id === id)?.name ?? '?');
  // Given one by one (before company holidays): a resource added later does not have it.
  const oneByOne = !holiday.everyone && holiday.group_ids.length === 0;
  const scope = holiday.everyone
    ? t('holidays.forEveryone')
    : oneByOne
      ? t('holidays.givenOneByOne', { resources })
      : t('holidays.forGroup', { group: groupNames.join(', ') });

  return (
    <li className="record-row">
      <span className="record-row__name">{name}</span>
      <span className="record-row__detail muted">{oneByOne ? scope : `${scope} · ${resources}`}</span>
      {oneByOne && (
        <button
          type="button"
          className="button"
          disabled={give.isPending}
          aria-label={`${t('holidays.giveToEveryone')}: ${name}`}
          onClick={() =>
            give.mutate({
              description: holiday.description,
              start_date: holiday.start_date,
              end_date: holiday.end_date,
              ...(holiday.time !== null ? { time: holiday.time } : {}),
            })
          }
        >
          {t('holidays.giveToEveryone')}
        </button>
      )}
      <RowActions name={name} removal={remove} onDelete={() => remove.mutate(holiday)} />
      {give.isError && <ErrorNotice error={give.error} />}
    </li>
  );
}
