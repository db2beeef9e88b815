/**
 * The overruled list and the sync history (docs/API.md "Sync", "Overruled edits" and
 * "History"): reads, and keep mine / accept theirs. Keys start with `sync_status`, which every
 * change event refreshes (the top bar's indicator does that), so a pull that overrules a
 * change shows on the card and in the list without waiting for a poll.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListQuery } from '../../api/client.js';
import { apiPath } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';

export interface OverruledEntry {
  id: string;
  resource: string;
  record_id: string;
  field: string;
  mine: unknown;
  theirs: unknown;
  /** For a field that names another record (a card's stage): that record's name. */
  mine_name: string | null;
  theirs_name: string | null;
  /** The computer whose change won, by its node id. */
  changed_by: string;
  changed_at: string;
  noticed_at: string;
  status: 'open' | 'kept' | 'accepted';
  resolved_at: string | null;
  record_name: string | null;
  /** A card's collection. */
  collection_id?: string;
}

export interface SyncRun {
  id: number;
  started_at: string;
  ended_at: string;
  duration_ms: number;
  sent: number;
  received: number;
  overruled: number;
  refused: number;
  files_sent: number;
  files_fetched: number;
  resynced: boolean;
  error: string | null;
  runs: number;
}

export const overruledKeys = {
  all: ['sync_status', 'overruled'] as const,
  ofRecord: (resource: string, id: string) => ['sync_status', 'overruled', resource, id] as const,
  cards: ['sync_status', 'overruled', 'card'] as const,
  history: ['sync_status', 'history'] as const,
};

const poll = 2_000;
/** As many as one read gives; more open entries than this are a list to work through first. */
const pageSize = 100;

function listQuery(query: Record<string, string | number>): ListQuery {
  return query as ListQuery;
}

/** Open entries, newest first (the Sync screen). */
export function useOverruled() {
  const { client } = useApi();
  return useQuery({
    queryKey: overruledKeys.all,
    queryFn: () => client.list<OverruledEntry>('/v1/sync/overruled', listQuery({ limit: pageSize })),
    refetchInterval: poll,
  });
}

/** One record's open entries (the card panel). Quiet when the caller may not read them. */
export function useOverruledOf(resource: string, id: string) {
  const { client } = useApi();
  return useQuery({
    queryKey: overruledKeys.ofRecord(resource, id),
    queryFn: () => client.list<OverruledEntry>('/v1/sync/overruled', listQuery({ resource, record_id: id, limit: pageSize })),
    retry: false,
  });
}

/** The cards with open entries, for their mark on the planboard; empty when none can be read. */
export function useOverruledCardIds(): ReadonlySet<string> {
  const { client } = useApi();
  const cards = useQuery({
    queryKey: overruledKeys.cards,
    queryFn: async () =>
      new Set(
        (await client.list<OverruledEntry>('/v1/sync/overruled', listQuery({ resource: 'card', limit: 1000 }))).data.map(
          (entry) => entry.record_id,
        ),
      ),
    retry: false,
  });
  return cards.data ?? noCards;
}

const noCards: ReadonlySet<string> = new Set();

export function useSyncHistory() {
  const { client } = useApi();
  return useQuery({
    queryKey: overruledKeys.history,
    queryFn: () => client.list<SyncRun>('/v1/sync/history', listQuery({ limit: 50 })),
    refetchInterval: poll * 2,
  });
}

export function useResolveOverruled() {
  const { client } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: string; action: 'keep' | 'accept' }) =>
      client.create<OverruledEntry>(apiPath`/v1/sync/overruled/${id}/${action}`, {}),
    // Keeping mine is a local change like any other: every screen may show it.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
