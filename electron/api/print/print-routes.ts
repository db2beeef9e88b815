/**
 * GET /v1/board/{id}/print?start=…&end=…&stage_id=… : the plan of a board (or one of its
 * stages) over a period as a PDF for the workshop wall (docs/API.md "Printing the plan").
 * start and end are dates (YYYY-MM-DD), end on or after start, at most `maxPrintDays` days;
 * stage_id, when given, names a stage of this board. Any problem is one 422 naming the field.
 */
import type { FastifyInstance } from 'fastify';
import type { FieldProblem } from '../../../shared/errors.js';
import { daysBetween } from '../../../shared/dates.js';
import { isValidDate } from '../../../shared/fields.js';
import { isUuid } from '../../../shared/ids.js';
import { single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { readRecord } from '../records.js';
import type { RequestContext } from '../resource.js';
import { boardModule } from '../resources/board.js';
import { tables } from '../tables.js';
import { planPreview, writePlanPdf } from './plan-pdf.js';
import { planToPrint, type PrintRequest } from './print-plan.js';
import { nowDate } from '../../../shared/clock.js';

/** About two months: a wall plan of more is unreadable, and it bounds the work of one request. */
export const maxPrintDays = 62;

async function readPrintRequest(
  ctx: RequestContext,
  boardId: string,
  query: QueryString,
): Promise<PrintRequest & { format: 'pdf' | 'json' }> {
  const problems: FieldProblem[] = [];
  const start = single(query, 'start') ?? '';
  const end = single(query, 'end') ?? '';
  for (const [field, value] of [
    ['start', start],
    ['end', end],
  ] as const) {
    if (!isValidDate(value)) problems.push({ field, description: `${field} must be a date (YYYY-MM-DD)` });
  }
  if (problems.length === 0 && end < start) problems.push({ field: 'end', description: 'end may not be before start' });
  if (problems.length === 0 && daysBetween(start, end) >= maxPrintDays)
    problems.push({ field: 'end', description: `a printed plan covers at most ${maxPrintDays} days` });
  const stageId = single(query, 'stage_id');
  let stage: string | undefined;
  if (stageId !== undefined && stageId !== '') {
    const found = isUuid(stageId) ? await ctx.records.get(tables.stage, stageId.toLowerCase()) : undefined;
    if (!found || found.board_id !== boardId) problems.push({ field: 'stage_id', description: 'stage_id names no stage of this board' });
    else stage = found.id;
  }
  const format = single(query, 'format') || 'pdf';
  if (format !== 'pdf' && format !== 'json') problems.push({ field: 'format', description: 'format must be pdf or json' });
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  // format was checked above: any other value has thrown its 422.
  return { start, end, format: format as 'pdf' | 'json', ...(stage ? { stageId: stage } : {}) };
}

export function registerPrintRoutes(app: FastifyInstance): void {
  app.get<{ Params: { id: string }; Querystring: QueryString }>(
    '/board/:id/print',
    {
      config: {
        doc: {
          summary: 'The plan of the board over a period as a PDF to print (A4 landscape: stages as rows, days as columns)',
          tag: 'Planning',
          query: {
            start: 'First day, YYYY-MM-DD.',
            end: `Last day, YYYY-MM-DD; at most ${maxPrintDays} days after start.`,
            stage_id: 'Only this stage of the board (default: every stage).',
            format: 'pdf (default), or json: the same pages as positions in points, for a preview.',
          },
        },
      },
    },
    async (request, reply) => {
      const board = await readRecord(request.ctx, boardModule, request.params.id);
      const printRequest = await readPrintRequest(request.ctx, board.id, request.query);
      const plan = await planToPrint(request.ctx, board, printRequest, nowDate());
      if (printRequest.format === 'json') return planPreview(plan);
      const pdf = await writePlanPdf(plan);
      const name = `plan-${printRequest.start}-${printRequest.end}.pdf`;
      return reply.type('application/pdf').header('content-disposition', `attachment; filename="${name}"`).send(pdf);
    },
  );
}
