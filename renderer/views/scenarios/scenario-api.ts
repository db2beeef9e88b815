/**
 * The scenario routes as the screens use them (docs/API.md "Scenarios"). They always act on the
 * live plan, whatever scenario is open (renderer/api/scenario-transport.ts).
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  compareScenarioOperation,
  createScenarioOperation,
  deleteScenarioOperation,
  listScenariosOperation,
} from '../../../shared/operations/scenarios.js';
import { callOperation } from '../../api/commands.js';
import { useApi } from '../../api/provider.js';

export const scenariosKey = ['scenario'] as const;

export function useScenarios() {
  const { transport } = useApi();
  return useQuery({ queryKey: scenariosKey, queryFn: () => callOperation(transport, listScenariosOperation) });
}

export function useMakeScenario() {
  const { transport } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (name: string) => callOperation(transport, createScenarioOperation, { body: { name } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: scenariosKey }),
  });
}

export function useThrowScenarioAway() {
  const { transport } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => callOperation(transport, deleteScenarioOperation, { params: { id } }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: scenariosKey }),
  });
}

/** The comparison with the live plan as it is now; read again whenever the dialog opens. */
export function useScenarioComparison(id: string) {
  const { transport } = useApi();
  return useQuery({
    queryKey: [...scenariosKey, id, 'compare'],
    queryFn: () => callOperation(transport, compareScenarioOperation, { params: { id } }),
    staleTime: 0,
    gcTime: 0,
  });
}
