/**
 * The sample workshop (docs/API.md "Sample workshop"): whether it is loaded, loading it and
 * removing it. Loading and removing touch every screen's data, so every query reads again.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { sendRequest } from '../../api/client.js';
import { useApi } from '../../api/provider.js';

export interface SampleWorkshopSummary {
  loaded: boolean;
  activities: number;
  boards: number;
  resources: number;
  orders: number;
  time_entries: number;
  board_id: string | null;
}

/** Under `board`: a change event of a board (the sample's, gone or back) reads it again. */
export const sampleWorkshopKey = ['board', 'sample_workshop'] as const;

export function useSampleWorkshop() {
  const { transport } = useApi();
  return useQuery({
    queryKey: sampleWorkshopKey,
    queryFn: async () => (await sendRequest(transport, { method: 'GET', path: '/v1/sample_workshop' })).body as SampleWorkshopSummary,
  });
}

function useSampleWorkshopCall(method: 'POST' | 'DELETE') {
  const { transport } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => (await sendRequest(transport, { method, path: '/v1/sample_workshop' })).body as SampleWorkshopSummary,
    onSuccess: () => queryClient.invalidateQueries(),
  });
}

export const useLoadSampleWorkshop = () => useSampleWorkshopCall('POST');
export const useRemoveSampleWorkshop = () => useSampleWorkshopCall('DELETE');
