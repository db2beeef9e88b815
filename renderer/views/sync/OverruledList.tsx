/**
 * Changes of this planner's that lost to later ones made elsewhere (docs/API.md "Sync",
 * "Overruled edits"). This computer already shows the value that won; each entry says which
 * record and field, both values, and who changed it when. "Keep mine" writes the planner's
 * value again (a new change that syncs like any other); "Accept theirs" closes the entry.
 */
import { describeError } from '../../api/client.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import { useOverruled, useResolveOverruled, type OverruledEntry } from './overruled-api.js';
import { changedBy, changedWhen, fieldLabel, resourceWord, valueText } from './overruled-words.js';

export function OverruledList() {
  const t = useT();
  const overruled = useOverruled();
  const page = overruled.data;
  if (overruled.isError) return <ErrorNotice error={overruled.error} onRetry={() => void overruled.refetch()} />;
  if (!page) return null;

  return (
    <section className="panel panel--stack" aria-labelledby="overruled-title">
      <div className="panel__header">
        <h2 id="overruled-title" className="panel__title">
          {t('overruled.title')}
        </h2>
        <span className="muted">{t.count('overruled.count', page.count)}</span>
      </div>
      {page.count === 0 ? (
        <p className="muted">{t('overruled.none')}</p>
      ) : (
        <>
          <p className="muted">{t('overruled.explain')}</p>
          <ul className="conflict-list" aria-label={t('overruled.title')}>
            {page.data.map((entry) => (
              <li key={entry.id} className="conflict overruled">
                <OverruledEntryView entry={entry} />
              </li>
            ))}
          </ul>
          {page.count > page.data.length && <p className="muted">{t('overruled.more', { shown: page.data.length, count: page.count })}</p>}
        </>
      )}
    </section>
  );
}

function OverruledEntryView({ entry }: { entry: OverruledEntry }) {
  const t = useT();
  const notify = useNotices((state) => state.notify);
  const resolve = useResolveOverruled();
  const field = fieldLabel(entry.resource, entry.field, t);

  function act(action: 'keep' | 'accept') {
    resolve.mutate(
      { id: entry.id, action },
      { onSuccess: () => notify(action === 'keep' ? t('overruled.kept') : t('overruled.accepted')) },
    );
  }

  return (
    <>
      <div className="conflict__heading">
        <p className="conflict__what">
          {t('overruled.heading', {
            field,
            resource: resourceWord(entry.resource, t),
            name: entry.record_name ? `“${entry.record_name}”` : '',
          })}
        </p>
        <p className="muted conflict__when">{t('overruled.by', { who: changedBy(entry, t), when: changedWhen(entry, t) })}</p>
      </div>
      <table className="data-table sync-table overruled__values" aria-label={field}>
        <tbody>
          <tr>
            <th scope="row">{t('overruled.mine')}</th>
            <td className="conflict__value">{valueText(entry.mine, entry.mine_name, t)}</td>
          </tr>
          <tr>
            <th scope="row">{t('overruled.theirs')}</th>
            <td className="conflict__value">{valueText(entry.theirs, entry.theirs_name, t)}</td>
          </tr>
        </tbody>
      </table>
      {resolve.isError && (
        <p className="form-error overruled__wide" role="alert">
          {describeError(resolve.error)}
        </p>
      )}
      <div className="conflict__actions overruled__wide">
        <button type="button" className="button button--primary" disabled={resolve.isPending} onClick={() => act('keep')}>
          {t('overruled.keep')}
        </button>
        <button type="button" className="button" disabled={resolve.isPending} onClick={() => act('accept')}>
          {t('overruled.accept')}
        </button>
      </div>
    </>
  );
}
