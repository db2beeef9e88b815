/**
 * Closing a payroll period (docs/API.md "Closed periods"):
 *
 *   POST /v1/time_tracking/period        close {start, end}: 201 with the period
 *   PUT  /v1/time_tracking/period/{id}   refused (405): a period is closed or reopened, not edited
 *
 * Listing, reading and reopening (DELETE) are the generic routes of closed-period.ts. Closing
 * is one command with its timer stops: each running timer that started before the period's
 * end stops at the later of its start and the period's start (in its user's time zone), so no
 * timer runs on into closed days; undo puts back both.
 */
import type { FastifyInstance } from 'fastify';
import { timerStopAt, type PeriodDays } from '../../../shared/closed-periods.js';
import { checkWrite } from '../../../shared/fields.js';
import { closedPeriodSpec } from '../../../shared/resources/closed-period.js';
import type { RecordWrites } from '../../store/record-store.js';
import { asCommandOnRecords } from '../commands/request-command.js';
import type { QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { presentWritten, shapeOptionsFor } from '../records.js';
import { closedPeriodModule, closePeriodMessage, periodNotEditedMessage, periodProblems } from '../resources/closed-period.js';
import { minutesBetween } from '../resources/time-tracking.js';
import { requireAdmin } from '../permissions.js';
import { tables } from '../tables.js';
import { userTimeZone } from './entry-time.js';
import { closingBalances } from './overtime.js';

/** Stops the timers that would run into the period (see the file head); written as the command's own changes. */
async function stopTimersRunningInto(tx: RecordWrites, period: PeriodDays): Promise<void> {
  const running = (await tx.list(tables.time_tracking, { match: { running: true }, limit: 1_000_000, offset: 0 })).rows;
  const zones = new Map<string, string>();
  for (const timer of running) {
    const userId = typeof timer.user_id === 'string' ? timer.user_id : '';
    let zone = zones.get(userId);
    if (zone === undefined) {
      zone = userTimeZone(userId ? await tx.get(tables.user, userId) : undefined);
      zones.set(userId, zone);
    }
    const end = timerStopAt(timer.start, period, zone);
    if (end === undefined) continue;
    // Written past the entry's rules, as stopping another timer is (resources/time-tracking.ts): the
    // period closes in this same command, and the stop is what it decides.
    await tx.update(tables.time_tracking, timer.id, { end, running: false, duration: minutesBetween(timer.start, end) });
  }
}

export function registerClosedPeriodRoutes(app: FastifyInstance): void {
  const module = closedPeriodModule;
  app.post<{ Querystring: QueryString }>(
    '/time_tracking/period',
    {
      config: {
        doc: {
          summary: 'Close a payroll period: its time entries are not written any more, and timers running into it stop',
          tag: 'TimeTracking',
          resource: { module, operation: 'create' },
          success: { status: 201, description: 'The closed period' },
        },
      },
    },
    async (request, reply) => {
      const { ctx } = request;
      requireAdmin(ctx.caller, closePeriodMessage);
      const shape = shapeOptionsFor(module, request.query);
      const body: unknown = request.body;
      if (typeof body !== 'object' || body === null || Array.isArray(body)) throw ApiError.badRequest('the body must be a JSON object');
      // Checked as an object above; its fields are checked against the declaration here.
      const checked = checkWrite(closedPeriodSpec, body as Record<string, unknown>, 'create');
      const problems = checked.problems.length > 0 ? checked.problems : periodProblems(checked.values);
      if (problems.length > 0) throw ApiError.unprocessable(problems);
      // Both are checked dates (YYYY-MM-DD) now.
      const days = { start: checked.values.start as string, end: checked.values.end as string };
      const closedBy = ctx.caller.kind === 'user' ? (ctx.caller.userId ?? null) : null;
      const answer = await asCommandOnRecords(request, reply, `Close the payroll period ${days.start} – ${days.end}`, async (tx) => {
        const period = await tx.insert(tables.closed_period, { ...days, closed_by: closedBy });
        await stopTimersRunningInto(tx, days);
        // Frozen after the timer stops, which count as worked: what the period pays stays its
        // closing balance, whatever changes later (docs/API.md "Overtime balance").
        const frozen = await tx.update(tables.closed_period, period.id, { overtime_closing: await closingBalances(tx, days.end) });
        return presentWritten(ctx, tx, module, frozen ?? period, shape);
      });
      reply.code(201);
      return answer;
    },
  );

  app.put(
    '/time_tracking/period/:id',
    { config: { doc: { summary: 'Refused: a closed period is reopened (DELETE) or closed (POST), never edited', tag: 'TimeTracking' } } },
    () => {
      throw new ApiError('methodNotAllowed', [{ description: periodNotEditedMessage }]);
    },
  );
}
