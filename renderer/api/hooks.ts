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
 * Records written inline with their owner (a board's stages, labels, statuses and the
 * activities allowed in a stage). A change to one changes what a shaped read of the owner
 * (`board?with=stages`) shows, so its change event refreshes the owner's queries too.
 */
const ownerOfPart: Readonly<Record<string, ResourceName>> = {
  stage: 'board',
  label: 'board',
  status: 'board',
  stage_activity: 'board',
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
    mutationFn: ({ id, changes }: UpdateVariables<R>) =>
      client.update<RecordFor<R>>(resourcePath(resource), id, changes),
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
 * an integration over HTTP. Mount once, at the app root.
 */
export function useChangeEvents(): void {
  const { transport } = useApi();
  const queryClient = useQueryClient();
  useEffect(
    () =>
      transport.onChange((events) => {
        const resources = new Set<string>();
        for (const event of events) {
          resources.add(event.resource);
          const owner = ownerOfPart[event.resource];
          if (owner) resources.add(owner);
        }
        for (const resource of resources) {
          void queryClient.invalidateQueries({ queryKey: [resource] });
        }
      }),
    [transport, queryClient],
  );
}
