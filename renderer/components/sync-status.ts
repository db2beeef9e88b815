/**
 * How the sync status reads in the top bar. `GET /v1/sync/status` answers the replica's
 * state; an instance that does not sync answers 409 ("local only"). Pure, so every case is
 * tested (test/renderer/sync-status.test.ts).
 */

export interface SyncStatus {
  configured: boolean;
  online: boolean;
  syncing: boolean;
  pending: number;
  conflicts: number;
  last_error: string | null;
  last_push_at?: string | null;
  last_pull_at?: string | null;
}

/** What the status read gave: the status, "this instance does not sync", or a failure. */
export type SyncReading = { kind: 'status'; status: SyncStatus } | { kind: 'local-only' } | { kind: 'failed'; message: string };

export type SyncTone = 'ok' | 'busy' | 'offline' | 'local' | 'warning' | 'error';

export interface SyncSummary {
  tone: SyncTone;
  /** The words shown: "Online", "Offline", "Local only", "Status unknown". */
  state: string;
  /** Further facts shown beside it: "3 pending", "Syncing…", "1 conflict". */
  details: string[];
  /** A sentence for the tooltip and screen readers. */
  description: string;
}

const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;

export function summarizeSync(reading: SyncReading): SyncSummary {
  if (reading.kind === 'failed') {
    return { tone: 'error', state: 'Status unknown', details: [], description: `The sync status could not be read: ${reading.message}` };
  }
  if (reading.kind === 'local-only') {
    return { tone: 'local', state: 'Local only', details: [], description: 'This planner keeps its data on this computer only; it does not sync.' };
  }
  const { status } = reading;
  if (!status.configured) {
    const waiting = status.pending > 0 ? ` ${plural(status.pending, 'change waits', 'changes wait')} to sync once a remote is set up.` : '';
    return { tone: 'local', state: 'Local only', details: [], description: `No remote is set up: changes stay on this computer.${waiting}` };
  }
  const details: string[] = [];
  if (status.syncing) details.push('Syncing…');
  if (status.pending > 0) details.push(`${status.pending} pending`);
  if (status.conflicts > 0) details.push(plural(status.conflicts, 'conflict', 'conflicts'));
  const facts = [
    status.pending > 0 ? `${plural(status.pending, 'change', 'changes')} not sent yet` : 'everything is sent',
    status.conflicts > 0 ? `${plural(status.conflicts, 'change', 'changes')} refused by the remote, to review on the Sync screen` : '',
    status.last_error ? `last problem: ${status.last_error}` : '',
  ].filter(Boolean);
  if (!status.online) {
    return { tone: status.conflicts > 0 ? 'warning' : 'offline', state: 'Offline', details, description: `Offline: ${facts.join('; ')}. Changes are kept and sent when the remote can be reached.` };
  }
  const tone: SyncTone = status.conflicts > 0 || status.last_error ? 'warning' : status.syncing || status.pending > 0 ? 'busy' : 'ok';
  return { tone, state: 'Online', details, description: `Online: ${facts.join('; ')}.` };
}
