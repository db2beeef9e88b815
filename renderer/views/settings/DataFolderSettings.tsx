/**
 * The data folder — where it is, and in the desktop app a button that opens it — and its
 * backups. A backup is a consistent copy of the SQLite databases,
 * made by the desktop app (it owns the files and the save dialog); a restore replaces the
 * data with a backup after the planner confirms. In the browser host neither exists, and the
 * section says how to keep a copy instead.
 */
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { describeError } from '../../api/client.js';
import { dataFolderControl } from '../../api/data-folder.js';
import { useT } from '../../i18n/index.js';
import { formatDateTime } from '../../components/dates-format.js';

type Outcome = { ok: boolean; message: string } | null;

export function DataFolderSettings() {
  const t = useT();
  const bridge = window.planner;
  const canBackUp = Boolean(bridge && typeof bridge.backup === 'function');
  const canRestore = Boolean(bridge && typeof bridge.restore === 'function');
  const [busy, setBusy] = useState<'backup' | 'restore' | null>(null);
  const [confirmRestore, setConfirmRestore] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const control = useMemo(() => dataFolderControl(), []);
  // Not under a resource's key: no change event touches it, and it never changes while the app runs.
  const folder = useQuery({ queryKey: ['data_folder'], queryFn: () => control.folder(), staleTime: Infinity });

  async function openFolder() {
    if (!control.open) return;
    setOutcome(null);
    try {
      const { problem } = await control.open();
      if (problem) setOutcome({ ok: false, message: t('data.openFailed', { problem }) });
    } catch (error) {
      setOutcome({ ok: false, message: describeError(error) });
    }
  }

  async function backUp() {
    if (!bridge) return;
    setBusy('backup');
    setOutcome(null);
    try {
      const result = await bridge.backup();
      if (result.status === 'saved') setOutcome({ ok: true, message: t('data.backedUp', { file: result.fileName }) });
      else if (result.status === 'failed') setOutcome({ ok: false, message: result.message });
    } catch (error) {
      setOutcome({ ok: false, message: describeError(error) });
    } finally {
      setBusy(null);
    }
  }

  async function restore() {
    if (!bridge) return;
    setConfirmRestore(false);
    setBusy('restore');
    setOutcome(null);
    try {
      const result = await bridge.restore();
      if (result.status === 'restored')
        setOutcome({ ok: true, message: t('data.restored', { when: formatDateTime(result.createdAt, t.locale) }) });
      else if (result.status !== 'canceled') setOutcome({ ok: false, message: result.message });
    } catch (error) {
      setOutcome({ ok: false, message: describeError(error) });
    } finally {
      setBusy(null);
    }
  }

  return (
    <section className="panel panel--stack settings-section" aria-labelledby="data-title">
      <h2 id="data-title" className="panel__title">
        {t('data.title')}
      </h2>
      <p>{t('data.folder')}</p>
      <div className="settings-actions">
        {folder.data ? (
          <code className="settings-path" aria-label={t('data.folderPath')}>
            {folder.data.path}
          </code>
        ) : folder.isError ? (
          <span className="form-error">{describeError(folder.error)}</span>
        ) : (
          <span className="muted">{t('data.folderReading')}</span>
        )}
        {control.open && (
          <button type="button" className="button" onClick={() => void openFolder()}>
            {t('data.openFolder')}
          </button>
        )}
      </div>
      {canBackUp ? (
        <div className="settings-actions">
          <button type="button" className="button" disabled={busy !== null} onClick={() => void backUp()}>
            {busy === 'backup' ? t('data.backingUp') : t('data.backUp')}
          </button>
          {canRestore &&
            (confirmRestore ? (
              <>
                <span>{t('data.restoreQuestion')}</span>
                <button type="button" className="button button--danger" onClick={() => void restore()}>
                  {t('data.restoreConfirm')}
                </button>
                <button type="button" className="button button--quiet" onClick={() => setConfirmRestore(false)}>
                  {t('common.cancel')}
                </button>
              </>
            ) : (
              <button type="button" className="button" disabled={busy !== null} onClick={() => setConfirmRestore(true)}>
                {busy === 'restore' ? t('data.restoring') : t('data.restore')}
              </button>
            ))}
        </div>
      ) : (
        <p className="muted">{t('data.browserHost')}</p>
      )}
      {outcome && (
        <p className={outcome.ok ? 'muted' : 'form-error'} role={outcome.ok ? 'status' : 'alert'}>
          {outcome.message}
        </p>
      )}
    </section>
  );
}
