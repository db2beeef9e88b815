/**
 * GET /v1/kpi: a board's KPIs per ISO week or calendar month, closed periods from their
 * snapshots (docs/API.md "KPIs"), with `board_id`, `from`, `to` and `time_frame`.
 */
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isValidDate } from '../../../shared/fields.js';
import { isUuid } from '../../../shared/ids.js';
import { single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../resource.js';
import { tables } from '../tables.js';
import { boardKpis, kpiTimeFrames, type KpiQuery, type KpiTimeFrame } from './kpi.js';
import { kpiXlsxContentType, writeKpiXlsx } from './kpi-xlsx.js';

/** The longest range one read covers: two years (from's day two years on, inclusive). */
export const maxKpiYears = 2;

/** The first day no answer reaches. */
const lastYear = '9999-01-01';

const isTimeFrame = (value: string): value is KpiTimeFrame => kpiTimeFrames.some((frame) => frame === value);

async function kpiQuery(ctx: RequestContext, query: QueryString): Promise<KpiQuery> {
  const boardId = single(query, 'board_id') || undefined;
  if (boardId === undefined) throw ApiError.badRequest('board_id is required: the board whose KPIs to answer');
  if (!isUuid(boardId)) throw ApiError.badRequest(`board_id must be a uuid, got '${boardId}'`);
  const frame = single(query, 'time_frame') || 'week';
  if (!isTimeFrame(frame)) throw ApiError.badRequest(`time_frame must be one of ${kpiTimeFrames.join(', ')}, got '${frame}'`);
  const from = single(query, 'from') || undefined;
  const to = single(query, 'to') || undefined;
  if (from === undefined || !isValidDate(from)) throw ApiError.badRequest(`from must be a date (YYYY-MM-DD), got '${from ?? ''}'`);
  if (to === undefined || !isValidDate(to)) throw ApiError.badRequest(`to must be a date (YYYY-MM-DD), got '${to ?? ''}'`);
  // The period holding a day of 9999 may end in year 10000, which no date of the API writes.
  if (to >= lastYear) throw ApiError.badRequest(`to must be before ${lastYear}, got '${to}'`);
  if (to < from) throw ApiError.badRequest(`to (${to}) may not be before from (${from})`);
  // Compared as text, so that 29 February two years on (no such day) still sorts in its place.
  const limit = `${String(Number(from.slice(0, 4)) + maxKpiYears).padStart(4, '0')}${from.slice(4)}`;
  if (to > limit) throw ApiError.badRequest(`from and to may be at most ${maxKpiYears} years apart (to at most ${limit})`);
  // A board of this environment that is not deleted; a guest reads every board a member reads.
  const board = await ctx.records.get(tables.board, boardId.toLowerCase());
  if (!board) throw ApiError.notFound('No Board with that id.');
  return { board, from, to, frame };
}

export function registerKpiRoutes(app: FastifyInstance): void {
  app.get<{ Querystring: QueryString }>(
    '/kpi',
    {
      config: {
        doc: {
          summary: "A board's KPIs per week or month: on-time delivery, promise reliability, utilisation, work in progress, backlog",
          tag: 'KPIs',
          query: {
            board_id: 'The board (required).',
            from: 'The first day (YYYY-MM-DD, required): the answer starts with the period holding it.',
            to: `The last day (YYYY-MM-DD, required, at most ${maxKpiYears} years after from): the answer ends with the period holding it.`,
            time_frame: 'week (ISO weeks from Monday, the default) or month.',
            format: 'json (the default) or xlsx: the same figures as an Excel workbook (sheets Board, Stages, Resources).',
          },
        },
      },
    },
    async (request, reply) => {
      const format = single(request.query, 'format') || 'json';
      // Checked before the figures are worked out, so that a bad format keeps no snapshot.
      if (format !== 'json' && format !== 'xlsx') throw ApiError.badRequest(`format must be json or xlsx, got '${format}'`);
      const query = await kpiQuery(request.ctx, request.query);
      const answer = await boardKpis(request.ctx, query);
      if (format === 'json') return answer;
      return sendXlsx(reply, query, answer.data);
    },
  );
}

/** The workbook as a download named after the board's range: `kpi-<from>-<to>.xlsx`. */
async function sendXlsx(reply: FastifyReply, query: KpiQuery, periods: Awaited<ReturnType<typeof boardKpis>>['data']) {
  const body = await writeKpiXlsx({ boardName: query.board.name, frame: query.frame, from: query.from, to: query.to, periods });
  return reply
    .type(kpiXlsxContentType)
    .header('content-disposition', `attachment; filename="kpi-${query.from}-${query.to}.xlsx"`)
    .send(body);
}
