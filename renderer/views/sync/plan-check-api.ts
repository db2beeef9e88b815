/**
 * The plan check after a sync (docs/API.md "Sync", "Plan check"): its open findings, and accept.
 * Keys start with `sync_status`, which every change event refreshes, so a pull that overloads
 * a day shows here without waiting for a poll.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ListQuery } from '../../api/client.js';
import { apiPath } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';
import type { PlanFinding, PlanFindingChange, PlanFindingMine } from '../../../shared/plan-check.js';

/** A finding as the list answers it: each change with its record's name (null when it is not on this computer), and this computer's part. */
export interface ShownPlanFinding extends Omit<PlanFinding, 'changes'> {
  changes: (PlanFindingChange & { record_name: string | null })[];
  mine: PlanFindingMine;
}

export const planCheckKeys = { all: ['sync_status', 'plan_check'] as const };

const poll = 2_000;
/** As many as one read gives; more open findings than this are a list to work through first. */
const pageSize = 100;

export function usePlanFindings() {
  const { client } = useApi();
  return useQuery({
    queryKey: planCheckKeys.all,
    // The list's query: a page size, which ListQuery allows as a number.
    queryFn: () => client.list<ShownPlanFinding>('/v1/sync/plan_check', { limit: pageSize } as ListQuery),
    refetchInterval: poll,
  });
}

export function useAcceptPlanFinding() {
  const { client } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => client.create<ShownPlanFinding>(apiPath`/v1/sync/plan_check/${id}/accept`, {}),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: planCheckKeys.all }),
  });
}

/**
 * The cards a plan-check finding is about, for their mark on the planboard: this computer's
 * cards in it and the cards the pull's changes that made it brought; empty when none can be
 * read (a team server keeps no plan check).
 */
export function usePlanFindingCardIds(): ReadonlySet<string> {
  const { client } = useApi();
  // The Sync screen's own query (one read for both), narrowed to the cards.
  const cards = useQuery({
    queryKey: planCheckKeys.all,
    // The list's query: a page size, which ListQuery allows as a number.
    queryFn: () => client.list<ShownPlanFinding>('/v1/sync/plan_check', { limit: pageSize } as ListQuery),
    refetchInterval: poll,
    retry: false,
    select: findingCardIds,
  });
  return cards.data ?? noCards;
}

/**
 * Declared once rather than inline: the query runs `select` again whenever it is another
 * function, and a new set at every render of the planboard re-rendered every card on it.
 */
function findingCardIds(page: { data: ShownPlanFinding[] }): ReadonlySet<string> {
  return new Set(
    page.data.flatMap((finding) => [
      ...finding.mine.card_ids,
      ...finding.changes.filter((change) => change.resource === 'card').map((change) => change.record_id),
    ]),
  );
}

const noCards: ReadonlySet<string> = new Set();
