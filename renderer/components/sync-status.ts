/**
 * How the sync status reads in the top bar. `GET /v1/sync/status` answers the replica's
 * state; one with no remote set up says `configured: false` ("local only"). Changes refused by
 * the remote and changes overruled by later ones elsewhere are counted beside it, so the
 * planner knows there is something to review. Pure, so every case is tested
 * (test/renderer/sync-status.test.ts).
 */
import { translatorFor, type Translate } from '../i18n/index.js';

export interface SyncStatus {
  configured: boolean;
  online: boolean;
  syncing: boolean;
  pending: number;
  conflicts: number;
  /** Open entries of the overruled list (older hosts do not send it). */
  overruled?: number;
  last_error: string | null;
  last_push_at?: string | null;
  last_pull_at?: string | null;
}

/** What the status read gave: the status, or a failure. */
export type SyncReading = { kind: 'status'; status: SyncStatus } | { kind: 'failed'; message: string };

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

/**
 * `t` gives the words in the planner's language; English when none is passed (the top bar
 * passes the current one).
 */
export function summarizeSync(reading: SyncReading, t: Translate = translatorFor('en')): SyncSummary {
  if (reading.kind === 'failed') {
    return {
      tone: 'error',
      state: t('syncStatus.unknown'),
      details: [],
      description: t('syncStatus.unknownDescription', { message: reading.message }),
    };
  }
  const { status } = reading;
  if (!status.configured) {
    const waiting = status.pending > 0 ? ` ${t.count('syncStatus.waiting', status.pending)}` : '';
    return { tone: 'local', state: t('syncStatus.localOnly'), details: [], description: `${t('syncStatus.notSetUp')}${waiting}` };
  }
  // Until its first run ends (just connected, or just started) the client has not reached the
  // remote, yet nothing failed: a first sync is under way, which is not being offline.
  const firstSync = !status.online && !status.last_error;
  const details: string[] = [];
  if (status.syncing && !firstSync) details.push(t('syncStatus.syncing'));
  if (status.pending > 0) details.push(t('syncStatus.pending', { count: status.pending }));
  if (status.conflicts > 0) details.push(t.count('syncStatus.conflicts', status.conflicts));
  const overruled = status.overruled ?? 0;
  if (overruled > 0) details.push(t.count('syncStatus.overruled', overruled));
  const toReview = status.conflicts + overruled;
  const facts = [
    status.pending > 0 ? t.count('syncStatus.notSent', status.pending) : t('syncStatus.allSent'),
    status.conflicts > 0 ? t.count('syncStatus.refused', status.conflicts) : '',
    overruled > 0 ? t.count('syncStatus.overruledFact', overruled) : '',
    status.last_error ? t('syncStatus.lastProblem', { problem: status.last_error }) : '',
  ].filter(Boolean);
  if (firstSync) {
    return {
      tone: toReview > 0 ? 'warning' : 'busy',
      state: t('syncStatus.syncing'),
      details,
      description: `${t('syncStatus.syncing')} ${facts.join('; ')}.`,
    };
  }
  if (!status.online) {
    return {
      tone: toReview > 0 ? 'warning' : 'offline',
      state: t('syncStatus.offline'),
      details,
      description: t('syncStatus.offlineDescription', { facts: facts.join('; ') }),
    };
  }
  const tone: SyncTone = toReview > 0 || status.last_error ? 'warning' : status.syncing || status.pending > 0 ? 'busy' : 'ok';
  return { tone, state: t('syncStatus.online'), details, description: t('syncStatus.onlineDescription', { facts: facts.join('; ') }) };
}
