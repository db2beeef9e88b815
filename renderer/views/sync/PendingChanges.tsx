/** The changes made here that the remote has not received yet, oldest first. */
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { plannerField } from './conflict-diff.js';
import { useT } from '../../i18n/index.js';
import { usePending } from './sync-api.js';
import { fieldLabel } from './overruled-words.js';
import { recordName } from './sync-words.js';

export function humanResource(resource: string): string {
  return resource.replace(/_/g, ' ');
}

export function PendingChanges() {
  const t = useT();
  const pending = usePending();
  const page = pending.data;
  if (pending.isError) return <ErrorNotice error={pending.error} onRetry={() => void pending.refetch()} />;
  if (!page) return null;

  return (
    <section className="panel panel--stack" aria-labelledby="pending-title">
      <div className="panel__header">
        <h2 id="pending-title" className="panel__title">
          {t('pending.title')}
        </h2>
        <span className="muted">{t.count('pending.count', page.count)}</span>
      </div>
      {page.count === 0 ? (
        <p className="muted">{t('pending.none')}</p>
      ) : (
        <table className="data-table sync-table" aria-label={t('pending.title')}>
          <thead>
            <tr>
              <th scope="col">{t('pending.record')}</th>
              <th scope="col">{t('pending.change')}</th>
              <th scope="col">{t('pending.fields')}</th>
            </tr>
          </thead>
          <tbody>
            {page.data.map((mutation) => (
              <tr key={mutation.mutation_id}>
                <td>
                  <span className="sync-table__resource">{humanResource(mutation.resource)}</span>{' '}
                  {recordName(mutation.fields) ?? <span className="muted">{mutation.id.slice(0, 8)}</span>}
                </td>
                <td>{t(`conflict.op.${mutation.op}`)}</td>
                <td className="muted sync-table__fields">
                  {Object.keys(mutation.fields ?? {})
                    .filter(plannerField)
                    .map((field) => fieldLabel(mutation.resource, field, t))
                    .join(', ')}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {page.count > page.data.length && <p className="muted">{t('pending.more', { shown: page.data.length, count: page.count })}</p>}
    </section>
  );
}
