/**
 * The filters time is picked by — period (with a custom range), user, board, collection,
 * activity, status — for the entries list and the export dialog alike; the period alone for
 * the payroll summary.
 */
import { Field } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import { timeStatuses, type TimeStatus } from '../../../shared/resources/time-tracking.js';
import { periodPresets, type PeriodPreset } from './periods.js';
import { noUser, type PeriodChoice, type TimeFilters } from './time-filters.js';
import { CollectionPicker } from './CollectionPicker.js';
import { useActivityChoices, useBoardChoices, useUserChoices, type Choice } from './time-lookups.js';

/** The period (and, for a custom one, its first and last day): the time screens pick time by it. */
export function PeriodFields({
  period,
  onChange,
}: {
  period: PeriodChoice;
  onChange<K extends keyof PeriodChoice>(key: K, value: PeriodChoice[K]): void;
}) {
  const t = useT();
  return (
    <>
      <Field label={t('filters.period')}>
        {(control) => (
          <select {...control} value={period.period} onChange={(event) => onChange('period', event.target.value as PeriodPreset)}>
            {periodPresets.map((preset) => (
              <option key={preset} value={preset}>
                {t(`period.${preset}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      {period.period === 'custom' && (
        <>
          <Field label={t('filters.from')}>
            {(control) => (
              <input
                {...control}
                type="date"
                value={period.customStart}
                onChange={(event) => onChange('customStart', event.target.value)}
              />
            )}
          </Field>
          <Field label={t('filters.to')}>
            {(control) => (
              <input {...control} type="date" value={period.customEnd} onChange={(event) => onChange('customEnd', event.target.value)} />
            )}
          </Field>
        </>
      )}
    </>
  );
}

interface TimeFilterFieldsProps {
  filters: TimeFilters;
  onChange<K extends keyof TimeFilters>(key: K, value: TimeFilters[K]): void;
}

export function TimeFilterFields({ filters, onChange }: TimeFilterFieldsProps) {
  const t = useT();
  const users = useUserChoices();
  const boards = useBoardChoices();
  const activities = useActivityChoices();

  return (
    <>
      <PeriodFields period={filters} onChange={onChange} />
      <Field label={t('filters.user')}>
        {(control) => (
          <select {...control} value={filters.userId} onChange={(event) => onChange('userId', event.target.value)}>
            <option value="">{t('filters.allUsers')}</option>
            <option value={noUser}>{t('filters.noUser')}</option>
            <Options choices={users} />
          </select>
        )}
      </Field>
      <Field label={t('filters.board')}>
        {(control) => (
          <select {...control} value={filters.boardId} onChange={(event) => onChange('boardId', event.target.value)}>
            <option value="">{t('filters.allBoards')}</option>
            <Options choices={boards} />
          </select>
        )}
      </Field>
      <CollectionPicker value={filters.collectionId} boardId={filters.boardId} onChange={(id) => onChange('collectionId', id)} />
      <Field label={t('filters.activity')}>
        {(control) => (
          <select {...control} value={filters.activityId} onChange={(event) => onChange('activityId', event.target.value)}>
            <option value="">{t('filters.allActivities')}</option>
            <Options choices={activities} />
          </select>
        )}
      </Field>
      <Field label={t('filters.status')}>
        {(control) => (
          <select {...control} value={filters.status} onChange={(event) => onChange('status', event.target.value as TimeStatus | '')}>
            <option value="">{t('filters.allStatuses')}</option>
            {timeStatuses.map((status) => (
              <option key={status} value={status}>
                {t(`status.${status}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
    </>
  );
}

function Options({ choices }: { choices: Choice[] }) {
  return (
    <>
      {choices.map((choice) => (
        <option key={choice.id} value={choice.id}>
          {choice.name}
        </option>
      ))}
    </>
  );
}
