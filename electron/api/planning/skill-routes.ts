/**
 * GET /v1/skills?card_ids=… (or ?board_id=…): each card's skills and crew, the people of its
 * stage qualified for it, and the assigned people who lack a skill (docs/API.md "Skills and
 * crews"). The card panel reads it by card; the board by board, for its warnings, getting only
 * the cards it warns on.
 */
import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../../shared/ids.js';
import { hasSkillWarning, maxSkillCards } from '../../../shared/skills.js';
import { single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { readRecord } from '../records.js';
import type { RequestContext } from '../resource.js';
import { boardModule } from '../resources/board.js';
import { tables, type Stored } from '../tables.js';
import { cardSkills } from './skill-read.js';

/** The cards asked for: `board_id`'s, or the `card_ids` listed (unknown ids left out). */
async function cardsOf(ctx: RequestContext, query: QueryString): Promise<{ cards: Stored<'card'>[]; onBoard: boolean }> {
  const boardId = single(query, 'board_id');
  if (boardId !== undefined && boardId !== '') {
    if (single(query, 'card_ids') !== undefined) throw ApiError.badRequest('name either board_id or card_ids, not both');
    if (!isUuid(boardId)) throw ApiError.badRequest(`board_id must be a uuid, got '${boardId}'`);
    // Answers the 404 for a board that is not there.
    await readRecord(ctx, boardModule, boardId.toLowerCase());
    return { cards: await ctx.records.getWhereIn(tables.card, 'board_id', [boardId.toLowerCase()]), onBoard: true };
  }
  const ids = (single(query, 'card_ids') ?? '').split(',').filter((id) => id !== '');
  if (ids.length === 0) throw ApiError.badRequest('card_ids must name at least one card, or give board_id');
  if (ids.length > maxSkillCards) throw ApiError.badRequest(`card_ids names at most ${maxSkillCards} cards`);
  const bad = ids.find((id) => !isUuid(id));
  if (bad !== undefined) throw ApiError.badRequest(`card_ids must be uuids, got '${bad}'`);
  const wanted = [...new Set(ids.map((id) => id.toLowerCase()))];
  const found = new Map((await ctx.records.getWhereIn(tables.card, 'id', wanted)).map((c) => [c.id, c]));
  return { cards: wanted.flatMap((id) => (found.has(id) ? [found.get(id)!] : [])), onBoard: false };
}

export function registerSkillRoutes(app: FastifyInstance): void {
  app.get<{ Querystring: QueryString }>(
    '/skills',
    {
      config: {
        doc: {
          summary: "Cards' skills and crews: who of the stage is qualified, and assigned people who lack a skill",
          tag: 'Card',
          query: {
            card_ids: `Comma-separated card ids (1 to ${maxSkillCards}); unknown ids are left out.`,
            board_id:
              'Instead: the cards of this board the board warns on (an assigned person lacks a skill, or a card that needs one has nobody).',
          },
        },
      },
    },
    async (request) => {
      const { cards, onBoard } = await cardsOf(request.ctx, request.query);
      const data = await cardSkills(request.ctx.records, cards);
      return { data: onBoard ? data.filter(hasSkillWarning) : data };
    },
  );
}
