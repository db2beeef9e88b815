/**
 * Edit and delete on one row of a list. Delete asks once more before it acts, because the
 * record may be in use (an activity allowed in stages, a resource assigned to cards).
 */
import { useState } from 'react';
import { useRemove } from '../api/hooks.js';
import type { ResourceName } from '../api/resources.js';
import { useT } from '../i18n/index.js';
import { ErrorNotice } from './ErrorNotice.js';

interface RecordActionsProps {
  resource: ResourceName;
  id: string;
  /** What the planner calls the record; names the buttons ("Edit Painting"). */
  name: string;
  onEdit: () => void;
}

export function RecordActions({ resource, id, name, onEdit }: RecordActionsProps) {
  const remove = useRemove(resource);
  return <RowActions name={name} onEdit={onEdit} removal={remove} onDelete={() => remove.mutate(id)} />;
}

/** The state of the delete a row asks for: a react-query mutation fits it as it is. */
export interface RowRemoval {
  isPending: boolean;
  error: unknown;
  reset: () => void;
}

interface RowActionsProps {
  name: string;
  /** Left out where a row can only be deleted (a company holiday). */
  onEdit?: () => void;
  removal: RowRemoval;
  /** Runs once the planner has confirmed the delete. */
  onDelete: () => void;
}

/**
 * The same buttons for a row whose delete is not a plain resource delete (an absence under its
 * resource, a holiday across every resource): the caller brings its own mutation.
 */
export function RowActions({ name, onEdit, removal: remove, onDelete }: RowActionsProps) {
  const [confirming, setConfirming] = useState(false);
  const t = useT();

  return (
    <>
      {confirming ? (
        <div
          className="row-actions"
          onKeyDown={(event) => {
            if (event.key === 'Escape') setConfirming(false);
          }}
        >
          <span className="row-actions__question">{t('common.deleteQuestion', { name })}</span>
          <button type="button" className="button button--danger" autoFocus disabled={remove.isPending} onClick={onDelete}>
            {t('common.confirmDelete')}
          </button>
          <button type="button" className="button" onClick={() => setConfirming(false)}>
            {t('common.cancel')}
          </button>
        </div>
      ) : (
        <div className="row-actions">
          {onEdit && (
            <button type="button" className="button button--quiet" aria-label={t('common.editName', { name })} onClick={onEdit}>
              {t('common.edit')}
            </button>
          )}
          <button
            type="button"
            className="button button--quiet"
            aria-label={t('common.deleteName', { name })}
            onClick={() => {
              remove.reset();
              setConfirming(true);
            }}
          >
            {t('common.delete')}
          </button>
        </div>
      )}
      {remove.error != null && (
        <div className="record-row__error">
          <ErrorNotice error={remove.error} />
        </div>
      )}
    </>
  );
}
