/**
 * Time tracking operations beside the generic routes (docs/API.md "Time tracking"):
 *
 *   POST /v1/time_tracking/start            start a timer now ({card_id, activity_id?, note?, user_id?})
 *   POST /v1/time_tracking/{id}/stop        stop that timer now (or at {end})
 *   POST /v1/time_tracking/stop             stop the caller's running timer ({user_id?}: see below)
 *   GET  /v1/time_tracking/running          the caller's running timer, or null
 *   POST /v1/time_tracking/mark_exported    set synchronized_at on every entry the filter selects
 *   GET  /v1/time_tracking/export           the time report (json, csv, xlsx, pdf)
 *   GET  /v1/time_tracking/payroll          the payroll summary: per user and day or week, worked against scheduled hours
 *   GET  /v1/time_tracking/payroll_file     a payroll package's import file (Nmbrs, Loket.nl, DATEV) for one month
 *   GET  /v1/time_tracking/overtime_balance each user's overtime balance over a period (opening, change, closing)
 *
 * `user_id` names another user's timer for API keys and planners; a member who names someone
 * else gets 403 on start and stop (reading a timer is open, like the entries it is one of).
 * Only planners and API keys mark entries exported (docs/API.md "Permissions"). The bodies of
 * these operations are declared in shared/operations/time-tracking.ts (docs/architecture.md
 * "Operations") and checked against that declaration before a handler runs.
 */
import type { FastifyInstance } from 'fastify';
import type { StoredRecord } from '../../../shared/fields.js';
import type { ListQuery } from '../../store/record-sql.js';
import { isUuid, nowTimestamp } from '../../../shared/ids.js';
import { booleanParam, parseListOptions, parseShapeOptions, single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { isPlanner } from '../permissions.js';
import { createRecord, findRecord, presentOne, presentWritten, relationJoins, updateRecord } from '../records.js';
import { asCommandOnRecords } from '../commands/request-command.js';
import type { BodyOf } from '../../../shared/operation.js';
import type { RequestContext } from '../resource.js';
import { checkOwnEntry, exportMessage, ownEntriesMessage, timeTrackingModule } from '../resources/time-tracking.js';
import { exportReport } from './export-route.js';
import { exportPayroll } from './payroll-route.js';
import { exportPayrollFile } from './payroll-file-route.js';
import { overtimeBalanceRoute } from './overtime-route.js';
import { operationRoute } from '../conventions/operation-route.js';
import {
  markExportedOperation,
  startTimerOperation,
  stopRunningTimerOperation,
  stopTimerOperation,
} from '../../../shared/operations/time-tracking.js';
import { tables } from '../tables.js';
import type { RecordWrites } from '../../store/record-store.js';

/**
 * Whose timer: the signed-in user, or the `user_id` the caller names. Starting or stopping
 * (`writing`) another user's timer is for API keys and planners.
 */
function timerUser(ctx: RequestContext, given: string | undefined, writing: boolean): string | null {
  // A signed-in user, or the app's user on the desktop's bridge (api/app-user.ts); a plain key: nobody.
  const own = ctx.caller.userId ?? null;
  if (given === undefined) return own;
  if (!isUuid(given)) throw ApiError.rule('user_id', 'user_id must be a uuid');
  const named = given.toLowerCase();
  if (writing && named !== own && !isPlanner(ctx.caller)) throw ApiError.forbidden(ownEntriesMessage);
  return named;
}

/**
 * How a timer stops: at the `end` sent, else now, which the entry's rules read from
 * `running: false` (a timer stopped in the second it started may end at its start there).
 */
function stopAt(end: unknown): Record<string, unknown> {
  return end !== undefined && end !== null ? { end } : { running: false };
}

/** A user's running timer: the latest, should there be more than one. */
function runningQuery(userId: string | null): ListQuery {
  return { match: { user_id: userId, running: true }, sort: [{ field: 'start', direction: 'desc' }], limit: 1, offset: 0 };
}

export function registerTimeTrackingRoutes(app: FastifyInstance): void {
  const doc = (summary: string, extra: Record<string, unknown> = {}) => ({ doc: { summary, tag: 'TimeTracking', ...extra } });

  /**
   * A timer operation: its write, on the transaction's `tx`, is one command in an asynchronous transaction (so on
   * either store engine), and the answer is the entry it wrote.
   */
  function timerRoute<O extends typeof startTimerOperation | typeof stopTimerOperation | typeof stopRunningTimerOperation>(
    operation: O,
    write: (ctx: RequestContext, tx: RecordWrites, input: BodyOf<O>, params: Record<string, string>) => Promise<StoredRecord>,
  ): void {
    operationRoute(app, operation, async (request, reply, input) => {
      const { ctx } = request;
      const shape = parseShapeOptions(request.query);
      return await asCommandOnRecords(request, reply, operation.summary, async (tx) =>
        presentWritten(ctx, tx, timeTrackingModule, await write(ctx, tx, input, request.params), shape),
      );
    });
  }

  timerRoute(startTimerOperation, (ctx, tx, input) => {
    const userId = timerUser(ctx, input.user_id, true);
    return createRecord(ctx, tx, timeTrackingModule, { ...input, user_id: userId, start: nowTimestamp(), end: null });
  });

  timerRoute(stopTimerOperation, async (ctx, tx, input, params) => {
    const entry = await findRecord(tx, timeTrackingModule, params.id ?? '');
    checkOwnEntry(ctx, entry);
    if (!entry.running) throw ApiError.conflict('This timer is not running.');
    return await updateRecord(ctx, tx, timeTrackingModule, entry.id, stopAt(input.end));
  });

  timerRoute(stopRunningTimerOperation, async (ctx, tx, input) => {
    const userId = timerUser(ctx, input.user_id, true);
    // Read in the stop's own transaction, so the stop is one command with it.
    const [entry] = (await tx.list(tables.time_tracking, runningQuery(userId))).rows;
    if (!entry) throw ApiError.notFound('No timer is running.');
    return await updateRecord(ctx, tx, timeTrackingModule, entry.id, stopAt(input.end));
  });

  app.get<{ Querystring: QueryString }>(
    '/time_tracking/running',
    {
      config: doc("The caller's running timer (data is null when none runs)", {
        query: { user_id: "Whose timer (default: the signed-in user's)." },
      }),
    },
    async (request) => {
      const [entry] = (
        await request.ctx.records.list(tables.time_tracking, runningQuery(timerUser(request.ctx, single(request.query, 'user_id'), false)))
      ).rows;
      return { data: entry ? await presentOne(request.ctx, timeTrackingModule, entry, parseShapeOptions(request.query)) : null };
    },
  );

  operationRoute(
    app,
    markExportedOperation,
    async (request, reply, input) => {
      const options = parseListOptions(request.query);
      const includeExported = booleanParam(request.query, 'all');
      const at = nowTimestamp();
      // One command on either engine; none when no entry was marked.
      const marked = await asCommandOnRecords(
        request,
        reply,
        markExportedOperation.summary,
        async (tx) => {
          const { rows } = await tx.list(tables.time_tracking, {
            ...(options.filter ? { filter: options.filter, relations: relationJoins(timeTrackingModule) } : {}),
            ...(includeExported ? {} : { match: { synchronized_at: null } }),
            limit: 1_000_000,
            offset: 0,
          });
          for (const entry of rows) {
            await tx.update(tables.time_tracking, entry.id, {
              synchronized_at: at,
              external_failed: false,
              ...(input.external_note !== undefined ? { external_note: input.external_note } : {}),
            });
          }
          return rows.length;
        },
        { wroteNothing: (count) => count === 0 },
      );
      return { count: marked, synchronized_at: at };
    },
    // A member is refused whatever the body holds.
    (request) => {
      if (!isPlanner(request.ctx.caller)) throw ApiError.forbidden(exportMessage);
    },
  );

  app.get<{ Querystring: QueryString }>(
    '/time_tracking/export',
    {
      config: doc('The time report over a period, grouped, as json, csv, xlsx or pdf', {
        query: {
          start: 'First day, YYYY-MM-DD (default: first of this month).',
          end: 'Last day, YYYY-MM-DD (default: last of this month).',
          group_by: 'days, weeks, activities, collections, boards, statuses, users, billable, comma separated (e.g. users,days).',
          format: 'json (default), csv, xlsx or pdf.',
          duration_format: 'decimal (hours) or hh:mm.',
          timezone: 'IANA time zone days and weeks are cut in (default UTC).',
          bom: 'csv: start with a UTF-8 byte order mark (Excel).',
          separator: "csv: ',' (default) or ';' (Excel in European locales).",
          title: 'Report title.',
          currency: 'ISO 4217 code the amounts are in (default EUR).',
        },
      }),
    },
    (request, reply) => exportReport(request.ctx, request.query, reply),
  );

  app.get<{ Querystring: QueryString }>(
    '/time_tracking/payroll',
    {
      config: doc("The payroll summary: per user and day or week, hours worked against the hours their resource's schedule expects", {
        query: {
          start: 'First day, YYYY-MM-DD (default: first of this month).',
          end: 'Last day, YYYY-MM-DD (default: last of this month).',
          per: 'day or week (default week).',
          format: 'json (default), csv, xlsx or pdf.',
          duration_format: 'decimal (hours) or hh:mm.',
          timezone: 'IANA time zone days are cut in (default UTC).',
          filter: 'Which time entries count (list filter grammar), e.g. user_id:eq:<id>.',
          bom: 'csv: start with a UTF-8 byte order mark (Excel).',
          separator: "csv: ',' (default) or ';' (Excel in European locales).",
          title: 'Title (default Payroll summary).',
        },
      }),
    },
    (request, reply) => exportPayroll(request.ctx, request.query, reply),
  );
  app.get<{ Querystring: QueryString }>(
    '/time_tracking/overtime_balance',
    {
      config: doc("Each user's overtime balance over a period: opening, change and closing, in minutes", {
        query: {
          start: 'First day, YYYY-MM-DD (default: first of this month).',
          end: 'Last day, YYYY-MM-DD (default: last of this month).',
          user_id: 'One user (default: every user linked to a resource).',
        },
      }),
    },
    (request) => overtimeBalanceRoute(request.ctx, request.query),
  );
  app.get<{ Querystring: QueryString }>(
    '/time_tracking/payroll_file',
    {
      config: doc("A payroll package's import file: per employee the hours of one month under each hour code, absences included", {
        query: {
          format: 'nmbrs, loket or datev (required).',
          start: 'First day, YYYY-MM-DD (default: first of this month); start and end in one month.',
          end: 'Last day, YYYY-MM-DD (default: last of this month).',
          timezone: 'IANA time zone days are cut in (default UTC).',
          filter: 'Which time entries count (list filter grammar), e.g. synchronized_at:eq:null.',
        },
      }),
    },
    (request, reply) => exportPayrollFile(request.ctx, request.query, reply),
  );
}
