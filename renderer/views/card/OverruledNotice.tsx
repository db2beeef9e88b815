/**
 * On a card's panel: the planner's changes to this card that lost to later ones made
 * elsewhere (docs/API.md "Sync", "Overruled edits"), one line each, with "Keep mine" (write
 * it again: a new change that syncs) and "Accept theirs" (close it). The Sync screen lists
 * the same entries for every record.
 */
import { describeError } from '../../api/client.js';
import { useT } from '../../i18n/index.js';
import { useOverruledOf, useResolveOverruled, type OverruledEntry } from '../sync/overruled-api.js';
import { changedBy, changedWhen, fieldLabel, valueText } from '../sync/overruled-words.js';

export function OverruledNotice({ cardId }: { cardId: string }) {
  const t = useT();
  const entries = useOverruledOf('card', cardId);
  const resolve = useResolveOverruled();
  // Who may not read the list (not an admin) sees no notice rather than an error.
  const open = entries.data?.data ?? [];
  if (open.length === 0) return null;

  return (
    <div className="notice notice--warning card-panel__warnings card-panel__overruled" role="note" aria-label={t('overruled.cardNotice')}>
      <ul>
        {open.map((entry) => (
          <li key={entry.id}>
            <span>{line(entry, t)}</span>{' '}
            <span className="card-panel__overruled-actions">
              <button
                type="button"
                className="button"
                disabled={resolve.isPending}
                onClick={() => resolve.mutate({ id: entry.id, action: 'keep' })}
              >
                {t('overruled.keep')}
              </button>
              <button
                type="button"
                className="button button--quiet"
                disabled={resolve.isPending}
                onClick={() => resolve.mutate({ id: entry.id, action: 'accept' })}
              >
                {t('overruled.accept')}
              </button>
            </span>
          </li>
        ))}
      </ul>
      {resolve.isError && (
        <p className="form-error" role="alert">
          {describeError(resolve.error)}
        </p>
      )}
    </div>
  );
}

function line(entry: OverruledEntry, t: ReturnType<typeof useT>): string {
  return t('overruled.cardLine', {
    field: fieldLabel(entry.resource, entry.field, t),
    who: changedBy(entry, t),
    when: changedWhen(entry, t),
    mine: valueText(entry.mine, entry.mine_name, t),
    theirs: valueText(entry.theirs, entry.theirs_name, t),
  });
}
