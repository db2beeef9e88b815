/**
 * Corrections of a user's overtime balance (`/v1/overtime_correction`, docs/API.md "Overtime
 * balance"): a payout (negative minutes) or a balance brought over (positive). Generic CRUD, so
 * every write is a command and syncs; like the payroll settings, only admins and API keys
 * write them, since they change what a person is paid.
 */
import { overtimeCorrectionSpec } from '../../../shared/resources/overtime-correction.js';
import { requireAdmin } from '../permissions.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

export const overtimeCorrectionAdminMessage = 'Only an admin of the environment books corrections of the overtime balance.';

function checkAdmin(ctx: RequestContext): void {
  requireAdmin(ctx.caller, overtimeCorrectionAdminMessage);
}

export const overtimeCorrectionModule: ResourceModule = {
  spec: overtimeCorrectionSpec,
  table: tables.overtime_correction,
  path: '/overtime_correction',
  rules: {
    check(ctx, values, current) {
      checkAdmin(ctx);
      const minutes = values.minutes ?? current?.minutes;
      return minutes === 0
        ? [{ field: 'minutes', description: 'minutes must not be 0: a payout is negative, a balance brought over positive' }]
        : [];
    },
    checkDelete(ctx) {
      checkAdmin(ctx);
      return [];
    },
    checkRestore: checkAdmin,
  },
};
