/**
 * The reads and writes of the Time screens and the top-bar timer. Query keys start with the
 * resource they show (`time_tracking`, `card`), so the change events of any write — here, in
 * another window, or arriving by sync — refresh them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ApiRequestError } from '../../api/client.js';
import { isApiErrorBody } from '../../api/request-error.js';
import { useApi } from '../../api/provider.js';
import type { Transport } from '../../api/transport.js';
import type { BridgeRequest, BridgeResponse } from '../../../shared/ipc.js';
import type { ListEnvelope } from '../../../shared/list.js';
import { textSearchFilter } from '../../../shared/filter.js';
import type { Card } from '../../../shared/resources/card.js';
import type { TimeTracking } from '../../../shared/resources/time-tracking.js';
import { plannerRoles, type User } from '../../../shared/resources/user.js';

export type CardSummary = Omit<Card, 'activities'> & {
  collection?: { id: string; name: string | null } | null;
  activities?: { id: string; description: string; time: number }[];
  time_tracking_total?: number;
};

export type EntryRow = TimeTracking & {
  card?: CardSummary | null;
  activity?: { id: string; description: string } | null;
  user?: Pick<User, 'id' | 'fullname' | 'email'> | null;
};

export type Me = { type: 'api-key'; environment: { id: string; name: string } } | { type: 'user'; environment: { id: string; name: string }; user: User | null };

/** One bridge call with its headers; a non-2xx answer throws like the API client does. */
export async function sendRequest(transport: Transport, request: BridgeRequest): Promise<BridgeResponse> {
  const response = await transport.request(request);
  if (response.status < 200 || response.status >= 300) {
    throw new ApiRequestError(response.status, isApiErrorBody(response.body) ? response.body : null);
  }
  return response;
}

export const timeKeys = {
  all: ['time_tracking'] as const,
  running: ['time_tracking', 'running'] as const,
  entries: (filter: string, extra: object = {}) => ['time_tracking', 'list', filter, extra] as const,
  cards: (ids: readonly string[]) => ['card', 'time-sheet', [...ids].sort()] as const,
  cardSearch: (text: string) => ['card', 'search', text] as const,
  me: ['me'] as const,
};

/** API-key callers and admin, manager and organiser users may approve and reject. */
export function isPlanner(me: Me | undefined): boolean {
  if (!me) return false;
  return me.type === 'api-key' || (plannerRoles as readonly string[]).includes(me.user?.role ?? '');
}

/**
 * Whose time the sheet and the timer show: the signed-in user's, or — on the desktop, where
 * the app calls its own API with a key — the entries tracked without a user.
 */
export function ownEntriesFilter(me: Me): string {
  return me.type === 'user' && me.user ? `user_id:eq:'${me.user.id}'` : 'user_id:eq:null';
}

export function useMe() {
  const { client } = useApi();
  return useQuery({ queryKey: timeKeys.me, queryFn: () => client.get<Me>('/v1', 'me'), staleTime: 60_000 });
}

export function useRunningTimer() {
  const { client } = useApi();
  return useQuery({
    queryKey: timeKeys.running,
    queryFn: async () => (await client.get<{ data: EntryRow | null }>('/v1/time_tracking', 'running', { with: 'card.collection' })).data,
    // A timer started on another device arrives by sync, with a change event; this is a backstop.
    refetchInterval: 60_000,
  });
}

function useInvalidateTime() {
  const queryClient = useQueryClient();
  return () => Promise.all([queryClient.invalidateQueries({ queryKey: timeKeys.all }), queryClient.invalidateQueries({ queryKey: ['card'] })]);
}

export function useStartTimer() {
  const { client } = useApi();
  const invalidate = useInvalidateTime();
  return useMutation({
    mutationFn: (input: { card_id: string; activity_id?: string }) => client.create<EntryRow>('/v1/time_tracking/start', input),
    onSuccess: invalidate,
  });
}

export function useStopTimer() {
  const { client } = useApi();
  const invalidate = useInvalidateTime();
  return useMutation({
    mutationFn: (id: string) => client.create<EntryRow>(`/v1/time_tracking/${encodeURIComponent(id)}/stop`, {}),
    onSuccess: invalidate,
  });
}

/** Cards whose name (or collection's name) contains the text; the first 20. */
export function useCardSearch(text: string) {
  const { client } = useApi();
  const filter = textSearchFilter(text, ['name', 'collection.name']);
  return useQuery({
    queryKey: timeKeys.cardSearch(filter ?? ''),
    queryFn: () =>
      client.list<CardSummary>('/v1/card', {
        ...(filter ? { filter } : {}),
        with: 'collection',
        sort: 'updated_at:desc',
        limit: 20,
      }),
  });
}

/** The cards of the week sheet, with their planned activities and tracked total. */
export function useSheetCards(ids: readonly string[]) {
  const { client } = useApi();
  return useQuery({
    queryKey: timeKeys.cards(ids),
    enabled: ids.length > 0,
    queryFn: async () => {
      const query = { filter: ids.map((id) => `id:eq:'${id}'`).join(',or,'), with: 'collection,activities', limit: 1000, include: 'time_tracking_total' };
      return client.list<CardSummary>('/v1/card', query);
    },
  });
}

export function useEntries(filter: string | null, extra: { with?: string; sort?: string; limit?: number; offset?: number } = {}) {
  const { client } = useApi();
  return useQuery({
    queryKey: timeKeys.entries(filter ?? '', extra),
    enabled: filter !== null,
    queryFn: () => client.list<EntryRow>('/v1/time_tracking', { filter: filter ?? '', limit: 1000, sort: 'start:asc', ...extra }),
  });
}

export type EntryList = ListEnvelope<EntryRow>;
