/**
 * Company holidays (holidays.ts, holiday-calendar.ts; docs/API.md "Absences and holidays"):
 *
 *   GET    /v1/schedule_deviation/holidays        the holidays, one row per description and first day
 *   POST   /v1/schedule_deviation/holidays        one holiday for everyone, a group or some resources
 *   POST   /v1/schedule_deviation/holidays/ics    the holidays of an .ics file, likewise
 *   DELETE /v1/schedule_deviation/holidays?description=…&start_date=…   from everyone who has it
 *
 * Each write is one transaction and one command (one undo step). The two POST bodies are
 * declared operations (shared/operations/holidays.ts; docs/architecture.md "Operations").
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FieldProblem } from '../../../shared/errors.js';
import { isPlainObject, isValidDate } from '../../../shared/fields.js';
import { daysBetween, today } from '../../../shared/dates.js';
import type { BodyOf } from '../../../shared/operation.js';
import { addHolidayOperation, importHolidaysOperation, maxHolidayDays } from '../../../shared/operations/holidays.js';
import type { QueryString } from '../conventions/list-query.js';
import { operationRoute, type Partly } from '../conventions/operation-route.js';
import { ApiError } from '../errors.js';
import { insideTransaction, present, shapeOptionsFor } from '../records.js';
import { companyHolidayModule, scheduleDeviationModule } from '../resources/resource.js';
import { parseShapeOptions } from '../conventions/list-query.js';
import { readIcsHolidays, refuseOversizedIcs } from './holiday-calendar.js';
import { addHolidays, holidayOf, listHolidays, removeHoliday, targetOf, type Holiday, type HolidayTarget } from './holidays.js';
import { asCommandOnRecords } from '../commands/request-command.js';

const tag = 'ScheduleDeviation';
const path = '/schedule_deviation/holidays';
const deleteSummary = 'Delete a company holiday from everyone who has it';

/**
 * Adds the holidays as the request's command, on either engine (when nothing was new, as no
 * command at all), and answers the deviations and company holidays it made, read before the commit.
 */
async function addAsCommand(
  request: FastifyRequest<{ Querystring: QueryString }>,
  reply: FastifyReply,
  description: string,
  holidays: readonly Holiday[],
  target: HolidayTarget,
) {
  const shape = shapeOptionsFor(scheduleDeviationModule, request.query);
  const { ctx } = request;
  const { added, data, companyHolidays } = await asCommandOnRecords(
    request,
    reply,
    description,
    async (tx) => {
      const added = await addHolidays(ctx, tx, holidays, target);
      const inside = insideTransaction(ctx, tx);
      return {
        added,
        data: await present(inside, scheduleDeviationModule, added.created, shape),
        companyHolidays: await present(inside, companyHolidayModule, added.companyHolidays, parseShapeOptions({})),
      };
    },
    // A company holiday entered before any resource exists gives no one a deviation yet, and is written all the same.
    { wroteNothing: ({ added }) => added.created.length === 0 && added.companyHolidays.length === 0 },
  );
  return { data, company_holidays: companyHolidays, holidays: added.holidays, resources: added.resources };
}

function refuseProblems(problems: FieldProblem[]): void {
  if (problems.length > 0) throw ApiError.unprocessable(problems);
}

/** One target, not two: the rule beside the declared shape of both bodies, on the body as far as it passed it. */
function targetProblems(input: Partly<BodyOf<typeof importHolidaysOperation>>): FieldProblem[] {
  return input.group_id !== undefined && input.resource_ids !== undefined
    ? [{ field: 'group_id', description: 'send group_id or resource_ids, not both' }]
    : [];
}

/** A holiday's days in order and within a year (shared/operations/holidays.ts declares each date). */
function holidayProblems(input: Partly<BodyOf<typeof addHolidayOperation>>): FieldProblem[] {
  const problems = targetProblems(input);
  const { start_date: start, end_date: end } = input;
  if (start === undefined || end === undefined) return problems;
  if (end < start) problems.push({ field: 'end_date', description: 'end_date may not be before start_date', rule: 'notBeforeStart' });
  else if (daysBetween(start, end) >= maxHolidayDays) {
    problems.push({ field: 'end_date', description: `a holiday lasts at most ${maxHolidayDays} days` });
  }
  return problems;
}

export function registerHolidayRoutes(app: FastifyInstance): void {
  app.get(path, { config: { doc: { summary: 'List company holidays', tag } } }, async (request) => ({
    data: await listHolidays(request.ctx.records),
  }));

  // The bodies are declared in shared/operations/holidays.ts and checked by operationRoute; an
  // unknown group or resource is a 422 from addHolidays, which reads them in its transaction.
  operationRoute(
    app,
    addHolidayOperation,
    async (request, reply, input) => addAsCommand(request, reply, addHolidayOperation.summary, [holidayOf(input)], targetOf(input)),
    (request) => shapeOptionsFor(scheduleDeviationModule, request.query),
    (_request, input) => holidayProblems(input),
  );

  operationRoute(
    app,
    importHolidaysOperation,
    async (request, reply, input) => {
      const holidays = readIcsHolidays(input.ics, input.from ?? today());
      return addAsCommand(request, reply, importHolidaysOperation.summary, holidays, targetOf(input));
    },
    (request) => {
      shapeOptionsFor(scheduleDeviationModule, request.query);
      // A file over 1 MB is 413 whatever else the body holds, as a body over the limit is.
      if (isPlainObject(request.body)) refuseOversizedIcs(request.body.ics);
    },
    (_request, input) => targetProblems(input),
  );

  app.delete<{ Querystring: QueryString }>(
    path,
    {
      config: {
        doc: {
          summary: deleteSummary,
          tag,
          query: { description: 'The holiday’s description.', start_date: 'Its first day (YYYY-MM-DD).' },
        },
      },
    },
    async (request, reply) => {
      // Read as unknown, so the checks below hold for any query value.
      const { description, start_date: startDate } = request.query as Record<string, unknown>;
      const problems: FieldProblem[] = [];
      if (typeof description !== 'string' || description.trim() === '') {
        problems.push({ field: 'description', description: 'description names the holiday to delete' });
      }
      if (typeof startDate !== 'string' || !isValidDate(startDate)) {
        problems.push({ field: 'start_date', description: 'start_date must be a date (YYYY-MM-DD)' });
      }
      refuseProblems(problems);
      // refuseProblems threw unless both are strings.
      const [name, day] = [(description as string).trim(), startDate as string];
      // The 404 inside the command rolls it back: nothing deleted, no step in the undo list.
      const deleted = await asCommandOnRecords(request, reply, deleteSummary, async (tx) => {
        const count = await removeHoliday(request.ctx, tx, name, day);
        if (count === undefined) throw ApiError.notFound(`No holiday "${name}" starts on ${day}.`);
        return count;
      });
      return { deleted };
    },
  );
}
