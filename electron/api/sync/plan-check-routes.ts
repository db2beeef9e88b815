/**
 * What the plan check found after a pull (docs/API.md "Sync", "Plan check"): a stage-day or
 * person-day over capacity, a person on two cards at once, stages out of order, a collection
 * past its due or promised date, that the merge made and the local plan did not have before.
 * Like the rest of the local sync control, an admin's to manage; a team server keeps none.
 *
 *   GET  /v1/sync/plan_check               open findings (all=true: accepted ones too)
 *   POST /v1/sync/plan_check/{id}/accept   accept it as it is: the finding is closed, nothing changes
 */
import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../../shared/ids.js';
import type { PlanFinding, PlanFindingMine } from '../../../shared/plan-check.js';
import { tables } from '../tables.js';
import { booleanParam, integerParam, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { requireAdmin } from '../permissions.js';
import { moduleNamedOrNone } from '../registry.js';
import { localBooks, type RequestContext } from '../resource.js';
import { readableName, wholeRecord } from './record-names.js';

function manage(ctx: RequestContext): void {
  requireAdmin(ctx.caller, "Only an admin of the environment manages this instance's sync.");
}

/** The finding with each change's record by the name a planner knows it by (null when it is not on this computer), and this computer's part in it. */
async function shown(ctx: RequestContext, finding: PlanFinding) {
  const changes = [];
  for (const change of finding.changes) {
    const module = moduleNamedOrNone(change.resource);
    const record = module ? await wholeRecord(ctx.records, module, change.record_id) : undefined;
    changes.push({ ...change, record_name: await readableName(ctx.records, change.resource, record) });
  }
  return { ...finding, changes, mine: await mineIn(ctx, finding) };
}

/** The cards a finding is made of, as the plan is now: those on its stage-day or person-day, the person's two cards, the collection's. */
async function cardsOf(ctx: RequestContext, finding: PlanFinding): Promise<{ id: string; collection_id: string }[]> {
  const { record, date } = finding;
  if (finding.kind === 'over_capacity' && date) {
    const loads = await ctx.records.cardLoads(finding.board_id, date, date, true);
    const on = loads.filter((load) =>
      record.resource === 'stage' ? load.stage_id === record.id : (load.resources?.split(',') ?? []).includes(record.id),
    );
    const cards = await ctx.records.getWhereIn(tables.card, 'id', [...new Set(on.map((load) => load.card_id))]);
    return cards.map((card) => ({ id: card.id, collection_id: card.collection_id }));
  }
  if (finding.kind === 'double_booking') {
    const ids = [finding.details.card_id, finding.details.other_card_id].filter((id): id is string => typeof id === 'string');
    return (await ctx.records.getWhereIn(tables.card, 'id', ids)).map((card) => ({ id: card.id, collection_id: card.collection_id }));
  }
  return (await ctx.records.getWhereIn(tables.card, 'collection_id', [record.id])).map((card) => ({
    id: card.id,
    collection_id: card.collection_id,
  }));
}

/**
 * This computer's part in a finding (docs/API.md "Plan check"): its cards in it (those a command
 * made here wrote; pulled changes are written by none) and the newest such command, for the
 * planner's ways out: move mine later (plan their collections again against free capacity) or
 * revert my change (undo that command).
 */
async function mineIn(ctx: RequestContext, finding: PlanFinding): Promise<PlanFindingMine> {
  const books = localBooks(ctx.records);
  const cards = [];
  for (const card of await cardsOf(ctx, finding)) if (await books.newestCommandOn('card', [card.id])) cards.push(card);
  const command = await books.newestCommandOn(
    'card',
    cards.map((card) => card.id),
  );
  return {
    card_ids: cards.map((card) => card.id),
    collection_ids: [...new Set(cards.map((card) => card.collection_id))],
    command: command ? { id: command.id, description: command.description } : null,
  };
}

export function registerPlanCheckRoutes(app: FastifyInstance): void {
  const doc = (summary: string, extra: Record<string, unknown> = {}) => ({ doc: { summary, tag: 'Sync', ...extra } });

  app.get<{ Querystring: QueryString }>(
    '/sync/plan_check',
    {
      config: doc('What the merge of pulled changes made of the plan that it did not have before (open findings unless all=true)', {
        query: { all: 'true: accepted ones too.', limit: '0-1000 (default 100).', offset: 'Findings to skip.' },
      }),
    },
    async (request) => {
      manage(request.ctx);
      const all = booleanParam(request.query, 'all');
      const limit = integerParam(request.query, 'limit', 100, 1000);
      const offset = integerParam(request.query, 'offset', 0, Number.MAX_SAFE_INTEGER);
      const { count, data } = await localBooks(request.ctx.records).planFindings({ all, limit, offset });
      const shownData = [];
      for (const finding of data) shownData.push(await shown(request.ctx, finding));
      return { count, limit, offset, data: shownData };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/sync/plan_check/:id/accept',
    // No record changes, so no command: there is nothing to undo.
    { config: { ...doc('Accept the finding as the plan is: it is closed, nothing changes') } },
    async (request) => {
      manage(request.ctx);
      const id = await request.ctx.records.transaction(async (tx) => {
        const finding = isUuid(request.params.id) ? await localBooks(tx).planFinding(request.params.id.toLowerCase()) : undefined;
        if (!finding) throw ApiError.notFound('No plan check finding with that id.');
        if (finding.status !== 'open') throw ApiError.conflict('This plan check finding was already accepted.');
        await localBooks(tx).acceptPlanFinding(finding.id);
        return finding.id;
      });
      const finding = await localBooks(request.ctx.records).planFinding(id);
      if (!finding) throw ApiError.notFound('No plan check finding with that id.');
      return shown(request.ctx, finding);
    },
  );
}
