/**
 * One refused change, opened: your data beside the server's, field by field, differences
 * marked; the fields you sent, editable and prefilled, to retry with; discard (keep the
 * server's version); and copy (the whole conflict as JSON on the clipboard, for a colleague
 * or a ticket).
 */
import { useState } from 'react';
import { describeError } from '../../api/client.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import { conflictRows, editableFields, retryBody, valueText } from './conflict-diff.js';
import { fieldLabel, valueText as readableValue } from './overruled-words.js';
import { useConflict, useResolveConflict, type ConflictDetail } from './sync-api.js';

export function ConflictDetailView({ id, onResolved }: { id: string; onResolved(): void }) {
  const conflict = useConflict(id);
  if (conflict.isError) return <ErrorNotice error={conflict.error} onRetry={() => void conflict.refetch()} />;
  if (!conflict.data) return null;
  return <ConflictBody conflict={conflict.data} onResolved={onResolved} />;
}

function ConflictBody({ conflict, onResolved }: { conflict: ConflictDetail; onResolved(): void }) {
  const t = useT();
  const notify = useNotices((state) => state.notify);
  const resolve = useResolveConflict();
  const { mutation } = conflict;
  const rows = conflictRows(mutation.fields, conflict.server_record);
  const editable = editableFields(mutation.fields);
  const [edits, setEdits] = useState<Record<string, string>>(() =>
    Object.fromEntries(editable.map((field) => [field, valueText(mutation.fields?.[field])])),
  );
  const [copied, setCopied] = useState<{ ok: boolean; message: string } | null>(null);
  // An action of several changes is retried or discarded whole, as it was: no edits.
  const changes = conflict.group?.items.length ?? 1;

  function act(action: 'retry' | 'discard') {
    resolve.mutate(
      { id: conflict.id, action, ...(action === 'retry' && changes === 1 ? { fields: retryBody(mutation.fields, edits) } : {}) },
      {
        onSuccess: () => {
          notify(action === 'retry' ? t('conflict.retried') : t('conflict.discarded'));
          onResolved();
        },
      },
    );
  }

  async function copy() {
    try {
      await navigator.clipboard.writeText(JSON.stringify(conflict, null, 2));
      setCopied({ ok: true, message: t('conflict.copied') });
    } catch (error) {
      setCopied({ ok: false, message: t('conflict.copyFailed', { problem: describeError(error) }) });
    }
  }

  return (
    <div className="conflict__detail">
      <table className="data-table sync-table conflict__table" aria-label={t('conflict.compare')}>
        <thead>
          <tr>
            <th scope="col">{t('conflict.field')}</th>
            <th scope="col">{t('conflict.yours')}</th>
            <th scope="col">{t('conflict.servers')}</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={row.field}
              className={
                row.differs ? 'conflict__row conflict__row--differs' : row.sent ? 'conflict__row' : 'conflict__row conflict__row--context'
              }
            >
              <th scope="row">
                {fieldLabel(mutation.resource, row.field, t)}
                {row.differs && <span className="visually-hidden"> ({t('conflict.differs')})</span>}
              </th>
              <td>
                {row.sent ? <Value value={row.mine} names={conflict.names} /> : <span className="muted">{t('conflict.notSent')}</span>}
              </td>
              <td>
                {conflict.server_record ? (
                  <Value value={row.theirs} names={conflict.names} />
                ) : (
                  <span className="muted">{t('conflict.noServerRecord')}</span>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>

      {changes > 1 && <p className="muted">{t.count('conflict.wholeAction', changes)}</p>}

      {changes === 1 && mutation.op !== 'delete' && editable.length > 0 && (
        <fieldset className="conflict__edit">
          <legend>{t('conflict.editLegend')}</legend>
          {editable.map((field) => (
            <Field key={field} label={fieldLabel(mutation.resource, field, t)}>
              {(control) =>
                typeof mutation.fields?.[field] === 'boolean' ? (
                  <select {...control} value={edits[field]} onChange={(event) => setEdits({ ...edits, [field]: event.target.value })}>
                    <option value="true">{t('common.yes')}</option>
                    <option value="false">{t('common.no')}</option>
                  </select>
                ) : (
                  <input
                    {...control}
                    value={edits[field] ?? ''}
                    onChange={(event) => setEdits({ ...edits, [field]: event.target.value })}
                  />
                )
              }
            </Field>
          ))}
        </fieldset>
      )}

      {resolve.isError && (
        <p className="form-error" role="alert">
          {describeError(resolve.error)}
        </p>
      )}
      {copied && (
        <p className={copied.ok ? 'muted' : 'form-error'} role={copied.ok ? 'status' : 'alert'}>
          {copied.message}
        </p>
      )}
      <div className="conflict__actions">
        <button type="button" className="button button--primary" disabled={resolve.isPending} onClick={() => act('retry')}>
          {mutation.op === 'delete' ? t('conflict.retryDelete') : t('conflict.retry')}
        </button>
        <button type="button" className="button" disabled={resolve.isPending} onClick={() => act('discard')}>
          {t('conflict.discard')}
        </button>
        <button type="button" className="button button--quiet" onClick={() => void copy()}>
          {t('conflict.copy')}
        </button>
      </div>
    </div>
  );
}

function Value({ value, names }: { value: unknown; names: ConflictDetail['names'] }) {
  const t = useT();
  // A record a field names, by its name; one this computer does not have (deleted meanwhile) is said so, never by its id.
  if (typeof value === 'string' && Object.hasOwn(names, value)) {
    const name = names[value];
    return name ? <span className="conflict__value">{name}</span> : <span className="muted">{t('conflict.notHere')}</span>;
  }
  // Dates, times, yes/no and numbers in the formats of the rest of the UI, as the Overruled list writes them.
  return valueText(value) ? <span className="conflict__value">{readableValue(value, null, t)}</span> : <span className="muted">–</span>;
}
