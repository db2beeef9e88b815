/**
 * The Sync screen: the connection to the remote (address, and sign-in with an account or an
 * API key and environment), the state of sync in plain words, the changes waiting to be
 * sent, the changes the remote refused — each with its reason, your data against the
 * server's, and retry, discard or copy — the changes overruled by later ones elsewhere, what
 * a sync's merge made of the plan that neither side had (the plan check), and the last runs.
 */
import { Notices } from '../../components/Notices.js';
import { useT } from '../../i18n/index.js';
import { ConflictList } from './ConflictList.js';
import { ConnectionForm } from './ConnectionForm.js';
import { OverruledList } from './OverruledList.js';
import { PendingChanges } from './PendingChanges.js';
import { PlanCheckList } from './PlanCheckList.js';
import { SyncHistory } from './SyncHistory.js';
import { SyncOverview } from './SyncOverview.js';
import { useReplicaStatus } from './sync-api.js';
import './sync.css';

export function SyncView() {
  const t = useT();
  const status = useReplicaStatus();
  const localOnly = status.data === null;

  return (
    <section className="view sync-view" aria-labelledby="sync-title">
      <div className="view__header">
        <h1 id="sync-title" className="view__title">
          {t('nav.sync')}
        </h1>
      </div>
      {localOnly ? (
        <div className="placeholder">
          <p>{t('sync.localOnly')}</p>
        </div>
      ) : (
        <>
          <SyncOverview status={status} />
          <ConnectionForm />
          <ConflictList />
          <OverruledList />
          <PlanCheckList />
          <PendingChanges />
          <SyncHistory />
        </>
      )}
      <Notices />
    </section>
  );
}
