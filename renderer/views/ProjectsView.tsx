/**
 * The Projects screen: every project, a form to add one, and rename/delete on each row.
 * The list refreshes itself from change events, so edits made elsewhere appear here too.
 */
import { useState } from 'react';
import type { ListQuery } from '../api/client.js';
import { useList } from '../api/hooks.js';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { useT } from '../i18n/index.js';
import { maxLimit } from '../../shared/list.js';
import { CreateProjectForm } from './projects/CreateProjectForm.js';
import { ProjectRow, type RowMode } from './projects/ProjectRow.js';

// One page of the largest size: a planner's project list is short enough to show whole.
// The footer says so if it ever is not.
const projectListQuery: ListQuery = { sort: 'name:asc', limit: maxLimit };

interface ActiveRow {
  id: string;
  mode: Exclude<RowMode, 'view'>;
}

export function ProjectsView() {
  const projects = useList('project', projectListQuery);
  const [active, setActive] = useState<ActiveRow | null>(null);
  const t = useT();

  const list = projects.data;
  // A row that was being edited may have been deleted elsewhere; then nothing is active.
  const activeRow = active && list?.data.some((project) => project.id === active.id) ? active : null;

  return (
    <section className="view" aria-labelledby="projects-title">
      <div className="view__header">
        <h1 id="projects-title" className="view__title">
          {t('nav.projects')}
        </h1>
        {list && <span className="muted">{t.count('projects.count', list.count)}</span>}
      </div>

      <CreateProjectForm paused={activeRow?.mode === 'rename'} />

      {list ? (
        <>
          {projects.isError && <ErrorNotice error={projects.error} onRetry={() => void projects.refetch()} />}
          <ul className="project-list" role="list" aria-label={t('nav.projects')}>
            {list.data.map((project) => (
              <ProjectRow
                key={project.id}
                project={project}
                mode={activeRow?.id === project.id ? activeRow.mode : 'view'}
                onModeChange={(mode) => setActive(mode === 'view' ? null : { id: project.id, mode })}
              />
            ))}
          </ul>
          {list.data.length === 0 && <p className="empty-state">{t('projects.none')}</p>}
          {list.count > list.data.length && (
            <p className="muted">{t('projects.firstOnly', { shown: list.data.length, count: list.count })}</p>
          )}
        </>
      ) : projects.isError ? (
        <ErrorNotice error={projects.error} onRetry={() => void projects.refetch()} />
      ) : (
        <p className="loading" role="status">
          {t('projects.loading')}
        </p>
      )}
    </section>
  );
}
