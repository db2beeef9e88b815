/**
 * Company holidays (holidays.ts, holiday-calendar.ts; docs/API.md "Absences and holidays"):
 *
 *   GET    /v1/schedule_deviation/holidays        the holidays, one row per description and first day
 *   POST   /v1/schedule_deviation/holidays        one holiday for everyone, a group or some resources
 *   POST   /v1/schedule_deviation/holidays/ics    the holidays of an .ics file, likewise
 *   DELETE /v1/schedule_deviation/holidays?description=…&start_date=…   from every resource
 *
 * Each write is one transaction and one command (one undo step).
 */
import type { FastifyInstance } from 'fastify';
import type { FieldProblem } from '../../../shared/errors.js';
import { isValidDate } from '../../../shared/fields.js';
import { today } from '../../../shared/dates.js';
import type { QueryString } from '../conventions/list-query.js';
import { requiredBody } from '../conventions/request-body.js';
import { ApiError } from '../errors.js';
import { present, shapeOptionsFor } from '../records.js';
import { scheduleDeviationModule } from '../resources/resource.js';
import { readIcsHolidays } from './holiday-calendar.js';
import { addHolidays, listHolidays, readHoliday, readTarget, removeHoliday, type HolidaysAdded } from './holidays.js';
import type { RequestContext } from '../resource.js';

const tag = 'ScheduleDeviation';
const path = '/schedule_deviation/holidays';

const target = {
  group_id: { type: 'string', format: 'uuid', description: "The group's members get it (not archived)." },
  resource_ids: { type: 'array', items: { type: 'string', format: 'uuid' }, description: 'These resources get it.' },
};

function answer(ctx: RequestContext, added: HolidaysAdded, query: QueryString) {
  return {
    data: present(ctx, scheduleDeviationModule, added.created, shapeOptionsFor(scheduleDeviationModule, query)),
    holidays: added.holidays,
    resources: added.resources,
  };
}

function refuseProblems(problems: FieldProblem[]): void {
  if (problems.length > 0) throw ApiError.unprocessable(problems);
}

export function registerHolidayRoutes(app: FastifyInstance): void {
  app.get(path, { config: { doc: { summary: 'List company holidays', tag } } }, (request) => ({ data: listHolidays(request.ctx) }));

  app.post<{ Querystring: QueryString }>(
    path,
    {
      config: {
        doc: {
          summary: 'Add a company holiday',
          tag,
          body: {
            type: 'object',
            required: ['description', 'start_date'],
            properties: {
              description: { type: 'string' },
              start_date: { type: 'string', format: 'date' },
              end_date: { type: 'string', format: 'date' },
              time: { type: ['integer', 'null'], description: 'Minutes off per day; null or absent: whole days.' },
              ...target,
            },
          },
          success: { status: 201, description: 'The deviations written' },
        },
      },
    },
    (request, reply) => {
      shapeOptionsFor(scheduleDeviationModule, request.query);
      const body = requiredBody(request.body);
      const problems: FieldProblem[] = [];
      const holiday = readHoliday(body, problems);
      const who = readTarget(body, problems);
      refuseProblems(problems);
      reply.code(201);
      return answer(request.ctx, addHolidays(request.ctx, [holiday], who), request.query);
    },
  );

  app.post<{ Querystring: QueryString }>(
    `${path}/ics`,
    {
      config: {
        doc: {
          summary: 'Import company holidays from an iCalendar file',
          tag,
          body: {
            type: 'object',
            required: ['ics'],
            properties: {
              ics: { type: 'string', description: 'The text of the .ics file (at most 1 MB).' },
              from: { type: 'string', format: 'date', description: 'First day of the two-year window (default today).' },
              ...target,
            },
          },
          success: { status: 201, description: 'The deviations written' },
        },
      },
    },
    (request, reply) => {
      shapeOptionsFor(scheduleDeviationModule, request.query);
      const body = requiredBody(request.body);
      const problems: FieldProblem[] = [];
      const who = readTarget(body, problems);
      const from = body.from ?? today();
      if (typeof from !== 'string' || !isValidDate(from)) problems.push({ field: 'from', description: 'from must be a date (YYYY-MM-DD)' });
      refuseProblems(problems);
      // refuseProblems threw unless `from` is a date string.
      const holidays = readIcsHolidays(body.ics, from as string);
      reply.code(201);
      return answer(request.ctx, addHolidays(request.ctx, holidays, who), request.query);
    },
  );

  app.delete<{ Querystring: QueryString }>(
    path,
    {
      config: {
        doc: {
          summary: 'Delete a company holiday from every resource',
          tag,
          query: { description: 'The holiday’s description.', start_date: 'Its first day (YYYY-MM-DD).' },
        },
      },
    },
    (request) => {
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
      const deleted = removeHoliday(request.ctx, (description as string).trim(), startDate as string);
      if (deleted === 0) throw ApiError.notFound(`No holiday "${(description as string).trim()}" starts on ${startDate as string}.`);
      return { deleted };
    },
  );
}
