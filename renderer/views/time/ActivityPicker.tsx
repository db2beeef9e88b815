/**
 * Picking an activity for time on no card (a meeting, cleaning, training): a search box over
 * the activities' names and codes and the matches as buttons. The week sheet adds a row for it.
 */
import { useId, useState } from 'react';
import { useList } from '../../api/hooks.js';
import { activityListQuery } from '../../api/queries.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import type { ActivitySummary } from './time-api.js';

interface ActivityPickerProps {
  label: string;
  onPick(activity: ActivitySummary): void;
  onCancel(): void;
}

export function ActivityPicker({ label, onPick, onCancel }: ActivityPickerProps) {
  const t = useT();
  const inputId = useId();
  const [text, setText] = useState('');
  const activities = useList('activity', activityListQuery);
  const wanted = text.trim().toLowerCase();
  const found = (activities.data?.data ?? []).filter(
    (activity) => !wanted || `${activity.description} ${activity.code ?? ''}`.toLowerCase().includes(wanted),
  );
  return (
    <div
      className="card-picker"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <label htmlFor={inputId} className="card-picker__label">
        {label}
      </label>
      <input
        id={inputId}
        type="search"
        className="card-picker__search"
        autoFocus
        autoComplete="off"
        placeholder={t('activityPicker.placeholder')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && found[0]) {
            event.preventDefault();
            onPick(found[0]);
          }
        }}
      />
      {activities.isError && <ErrorNotice error={activities.error} onRetry={() => void activities.refetch()} />}
      <ul className="card-picker__results" aria-label={t('activityPicker.results')}>
        {found.map((activity) => (
          <li key={activity.id}>
            <button type="button" className="card-picker__card" onClick={() => onPick(activity)}>
              {activity.description}
              {activity.code && <span className="muted"> · {activity.code}</span>}
            </button>
          </li>
        ))}
      </ul>
      {activities.data && found.length === 0 && <p className="muted card-picker__none">{t('activityPicker.none')}</p>}
      <button type="button" className="button button--quiet" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </div>
  );
}
