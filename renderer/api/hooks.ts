/**
 * Generic React Query hooks, one set for every resource. Query keys start with the resource
 * name — `['project', 'list', query]`, `['project', id]` — so a change event naming a
 * resource can invalidate everything shown about it with one prefix.
 *
 * Mutations also invalidate on success instead of relying on the change event alone: the
 * planner's own edit must show even if the event stream is reconnecting.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ListQuery, RecordQuery } from './client.js';
import { useApi } from './provider.js';
import { resourcePath, type InputFor, type RecordFor, type ResourceName, type WriteBody } from './resources.js';

export const queryKeys = {
  resource: (resource: ResourceName) => [resource] as const,
  list: (resource: ResourceName, query: ListQuery) => [resource, 'list', query] as const,
  /** One record; a shaped read (`with`) gets its own key below the plain one. */
  record: (resource: ResourceName, id: string, query?: RecordQuery) =>
    query ? ([resource, id, query] as const) : ([resource, id] as const),
};

/**
 * Where the planboard's capacity reads live: under `card`, because planned minutes change
 * with every card change (views/planboard/planboard-cache.ts).
 */
export const capacityKey = ['card', 'capacity'] as const;

/**
 * Where the payroll summary's reads live: under `time_tracking`, as it adds up time entries;
 * a user's resource, the resource's schedule and its absences change it too (`shownUnder`).
 */
export const payrollKey = ['time_tracking', 'payroll'] as const;

/**
 * Where the exception inbox's reads live (views/exceptions/exceptions-api.ts): it is worked out
 * from nearly every record (cards, collections, capacity, time entries, the user's handling), so
 * every change event refreshes it, a sync's included.
 */
export const exceptionsKey = ['exception', 'inbox'] as const;

/**
 * Where what collections wait for lives (views/planboard/material.ts, docs/API.md "Material"): it
 * is worked out from orders, their rows and supply links, collections and cards, so every change
 * event refreshes it, as the inbox.
 */
export const materialKey = ['order', 'material'] as const;
/** Who is qualified for cards (GET /v1/skills): worked out from cards, activities and resources, so any change may move it. */
export const skillsKey = ['card', 'skills'] as const;

/**
 * Where a board's KPIs live (views/kpi/kpi-api.ts, docs/API.md "KPIs"): the open week follows
 * cards, collections, orders, capacity and time entries, so every change event refreshes it, as
 * the inbox (closed weeks answer their snapshots whatever changed).
 */
export const kpiKey = ['kpi', 'board'] as const;

/**
 * Records whose change events name another resource than the queries showing them:
 *  - parts written inline with their owner (a board's stages, labels, statuses, custom fields
 *    and checklist templates; the activities allowed in a stage) show in shaped reads of the
 *    owner (`board?with=stages`);
 *  - a card's label, resource and activity links, and its time entries (its timer mark and
 *    total), show in reads of the card; a checklist's items in reads of the checklist; an
 *    order's rows in the card panel's read of its order (made and scrapped);
 *  - resources, their schedules, company holidays and a board's stages change the capacity
 *    beside the grid;
 *  - users, resources, absences and company holidays change the payroll summary's expected hours.
 */
const shownUnder: Readonly<Record<string, readonly (readonly string[])[]>> = {
  stage: [['board'], capacityKey],
  label: [['board']],
  status: [['board']],
  stage_activity: [['board']],
  board_custom_field: [['board']],
  board_checklist: [['board']],
  board: [capacityKey],
  card_label: [['card']],
  card_resource: [['card']],
  card_activity: [['card']],
  time_tracking: [['card']],
  checklist_item: [['checklist']],
  // The floor's quantities (order rows) show in the card panel's read of the card's order.
  order_row: [['order', 'card-panel']],
  // A company holiday, who is in a group, or a new resource changes who has which days off
  // (the deviations, schedules and holidays list, under `schedule_deviation`), the capacity and
  // the payroll summary's expected hours.
  resource: [['schedule_deviation'], capacityKey, payrollKey],
  schedule_deviation: [capacityKey, payrollKey],
  company_holiday: [['schedule_deviation'], capacityKey, payrollKey],
  group_resource: [['schedule_deviation'], capacityKey, payrollKey],
  user: [payrollKey],
  // A payout or a balance brought over changes the payroll summary's overtime balance.
  overtime_correction: [payrollKey],
};

/** One page of a list. `T` names the shape a `with` query returns (boards with their stages). */
export function useList<R extends ResourceName, T = RecordFor<R>>(resource: R, query: ListQuery = {}) {
  const { client } = useApi();
  return useQuery({
    queryKey: queryKeys.list(resource, query),
    queryFn: () => client.list<T>(resourcePath(resource), query),
  });
}

/** One record. `T` names the shape a `with` query returns (a board with its stages). */
export function useRecord<R extends ResourceName, T = RecordFor<R>>(resource: R, id: string, query?: RecordQuery) {
  const { client } = useApi();
  return useQuery({
    queryKey: queryKeys.record(resource, id, query),
    queryFn: () => client.get<T>(resourcePath(resource), id, query),
  });
}

export function useCreate<R extends ResourceName>(resource: R) {
  const { client } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: InputFor<R>) => client.create<RecordFor<R>>(resourcePath(resource), input),
    // Returning the promise keeps the mutation pending until the lists have the new record,
    // so a form never clears before its result is on screen.
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.resource(resource) }),
  });
}

export interface UpdateVariables<R extends ResourceName> {
  id: string;
  changes: InputFor<R>;
}

export function useUpdate<R extends ResourceName>(resource: R) {
  const { client } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, changes }: UpdateVariables<R>) => client.update<RecordFor<R>>(resourcePath(resource), id, changes),
    onSuccess: (record, { id }) => {
      queryClient.setQueryData(queryKeys.record(resource, id), record);
      return queryClient.invalidateQueries({ queryKey: queryKeys.resource(resource) });
    },
  });
}

export interface SaveVariables<R extends ResourceName> {
  /** Null creates a record; an id updates that one. */
  id: string | null;
  body: WriteBody<R>;
}

/** Create or update through one mutation, for forms that do both. */
export function useSave<R extends ResourceName>(resource: R) {
  const { client } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, body }: SaveVariables<R>) =>
      id === null
        ? client.create<RecordFor<R>>(resourcePath(resource), body)
        : client.update<RecordFor<R>>(resourcePath(resource), id, body),
    onSuccess: (record, { id }) => {
      if (id !== null) queryClient.setQueryData(queryKeys.record(resource, id), record);
      return queryClient.invalidateQueries({ queryKey: queryKeys.resource(resource) });
    },
  });
}

export function useRemove<R extends ResourceName>(resource: R) {
  const { client } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.remove(resourcePath(resource), id),
    onSuccess: (_nothing, id) => {
      // Not exact: shaped reads of the record (`[resource, id, {with}]`) go too.
      queryClient.removeQueries({ queryKey: queryKeys.record(resource, id) });
    },
    // Also after a failure: a 404 means the record is already gone elsewhere, and the list
    // should stop offering it.
    onSettled: () => queryClient.invalidateQueries({ queryKey: queryKeys.resource(resource) }),
  });
}

/**
 * Keeps every screen current with changes made anywhere — another window, the sync client,
 * an integration over HTTP. Mount once, at the app root: every query key starts with the
 * resource it shows, and `shownUnder` names the rest.
 */
export function useChangeEvents(): void {
  const { transport } = useApi();
  const queryClient = useQueryClient();
  useEffect(() => {
    // A read under way may have been answered before the change. React Query would let an
    // invalidation join a first read (one without data yet) instead of reading again, and the
    // screen would keep the answer from before: the read is cancelled, then made again.
    const refresh = async (queryKey?: readonly string[]) => {
      await queryClient.cancelQueries({ queryKey, fetchStatus: 'fetching' });
      await queryClient.invalidateQueries({ queryKey });
    };
    return transport.onChange((events) => {
      if (events === 'missed') {
        void refresh();
        return;
      }
      const keys = new Map<string, readonly string[]>();
      for (const event of events) {
        for (const key of [[event.resource], ...(shownUnder[event.resource] ?? [])]) keys.set(key.join('/'), key);
      }
      if (events.length > 0) keys.set(exceptionsKey.join('/'), exceptionsKey);
      if (events.length > 0) keys.set(materialKey.join('/'), materialKey);
      if (events.length > 0) keys.set(kpiKey.join('/'), kpiKey);
      if (events.length > 0) keys.set(skillsKey.join('/'), skillsKey);
      for (const key of keys.values()) void refresh(key);
    });
  }, [transport, queryClient]);
}
