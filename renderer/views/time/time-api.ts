/**
 * The reads and writes of the Time screens and the top-bar timer. Query keys start with the
 * resource they show (`time_tracking`, `card`), so the change events of any write — here, in
 * another window, or arriving by sync — refresh them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiPath } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';
import type { ListEnvelope } from '../../../shared/list.js';
import { cardSearchFilter } from './card-search.js';
import type { Card } from '../../../shared/resources/card.js';
import type { TimeTracking } from '../../../shared/resources/time-tracking.js';
import type { ClosedPeriod } from '../../../shared/resources/closed-period.js';
import type { User } from '../../../shared/resources/user.js';

/** A card as the time screens read it: with what its name is made of (components/card-name.ts). */
export type CardSummary = Omit<Card, 'activities'> & {
  collection?: { id: string; name: string | null } | null;
  stage?: { id: string; name: string; activities?: ActivitySummary[] } | null;
  activities?: (ActivitySummary & { time: number })[];
  time_tracking_total?: number;
};

export interface ActivitySummary {
  id: string;
  description: string;
  code?: string | null;
}

export type EntryRow = TimeTracking & {
  card?: CardSummary | null;
  activity?: ActivitySummary | null;
  user?: Pick<User, 'id' | 'fullname' | 'email'> | null;
};

/** What an entry is read with to show it: its card's name parts, its activity and its user. */
export const entryShape = 'card.collection,card.stage,activity,user';

export const timeKeys = {
  all: ['time_tracking'] as const,
  running: ['time_tracking', 'running'] as const,
  entries: (filter: string, extra: object = {}) => ['time_tracking', 'list', filter, extra] as const,
  cards: (ids: readonly string[]) => ['card', 'time-sheet', [...ids].sort()] as const,
  cardSearch: (text: string) => ['card', 'search', text] as const,
};

/** Whose week the sheet shows: their time zone, and the resource whose schedule they work to. */
export type SheetPerson = Pick<User, 'id' | 'fullname' | 'email' | 'timezone' | 'resource_id'> & {
  resource?: { id: string; name: string; updated_at: string } | null;
};

export function useSheetPerson(userId: string | null) {
  const { client } = useApi();
  return useQuery({
    queryKey: ['user', 'sheet-person', userId],
    enabled: userId !== null,
    queryFn: () => client.get<SheetPerson>('/v1/user', userId!, { with: 'resource' }),
  });
}

/** The app's user's running timer (the API's default: the caller's user). */
export function useRunningTimer() {
  const { client } = useApi();
  return useQuery({
    queryKey: timeKeys.running,
    queryFn: async () =>
      (await client.get<{ data: EntryRow | null }>('/v1/time_tracking', 'running', { with: 'card.collection,card.stage,activity' })).data,
    // A timer started on another device arrives by sync, with a change event; this is a backstop.
    refetchInterval: 60_000,
  });
}

function useInvalidateTime() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: timeKeys.all }), queryClient.invalidateQueries({ queryKey: ['card'] })]);
}

export function useStartTimer() {
  const { client } = useApi();
  const invalidate = useInvalidateTime();
  return useMutation({
    mutationFn: (input: { card_id: string | null; activity_id?: string | null; user_id?: string }) =>
      client.create<EntryRow>('/v1/time_tracking/start', input),
    onSuccess: invalidate,
  });
}

export function useStopTimer() {
  const { client } = useApi();
  const invalidate = useInvalidateTime();
  return useMutation({
    mutationFn: ({ id, end }: { id: string; end?: string }) =>
      client.create<EntryRow>(apiPath`/v1/time_tracking/${id}/stop`, end ? { end } : {}),
    onSuccess: invalidate,
  });
}

/** What a card is read with to name it and to pick its activity (the card's own, else its stage's). */
export const cardPickShape = 'collection,stage.activities,activities';

/**
 * Cards matching what the planner typed (card-search.ts: collection, stage, activity, a date),
 * the most recently changed first; the first 20.
 */
export function useCardSearch(text: string, today: string) {
  const { client } = useApi();
  const filter = cardSearchFilter(text, today);
  return useQuery({
    queryKey: timeKeys.cardSearch(filter ?? ''),
    queryFn: () =>
      client.list<CardSummary>('/v1/card', {
        ...(filter ? { filter } : {}),
        with: cardPickShape,
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
      const query = {
        filter: ids.map((id) => `id:eq:'${id}'`).join(',or,'),
        with: cardPickShape,
        limit: 1000,
        include: 'time_tracking_total',
      };
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

/**
 * The closed payroll periods (docs/API.md "Closed periods"), newest first. The key starts with
 * the resource's name, so a period closed or reopened anywhere refreshes it.
 */
export function useClosedPeriods() {
  const { client } = useApi();
  return useQuery({
    queryKey: ['closed_period', 'list'] as const,
    queryFn: () => client.list<ClosedPeriod>('/v1/time_tracking/period', { limit: 1000, sort: 'start:desc' }),
  });
}
