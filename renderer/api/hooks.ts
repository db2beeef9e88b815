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
import type { ListQuery } from './client.js';
import { useApi } from './provider.js';
import { resourcePath, type InputFor, type RecordFor, type ResourceName } from './resources.js';

export const queryKeys = {
  resource: (resource: ResourceName) => [resource] as const,
  list: (resource: ResourceName, query: ListQuery) => [resource, 'list', query] as const,
  record: (resource: ResourceName, id: string) => [resource, id] as const,
};

export function useList<R extends ResourceName>(resource: R, query: ListQuery = {}) {
  const { client } = useApi();
  return useQuery({
    queryKey: queryKeys.list(resource, query),
    queryFn: () => client.list<RecordFor<R>>(resourcePath(resource), query),
  });
}

export function useRecord<R extends ResourceName>(resource: R, id: string) {
  const { client } = useApi();
  return useQuery({
    queryKey: queryKeys.record(resource, id),
    queryFn: () => client.get<RecordFor<R>>(resourcePath(resource), id),
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

export function useRemove<R extends ResourceName>(resource: R) {
  const { client } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.remove(resourcePath(resource), id),
    onSuccess: (_nothing, id) => {
      queryClient.removeQueries({ queryKey: queryKeys.record(resource, id), exact: true });
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
        const resources = new Set(events.map((event) => event.resource));
        for (const resource of resources) {
          void queryClient.invalidateQueries({ queryKey: [resource] });
        }
      }),
    [transport, queryClient],
  );
}
