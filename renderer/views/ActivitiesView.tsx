/**
 * The Activities screen: the kinds of work a board's stages allow (painting, welding), with a
 * form to add one and edit and delete on each row.
 */
import { useState } from 'react';
import { useList } from '../api/hooks.js';
import { activityListQuery } from '../api/queries.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { RecordActions } from '../components/RecordActions.js';
import { resourceTypeName } from '../components/ResourceTypeSelect.js';
import { useT } from '../i18n/index.js';
import { ActivityForm } from './activities/ActivityForm.js';
import { durationText } from './activities/activity-draft.js';

export function ActivitiesView() {
  const activities = useList('activity', activityListQuery);
  const [editingId, setEditingId] = useState<string | null>(null);
  const t = useT();
  const list = activities.data?.data;
  // The activity being edited may have been deleted elsewhere; then the form creates again.
  const editing = list?.find((activity) => activity.id === editingId);

  return (
    <section className="view" aria-labelledby="activities-title">
      <div className="view__header">
        <h1 id="activities-title" className="view__title">
          {t('nav.activities')}
        </h1>
        {list && <span className="muted">{t.count('activities.count', list.length)}</span>}
      </div>
      <ActivityForm key={editing?.id ?? 'new'} activity={editing} onDone={() => setEditingId(null)} />
      {activities.isError && <ErrorNotice error={activities.error} onRetry={() => void activities.refetch()} />}
      {list ? (
        list.length === 0 ? (
          <p className="empty-state">{t('activities.none')}</p>
        ) : (
          <ul className="record-list" aria-label={t('nav.activities')}>
            {list.map((activity) => (
              <li key={activity.id} className="record-row">
                <span className="record-row__name">{activity.description}</span>
                <span className="record-row__detail muted">
                  {[
                    activity.code,
                    resourceTypeName(activity.resource_type, t),
                    activity.default_duration > 0 && durationText(activity.default_duration, t),
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </span>
                <RecordActions resource="activity" id={activity.id} name={activity.description} onEdit={() => setEditingId(activity.id)} />
              </li>
            ))}
          </ul>
        )
      ) : (
        !activities.isError && (
          <p className="loading" role="status">
            {t('activities.loading')}
          </p>
        )
      )}
    </section>
  );
}
