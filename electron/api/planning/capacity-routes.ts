/**
 * GET /v1/board/{id}/capacity/stage | resource | resource_type/stage | group
 * with date_range_start, date_range_end (YYYY-MM-DD; default the current ISO week),
 * time_frame (day, week, month, quarter, year; default day) and stage_id.
 * GET /v1/board/{id}/stage_workdays with the same range: the days each stage works that the
 * board does not (docs/API.md "A stage's workdays"), for the planboard to show them.
 */
import type { FastifyInstance } from 'fastify';
import { addDays, bucketStart, daysBetween, timeFrames, today, type TimeFrame } from '../../../shared/dates.js';
import { isValidDate } from '../../../shared/fields.js';
import { isUuid } from '../../../shared/ids.js';
import { single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { readRecord } from '../records.js';
import { boardModule } from '../resources/board.js';
import type { Stored } from '../tables.js';
import { boardCapacity, type CapacityQuery, type CapacityView } from './capacity.js';
import { addedDays, readStageWeeks } from './stage-workdays.js';
import { tables } from '../tables.js';

const maxDays = 3660;

const isTimeFrame = (value: string): value is TimeFrame => timeFrames.some((frame) => frame === value);

function capacityQuery(query: QueryString): CapacityQuery {
  const frame = single(query, 'time_frame') || 'day';
  if (!isTimeFrame(frame)) throw ApiError.badRequest(`time_frame must be one of ${timeFrames.join(', ')}`);
  const thisWeek = bucketStart(today(), 'week');
  const start = single(query, 'date_range_start') || thisWeek;
  if (!isValidDate(start)) throw ApiError.badRequest(`date_range_start must be a date (YYYY-MM-DD), got '${start}'`);
  const end = single(query, 'date_range_end') || addDays(start, 6);
  if (!isValidDate(end)) throw ApiError.badRequest(`date_range_end must be a date (YYYY-MM-DD), got '${end}'`);
  if (end < start) throw ApiError.badRequest('date_range_end may not be before date_range_start');
  if (daysBetween(start, end) >= maxDays) throw ApiError.badRequest(`a capacity range covers at most ${maxDays} days`);
  const stageId = single(query, 'stage_id');
  if (stageId !== undefined && stageId !== '' && !isUuid(stageId)) throw ApiError.badRequest('stage_id must be a uuid');
  return { start, end, frame, ...(stageId ? { stageId: stageId.toLowerCase() } : {}) };
}

const views: Record<string, CapacityView> = {
  stage: 'stage',
  resource: 'resource',
  'resource_type/stage': 'resource_type/stage',
  group: 'group',
};

export function registerCapacityRoutes(app: FastifyInstance): void {
  for (const [segment, view] of Object.entries(views)) {
    app.get<{ Params: { id: string }; Querystring: QueryString }>(
      `/board/:id/capacity/${segment}`,
      {
        config: {
          doc: {
            summary: `Available and planned minutes of the board per ${view.replace('/', ' within ')}`,
            tag: 'Capacity',
            query: {
              date_range_start: 'First day, YYYY-MM-DD (default: Monday of this week).',
              date_range_end: 'Last day, YYYY-MM-DD (default: six days after the start).',
              time_frame: 'day, week, month, quarter or year (default day).',
              stage_id: 'Only this stage.',
            },
          },
        },
      },
      async (request) => {
        // readRecord answers the 404; the record it finds is of boardModule's table, tables.board.
        const board = (await readRecord(request.ctx, boardModule, request.params.id)) as Stored<'board'>;
        return boardCapacity(request.ctx, board, view, capacityQuery(request.query));
      },
    );
  }
  app.get<{ Params: { id: string }; Querystring: QueryString }>(
    '/board/:id/stage_workdays',
    {
      config: {
        doc: {
          summary: "The days each stage of the board works that the board does not (a stage's resources add them)",
          tag: 'Capacity',
          query: {
            date_range_start: 'First day, YYYY-MM-DD (default: Monday of this week).',
            date_range_end: 'Last day, YYYY-MM-DD (default: six days after the start).',
          },
        },
      },
    },
    async (request) => {
      // As above: the record readRecord finds is of tables.board.
      const board = (await readRecord(request.ctx, boardModule, request.params.id)) as Stored<'board'>;
      const { start, end } = capacityQuery(request.query);
      const stages = (await request.ctx.records.getWhereIn(tables.stage, 'board_id', [board.id])).sort((a, b) => a.priority - b.priority);
      const weeks = await readStageWeeks(request.ctx.records, board);
      const data = stages.map((s) => ({ stage_id: s.id, dates: addedDays(weeks, s.id, start, end) })).filter((s) => s.dates.length > 0);
      return { date_range_start: start, date_range_end: end, data };
    },
  );
}
