/**
 * Corrections of a user's overtime balance (`/v1/overtime_correction`, docs/API.md "Overtime
 * balance"): a payout (negative minutes) or a balance brought over (positive). Generic CRUD, so
 * every write is a command and syncs; like the payroll settings, only admins and API keys
 * write them, since they change what a person is paid. A correction dated in a closed payroll
 * period is refused (409), made, moved, deleted or restored: that period is paid, and its
 * frozen closing balance would no longer say what the records hold.
 */
import { closedPeriodOver } from '../../../shared/closed-periods.js';
import { overtimeCorrectionSpec } from '../../../shared/resources/overtime-correction.js';
import type { RecordReads } from '../../store/record-store.js';
import { ApiError } from '../errors.js';
import { requireAdmin } from '../permissions.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

export const overtimeCorrectionAdminMessage = 'Only an admin of the environment books corrections of the overtime balance.';

function checkAdmin(ctx: RequestContext): void {
  requireAdmin(ctx.caller, overtimeCorrectionAdminMessage);
}

/** 409 when a closed payroll period holds one of the days (docs/API.md "Closed periods"). */
async function refuseClosedDays(tx: RecordReads, days: readonly unknown[]): Promise<void> {
  const dates = days.filter((day): day is string => typeof day === 'string');
  if (dates.length === 0) return;
  const periods = (await tx.list(tables.closed_period, { limit: 1_000_000, offset: 0 })).rows;
  for (const date of dates) {
    const closed = closedPeriodOver(periods, { start: date, end: date });
    if (closed)
      throw ApiError.conflict(
        `The period ${closed.start} – ${closed.end} is closed for payroll; a correction of an overtime balance dated in it cannot be made, changed or deleted (an admin can reopen it).`,
      );
  }
}

export const overtimeCorrectionModule: ResourceModule = {
  spec: overtimeCorrectionSpec,
  table: tables.overtime_correction,
  path: '/overtime_correction',
  rules: {
    async check(ctx, tx, values, current) {
      checkAdmin(ctx);
      const minutes = values.minutes ?? current?.minutes;
      if (minutes === 0)
        return [{ field: 'minutes', description: 'minutes must not be 0: a payout is negative, a balance brought over positive' }];
      // Where it was and where it goes: neither may be paid already.
      const moved = values.date !== undefined && values.date !== current?.date;
      if (!current || current.deleted_at || moved || values.minutes !== undefined)
        await refuseClosedDays(tx, [values.date ?? current?.date, current?.date]);
      return [];
    },
    async checkDelete(ctx, tx, correction) {
      checkAdmin(ctx);
      await refuseClosedDays(tx, [correction.date]);
      return [];
    },
    checkRestore: checkAdmin,
    async checkRestoreOnRecords(_ctx, tx, correction) {
      await refuseClosedDays(tx, [correction.date]);
    },
  },
};
