/**
 * One project in the list: its name, code and last change, with rename and delete. Delete
 * asks once more before it acts, because a planner deleting the wrong project loses the link
 * from its orders.
 */
import { useEffect, useRef } from 'react';
import { useRemove } from '../../api/hooks.js';
import type { Project } from '../../../shared/resources/index.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Timestamp } from '../../components/Timestamp.js';
import { useT } from '../../i18n/index.js';
import { RenameProjectForm } from './RenameProjectForm.js';

/** What the row is doing besides being shown; at most one row does anything at a time. */
export type RowMode = 'view' | 'rename' | 'confirm-delete';

interface ProjectRowProps {
  project: Project;
  mode: RowMode;
  onModeChange: (mode: RowMode) => void;
}

export function ProjectRow({ project, mode, onModeChange }: ProjectRowProps) {
  const remove = useRemove('project');
  const renameButton = useRef<HTMLButtonElement>(null);
  const previousMode = useRef(mode);
  const t = useT();

  // Returning to the row's buttons after an edit keeps keyboard users where they were.
  useEffect(() => {
    if (previousMode.current === 'rename' && mode === 'view') renameButton.current?.focus();
    previousMode.current = mode;
  }, [mode]);

  if (mode === 'rename') {
    return (
      <li className="project-row project-row--editing">
        <RenameProjectForm project={project} onDone={() => onModeChange('view')} />
      </li>
    );
  }

  return (
    <li className="project-row">
      <span className="project-row__name">{project.name}</span>
      <span className="project-row__code">{project.code ?? ''}</span>
      <span className="project-row__updated muted">
        <Timestamp value={project.updated_at} />
      </span>
      {mode === 'confirm-delete' ? (
        <div
          className="row-actions"
          onKeyDown={(event) => {
            if (event.key === 'Escape') onModeChange('view');
          }}
        >
          <span className="row-actions__question">{t('common.deleteQuestion', { name: project.name })}</span>
          <button
            type="button"
            className="button button--danger"
            autoFocus
            disabled={remove.isPending}
            onClick={() => remove.mutate(project.id)}
          >
            {t('common.confirmDelete')}
          </button>
          <button type="button" className="button" onClick={() => onModeChange('view')}>
            {t('common.cancel')}
          </button>
        </div>
      ) : (
        <div className="row-actions">
          <button
            ref={renameButton}
            type="button"
            className="button button--quiet"
            aria-label={t('projects.renameProject', { name: project.name })}
            onClick={() => onModeChange('rename')}
          >
            {t('projects.rename')}
          </button>
          <button
            type="button"
            className="button button--quiet"
            aria-label={t('common.deleteName', { name: project.name })}
            onClick={() => {
              remove.reset();
              onModeChange('confirm-delete');
            }}
          >
            {t('common.delete')}
          </button>
        </div>
      )}
      {remove.error && (
        <div className="project-row__error">
          <ErrorNotice error={remove.error} />
        </div>
      )}
    </li>
  );
}
