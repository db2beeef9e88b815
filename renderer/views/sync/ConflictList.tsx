/**
 * Changes the remote refused. This replica already shows the server's version, so nothing is
 * out of step; each refused change waits here for the planner: what was refused and why, their
 * data beside the server's, and retry (after editing), discard or copy.
 */
import { useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { formatDateTime } from '../../components/dates-format.js';
import { ConflictDetailView } from './ConflictDetailView.js';
import { humanResource } from './PendingChanges.js';
import type { Conflict } from '../../../shared/operations/sync.js';
import { useConflicts } from './sync-api.js';
import { recordName, refusalReasons, refusedAction } from './sync-words.js';

export function ConflictList() {
  const t = useT();
  const conflicts = useConflicts();
  const [open, setOpen] = useState<string | null>(null);
  const page = conflicts.data;
  if (conflicts.isError) return <ErrorNotice error={conflicts.error} onRetry={() => void conflicts.refetch()} />;
  if (!page) return null;

  return (
    <section className="panel panel--stack" aria-labelledby="conflicts-title">
      <div className="panel__header">
        <h2 id="conflicts-title" className="panel__title">
          {t('conflict.title')}
        </h2>
        <span className="muted">{t.count('conflict.count', page.count)}</span>
      </div>
      {page.count === 0 ? (
        <p className="muted">{t('conflict.none')}</p>
      ) : (
        <ul className="conflict-list" aria-label={t('conflict.title')}>
          {page.data.map((conflict) => (
            <li key={conflict.id} className="conflict">
              <ConflictHeading conflict={conflict} />
              <button
                type="button"
                className="button"
                aria-expanded={open === conflict.id}
                onClick={() => setOpen(open === conflict.id ? null : conflict.id)}
              >
                {open === conflict.id ? t('conflict.hide') : t('conflict.review')}
              </button>
              {open === conflict.id && <ConflictDetailView id={conflict.id} onResolved={() => setOpen(null)} />}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function ConflictHeading({ conflict }: { conflict: Conflict }) {
  const t = useT();
  const { mutation } = conflict;
  const name = recordName(mutation.fields) ?? recordName(conflict.server_record);
  // A refused action is one entry, said as the planner did it.
  const action = refusedAction(conflict, t);
  return (
    <div className="conflict__heading">
      <p className="conflict__what">
        {action ?? t(`conflict.refused.${mutation.op}`, { resource: humanResource(mutation.resource), name: name ? `“${name}”` : '' })}
      </p>
      <ul className="conflict__reasons">
        {refusalReasons(conflict.error, t, mutation.resource).map((reason) => (
          <li key={reason}>{reason}</li>
        ))}
      </ul>
      <p className="muted conflict__when">{t('conflict.when', { when: formatDateTime(conflict.created_at, t.locale) })}</p>
    </div>
  );
}
