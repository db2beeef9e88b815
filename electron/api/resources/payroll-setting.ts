/**
 * The environment's payroll settings (`/v1/payroll_setting`, docs/API.md "Payroll files"):
 * base data written through the generic routes, so every write is a command, syncs and runs on
 * either engine. One record per environment (its `scope` is unique). Like surcharge rules, only
 * admins and API keys write it; everyone who reads time reads it.
 */
import { payrollSettingSpec } from '../../../shared/resources/payroll-setting.js';
import { requireAdmin } from '../permissions.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

export const payrollSettingsAdminMessage = 'Only an admin of the environment changes the payroll settings.';

function checkAdmin(ctx: RequestContext): void {
  requireAdmin(ctx.caller, payrollSettingsAdminMessage);
}

export const payrollSettingModule: ResourceModule = {
  spec: payrollSettingSpec,
  table: tables.payroll_setting,
  path: '/payroll_setting',
  rules: {
    check(ctx) {
      checkAdmin(ctx);
      return [];
    },
    checkDelete(ctx) {
      checkAdmin(ctx);
      return [];
    },
    checkRestore: checkAdmin,
  },
};
