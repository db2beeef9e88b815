/**
 * A planboard card (renderer/views/planboard/plan-card.ts) as the renderer tests build them:
 * named after its id, in its own collection, status todo, and nothing more unless told.
 */
import type { PlanCard } from '../../renderer/views/planboard/plan-card.js';

export function planCard(id: string, stage: string, start: string, end: string, extra: Partial<PlanCard> = {}): PlanCard {
  return {
    id,
    collection_id: `col-${id}`,
    stage_id: stage,
    status_id: 'todo',
    name: `Card ${id}`,
    start_date: start,
    end_date: end,
    rank: 'n',
    time_tracking_running: false,
    time_tracking_last: null,
    labels: [],
    resources: [],
    collection: { name: `Order ${id}`, warnings: [] },
    ...extra,
  };
}
