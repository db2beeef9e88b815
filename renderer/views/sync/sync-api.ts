/**
 * The local replica's sync control (docs/API.md "Sync"): status, settings, a run, the changes
 * waiting to be sent, and the conflict list with retry and discard. An instance that does not
 * sync answers 409; the screen then says so instead of showing an error.
 *
 * Keys start with `sync_status` where the top bar's indicator reads too, so refreshing one
 * refreshes both; the rest poll while the screen is open, since sync work makes no change
 * events of its own.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError } from '../../api/client.js';
import { apiPath } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';
import { callOperation } from '../../api/commands.js';
import {
  retryConflictOperation,
  syncSettingsOperation,
  type Conflict,
  type Mutation,
  type SyncSettings,
  type SyncSettingsInput,
} from '../../../shared/operations/sync.js';
import type { SyncRunSummary, SyncStatus } from '../../../shared/sync.js';

/** `overruled`: open entries of the overruled list (overruled-api.ts). */
export type ReplicaStatus = SyncStatus & { role: string; pending: number; conflicts: number; overruled: number };

export interface ConflictDetail extends Conflict {
  local_record: Record<string, unknown> | null;
  /** The records its fields name (a card's stage), by id: their names, null for one not on this computer. */
  names: Record<string, string | null>;
}

interface Page<T> {
  count: number;
  data: T[];
}

export const syncKeys = {
  status: ['sync_status', 'screen'] as const,
  settings: ['sync_status', 'settings'] as const,
  pending: ['sync_status', 'pending'] as const,
  conflicts: ['sync_status', 'conflicts'] as const,
  conflict: (id: string) => ['sync_status', 'conflicts', id] as const,
};

const poll = 2_000;

/** Null: this instance does not sync (409). */
async function orLocalOnly<T>(read: () => Promise<T>): Promise<T | null> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof ApiRequestError && error.status === 409) return null;
    throw error;
  }
}

export function useReplicaStatus() {
  const { client } = useApi();
  return useQuery({
    queryKey: syncKeys.status,
    queryFn: () => orLocalOnly(() => client.get<ReplicaStatus>('/v1/sync', 'status')),
    refetchInterval: poll,
  });
}

export function useSyncSettings() {
  const { client } = useApi();
  return useQuery({ queryKey: syncKeys.settings, queryFn: () => orLocalOnly(() => client.get<SyncSettings>('/v1/sync', 'settings')) });
}

export function usePending() {
  const { client } = useApi();
  return useQuery({
    queryKey: syncKeys.pending,
    queryFn: () => orLocalOnly(() => client.list<Mutation>('/v1/sync/pending', { limit: 100 })),
    refetchInterval: poll,
  });
}

export function useConflicts() {
  const { client } = useApi();
  return useQuery({
    queryKey: syncKeys.conflicts,
    queryFn: () => orLocalOnly(() => client.list<Conflict>('/v1/sync/conflict', { limit: 100 }) as Promise<Page<Conflict>>),
    refetchInterval: poll * 2,
  });
}

export function useConflict(id: string) {
  const { client } = useApi();
  return useQuery({ queryKey: syncKeys.conflict(id), queryFn: () => client.get<ConflictDetail>('/v1/sync/conflict', id) });
}

function useRefreshSync() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['sync_status'] });
}

export function useSaveSyncSettings() {
  const { transport } = useApi();
  const refresh = useRefreshSync();
  return useMutation({
    mutationFn: (input: SyncSettingsInput) => callOperation(transport, syncSettingsOperation, { body: input }),
    onSuccess: refresh,
  });
}

export function useSyncNow() {
  const { client } = useApi();
  const refresh = useRefreshSync();
  return useMutation({ mutationFn: () => client.create<SyncRunSummary>('/v1/sync/run', {}), onSettled: refresh });
}

export function useResolveConflict() {
  const { client, transport } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action, fields }: { id: string; action: 'retry' | 'discard'; fields?: Record<string, unknown> }) =>
      action === 'retry'
        ? callOperation(transport, retryConflictOperation, { params: { id }, body: fields ?? {} })
        : client.create<Conflict>(apiPath`/v1/sync/conflict/${id}/discard`, {}),
    // The retried record is a local change like any other: every screen may show it.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
