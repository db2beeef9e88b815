/**
 * A resource's schedule for the next four weeks (GET /v1/resource/{id}/schedule): per day its
 * available of its scheduled hours; an absent day is marked and names its absences' types, and
 * a day with overtime is marked with the hours it adds (available above scheduled).
 */
import { addDays, today } from '../../../shared/dates.js';
import type { ScheduleDeviation } from '../../../shared/resources/resource.js';
import { formatDay } from '../../components/dates-format.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { useSchedule } from './absences-api.js';
import { absenceTypeName, addsTime, hoursText } from './absence-words.js';

const days = 28;

interface ResourceScheduleProps {
  resource: { id: string; updated_at: string };
  absences: readonly ScheduleDeviation[];
}

export function ResourceSchedule({ resource, absences }: ResourceScheduleProps) {
  const start = today();
  const schedule = useSchedule(resource.id, start, addDays(start, days - 1), resource.updated_at);
  const t = useT();
  const byId = new Map(absences.map((absence) => [absence.id, absence]));

  return (
    <section className="resource-schedule" aria-labelledby="resource-schedule-title">
      <h3 id="resource-schedule-title" className="resource-schedule__title">
        {t('absences.schedule')}
      </h3>
      {schedule.isError && <ErrorNotice error={schedule.error} onRetry={() => void schedule.refetch()} />}
      {schedule.data ? (
        <ol className="resource-schedule__days" aria-label={t('absences.schedule')}>
          {schedule.data.data.map((day) => {
            const overtime = day.overtime > 0;
            // Overtime is no absence: a day is absent when something else covers it. One not in
            // the list (yet) is taken for an absence unless the day's figures say it is overtime.
            const isAbsence = (id: string) => {
              const deviation = byId.get(id);
              return deviation ? !addsTime(deviation.type) : !overtime || day.deviation > 0;
            };
            const absent = day.deviations.some(isAbsence);
            const types = [...new Set(day.deviations.filter(isAbsence).map((id) => byId.get(id)?.type))].filter(
              (type) => type !== undefined,
            );
            const modifiers = [absent && 'absent', overtime && 'overtime', day.scheduled === 0 && !overtime && 'off'].filter(Boolean);
            return (
              <li
                key={day.date}
                className={['resource-schedule__day', ...modifiers.map((m) => `resource-schedule__day--${String(m)}`)].join(' ')}
                data-date={day.date}
              >
                <span className="resource-schedule__date">{formatDay(day.date, t.locale)}</span>
                <span className="resource-schedule__hours">
                  {day.scheduled === 0 && !overtime
                    ? t('absences.dayOff')
                    : t('absences.dayHours', {
                        available: hoursText(day.available, t.locale),
                        scheduled: hoursText(day.scheduled, t.locale),
                      })}
                </span>
                {types.length > 0 && (
                  <span className="resource-schedule__absence">
                    {t('absences.dayAbsent', { types: types.map((type) => absenceTypeName(type, t)).join(', ') })}
                  </span>
                )}
                {overtime && (
                  <span className="resource-schedule__overtime">
                    {t('absences.dayOvertime', { hours: hoursText(day.overtime, t.locale) })}
                  </span>
                )}
              </li>
            );
          })}
        </ol>
      ) : (
        !schedule.isError && (
          <p className="loading" role="status">
            {t('absences.scheduleLoading')}
          </p>
        )
      )}
    </section>
  );
}
