import { describe, expect, it } from 'vitest';
import { summarizeSync, type SyncStatus } from '../../renderer/components/sync-status.js';

const status = (fields: Partial<SyncStatus>): SyncStatus => ({
  configured: true,
  online: true,
  syncing: false,
  pending: 0,
  conflicts: 0,
  last_error: null,
  ...fields,
});

describe('the sync indicator', () => {
  it('says local only for an instance with no remote', () => {
    const unset = summarizeSync({ kind: 'status', status: status({ configured: false, pending: 3 }) });
    expect(unset).toMatchObject({ state: 'Local only', tone: 'local' });
    expect(unset.description).toContain('3 changes wait to sync once a remote is set up');
  });

  it('says online and synced when nothing waits', () => {
    expect(summarizeSync({ kind: 'status', status: status({}) })).toMatchObject({ state: 'Online', tone: 'ok', details: [] });
  });

  it('shows changes waiting and a sync running', () => {
    const busy = summarizeSync({ kind: 'status', status: status({ syncing: true, pending: 2 }) });
    expect(busy).toMatchObject({ state: 'Online', tone: 'busy', details: ['Syncing…', '2 pending'] });
  });

  it('shows offline with what is kept for later', () => {
    const offline = summarizeSync({ kind: 'status', status: status({ online: false, pending: 5, last_error: 'connect ECONNREFUSED' }) });
    expect(offline).toMatchObject({ state: 'Offline', tone: 'offline', details: ['5 pending'] });
    expect(offline.description).toContain('5 changes not sent yet');
    expect(offline.description).toContain('ECONNREFUSED');
  });

  it('says syncing, not offline, while the first run after connecting or starting has not ended', () => {
    const first = summarizeSync({ kind: 'status', status: status({ online: false, syncing: true, pending: 1 }) });
    expect(first).toMatchObject({ state: 'Syncing…', tone: 'busy', details: ['1 pending'] });
    expect(first.description).toContain('1 change not sent yet');
    // Once a run has failed it is offline, and a retry running says so beside it.
    const retry = summarizeSync({ kind: 'status', status: status({ online: false, syncing: true, last_error: 'connect ECONNREFUSED' }) });
    expect(retry).toMatchObject({ state: 'Offline', tone: 'offline', details: ['Syncing…'] });
  });

  it('warns about conflicts, online or not', () => {
    expect(summarizeSync({ kind: 'status', status: status({ conflicts: 1 }) })).toMatchObject({ tone: 'warning', details: ['1 conflict'] });
    expect(summarizeSync({ kind: 'status', status: status({ online: false, conflicts: 2 }) })).toMatchObject({
      tone: 'warning',
      details: ['2 conflicts'],
    });
  });

  it('counts changes overruled by later ones elsewhere, online or not', () => {
    const online = summarizeSync({ kind: 'status', status: status({ overruled: 2 }) });
    expect(online).toMatchObject({ state: 'Online', tone: 'warning', details: ['2 overruled'] });
    expect(online.description).toContain('2 of your changes were overruled by later ones elsewhere');
    expect(summarizeSync({ kind: 'status', status: status({ online: false, overruled: 1, last_error: 'fetch failed' }) })).toMatchObject({
      tone: 'warning',
      details: ['1 overruled'],
    });
  });

  it('says so when the status cannot be read, never nothing', () => {
    const failed = summarizeSync({ kind: 'failed', message: 'The planner host could not be reached.' });
    expect(failed).toMatchObject({ state: 'Status unknown', tone: 'error' });
    expect(failed.description).toContain('could not be reached');
  });
});
