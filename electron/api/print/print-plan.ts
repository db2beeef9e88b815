/**
 * What the printed plan shows (docs/API.md "Printing the plan"): a board's stages in their
 * order, or the one stage asked for, and every card of those stages that touches the period,
 * each under its display name (shared/card-display-name.ts) as the rest of the app names it.
 */
import type { StoredRecord } from '../../store/environment-store.js';
import type { RequestContext } from '../resource.js';
import { tables } from '../tables.js';
import { cardNames } from '../time-tracking/report-names.js';
import type { PlanPrint } from './plan-pdf.js';

export interface PrintRequest {
  start: string;
  end: string;
  stageId?: string;
}

export async function planToPrint(ctx: RequestContext, board: StoredRecord, request: PrintRequest, made: Date): Promise<PlanPrint> {
  const stages = (await ctx.records.getWhereIn(tables.stage, 'board_id', [board.id]))
    .filter((stage) => !request.stageId || stage.id === request.stageId)
    .sort((a, b) => a.priority - b.priority || a.id.localeCompare(b.id));
  const stageIds = new Set(stages.map((stage) => stage.id));
  const cards = (await ctx.records.getWhereIn(tables.card, 'board_id', [board.id])).filter(
    (card): card is typeof card & { start_date: string; end_date: string } =>
      stageIds.has(card.stage_id) &&
      typeof card.start_date === 'string' &&
      typeof card.end_date === 'string' &&
      card.start_date <= request.end &&
      card.end_date >= request.start,
  );
  const names = await cardNames(ctx, cards);
  const boardName = String(board.name ?? '');
  return {
    board: boardName,
    scope: request.stageId ? String(stages[0]?.name ?? '') : 'whole board',
    start: request.start,
    end: request.end,
    stages: stages.map((stage) => ({ id: stage.id, name: String(stage.name ?? '') })),
    cards: cards.map((card) => ({
      id: card.id,
      name: names.get(card.id) ?? '',
      stage_id: card.stage_id,
      start_date: card.start_date,
      end_date: card.end_date,
    })),
    made,
  };
}
