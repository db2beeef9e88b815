/**
 * The Resources screen: the people, machines and cells that do the work, with a form to add
 * one and edit and delete on each row. Each row says which stages the resource works on. The
 * resource being edited shows its absences and schedule; company holidays sit at the foot.
 */
import { useState } from 'react';
import { useList } from '../api/hooks.js';
import { boardStagesListQuery, resourceListQuery } from '../api/queries.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { RecordActions } from '../components/RecordActions.js';
import { resourceTypeName } from '../components/ResourceTypeSelect.js';
import { useT } from '../i18n/index.js';
import { assignmentText, colorInputValue, type BoardWithStages } from './resources/resource-draft.js';
import { CompanyHolidays } from './resources/CompanyHolidays.js';
import { ResourceAbsences } from './resources/ResourceAbsences.js';
import { ResourceForm } from './resources/ResourceForm.js';

export function ResourcesView() {
  const resources = useList('resource', resourceListQuery);
  const boards = useList<'board', BoardWithStages>('board', boardStagesListQuery);
  const [editingId, setEditingId] = useState<string | null>(null);
  const t = useT();
  const list = resources.data?.data;
  const boardList = boards.data?.data;
  // The resource being edited may have been deleted elsewhere; then the form creates again.
  const editing = list?.find((resource) => resource.id === editingId);

  return (
    <section className="view" aria-labelledby="resources-title">
      <div className="view__header">
        <h1 id="resources-title" className="view__title">
          {t('nav.resources')}
        </h1>
        {list && <span className="muted">{t.count('resources.count', list.length)}</span>}
      </div>
      {boards.isError && <ErrorNotice error={boards.error} onRetry={() => void boards.refetch()} />}
      <ResourceForm key={editing?.id ?? 'new'} resource={editing} boards={boardList} onDone={() => setEditingId(null)} />
      {editing && <ResourceAbsences key={editing.id} resource={editing} />}
      {resources.isError && <ErrorNotice error={resources.error} onRetry={() => void resources.refetch()} />}
      {list ? (
        list.length === 0 ? (
          <p className="empty-state">{t('resources.none')}</p>
        ) : (
          <ul className="record-list" aria-label={t('nav.resources')}>
            {list.map((resource) => (
              <li key={resource.id} className="record-row">
                <span className="record-row__name">
                  <span className="swatch" style={{ background: colorInputValue(resource.color_hex) }} aria-hidden="true" />
                  {resource.name}
                </span>
                <span className="record-row__detail muted">
                  {[resourceTypeName(resource.type, t), ...assignmentText(resource, boardList ?? [], t)].join(' · ')}
                </span>
                <RecordActions resource="resource" id={resource.id} name={resource.name} onEdit={() => setEditingId(resource.id)} />
              </li>
            ))}
          </ul>
        )
      ) : (
        !resources.isError && (
          <p className="loading" role="status">
            {t('resources.loading')}
          </p>
        )
      )}
      <CompanyHolidays />
    </section>
  );
}
