/**
 * Closed payroll periods (`/v1/time_tracking/period`, docs/API.md "Closed periods"). Anyone
 * who reads time entries lists them; an admin (or an API key) closes one (POST, in
 * time-tracking/period-routes.ts, which also stops the timers running into it) and reopens it
 * (DELETE, the generic route). A period is never edited: a PUT is refused, and so is a
 * replica's pushed change of one. Periods may overlap: a day is closed while any period that
 * holds it is, so reopening one leaves the others as they are.
 */
import type { FieldProblem } from '../../../shared/errors.js';
import { closedPeriodSpec } from '../../../shared/resources/closed-period.js';
import { ApiError } from '../errors.js';
import { requireAdmin } from '../permissions.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

export const closePeriodMessage = 'Only an admin (or an integration with an API key) closes or reopens a payroll period.';
export const periodNotEditedMessage = 'A closed period is not edited: reopen it (DELETE) and close the period you mean (POST).';

function checkAdmin(ctx: RequestContext): void {
  requireAdmin(ctx.caller, closePeriodMessage);
}

/**
 * A period's own values: its end on or after its start. Written once; a change of a stored
 * one (a replica's push) is refused.
 */
export function periodProblems(values: Record<string, unknown>, current?: Record<string, unknown>): FieldProblem[] {
  if (current && (('start' in values && values.start !== current.start) || ('end' in values && values.end !== current.end)))
    throw new ApiError('methodNotAllowed', [{ description: periodNotEditedMessage }]);
  const start = values.start ?? current?.start;
  const end = values.end ?? current?.end;
  if (typeof start === 'string' && typeof end === 'string' && end < start)
    return [{ field: 'end', description: `end (${end}) must be on or after start (${start})` }];
  return [];
}

export const closedPeriodModule: ResourceModule = {
  spec: closedPeriodSpec,
  table: tables.closed_period,
  path: '/time_tracking/period',
  // Closing stops timers too (period-routes.ts); a period is closed or reopened, not edited.
  without: ['create', 'update'],
  rules: {
    check(ctx, _tx, values, current) {
      checkAdmin(ctx);
      return periodProblems(values, current);
    },
    checkDelete(ctx) {
      checkAdmin(ctx);
      return [];
    },
    checkRestore: checkAdmin,
  },
};
