/**
 * A resource's absences: the list (type, days, whole or part days, note) with edit and delete
 * on each row (the company holidays it has among them, read-only; overtime as the hours it adds), the form to add one, and the resource's schedule for the next four weeks with
 * the absent days and the days with overtime marked. Shown under the resource form while a resource is being edited.
 */
import { useState } from 'react';
import type { ScheduleDeviation } from '../../../shared/resources/resource.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { RowActions } from '../../components/RecordActions.js';
import { useT } from '../../i18n/index.js';
import { AbsenceForm } from './AbsenceForm.js';
import { useAbsences, useRemoveAbsence } from './absences-api.js';
import { absenceExtent, absenceName } from './absence-words.js';
import { ResourceSchedule } from './ResourceSchedule.js';

export function ResourceAbsences({ resource }: { resource: { id: string; name: string; updated_at: string } }) {
  const absences = useAbsences(resource.id);
  const [editingId, setEditingId] = useState<string | null>(null);
  const t = useT();
  const list = absences.data?.data;
  const editing = list?.find((absence) => absence.id === editingId);

  return (
    <section className="absences" aria-labelledby="absences-title">
      <h2 id="absences-title" className="absences__title">
        {t('absences.title', { name: resource.name })}
      </h2>
      {absences.isError && <ErrorNotice error={absences.error} onRetry={() => void absences.refetch()} />}
      {list ? (
        list.length === 0 ? (
          <p className="empty-state">{t('absences.none')}</p>
        ) : (
          <ul className="record-list" aria-label={t('absences.title', { name: resource.name })}>
            {list.map((absence) => (
              <AbsenceRow key={absence.id} resourceId={resource.id} absence={absence} onEdit={() => setEditingId(absence.id)} />
            ))}
          </ul>
        )
      ) : (
        !absences.isError && (
          <p className="loading" role="status">
            {t('absences.loading')}
          </p>
        )
      )}
      <AbsenceForm key={editing?.id ?? 'new'} resourceId={resource.id} absence={editing} onDone={() => setEditingId(null)} />
      <ResourceSchedule resource={resource} absences={list ?? []} />
    </section>
  );
}

function AbsenceRow({ resourceId, absence, onEdit }: { resourceId: string; absence: ScheduleDeviation; onEdit: () => void }) {
  const remove = useRemoveAbsence(resourceId);
  const t = useT();
  const name = absenceName(absence, t);
  // A company holiday the resource has is the company's: it is changed under Company holidays.
  const company = absence.company_holiday_id !== null;
  const detail = [absenceExtent(absence.type, absence.time, t), absence.description, company ? t('absences.companyHoliday') : null];

  return (
    <li className="record-row">
      <span className="record-row__name">{name}</span>
      <span className="record-row__detail muted">{detail.filter(Boolean).join(' · ')}</span>
      {!company && <RowActions name={name} onEdit={onEdit} removal={remove} onDelete={() => remove.mutate(absence.id)} />}
    </li>
  );
}
