/**
 * Writing time entries from the sheet and the entries list. A card's tracked total is
 * computed from its entries, so after a write the cards are read again too.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useApi } from '../../api/provider.js';
import type { TimeTrackingInput } from '../../../shared/resources/time-tracking.js';
import { timeKeys, type EntryRow } from './time-api.js';

const path = '/v1/time_tracking';

export type EntryWrite =
  | { kind: 'create'; input: TimeTrackingInput }
  | { kind: 'update'; id: string; changes: Partial<TimeTrackingInput> }
  | { kind: 'delete'; id: string };

export function useEntryWrite() {
  const { client } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (write: EntryWrite): Promise<EntryRow | null> => {
      if (write.kind === 'create') return client.create<EntryRow>(path, write.input);
      if (write.kind === 'update') return client.update<EntryRow>(path, write.id, write.changes);
      await client.remove(path, write.id);
      return null;
    },
    // Also after a failure: a 404 or a lock may mean the sheet shows something out of date.
    onSettled: () =>
      Promise.all([queryClient.invalidateQueries({ queryKey: timeKeys.all }), queryClient.invalidateQueries({ queryKey: ['card'] })]),
  });
}
