/**
 * Surcharge rules (docs/API.md "Surcharge rules"): base data written through the generic
 * routes, so every write is a command, syncs and runs on either engine. Like users, webhooks and
 * the other settings of the environment, only admins and API keys write them; everyone reads
 * them (the time report splits everyone's hours by them). The check runs for a replica's
 * pushed changes too, so a member's replica cannot write one either.
 */
import type { FieldProblem } from '../../../shared/errors.js';
import { surchargeRuleSpec } from '../../../shared/resources/surcharge-rule.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { RecordWrites } from '../../store/record-store.js';
import { requireAdmin } from '../permissions.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

export const adminOnlyMessage = 'Only an admin of the environment changes surcharge rules.';

function check(ctx: RequestContext, _tx: RecordWrites, values: Record<string, unknown>, current: StoredRecord | undefined): FieldProblem[] {
  requireAdmin(ctx.caller, adminOnlyMessage);
  const problems: FieldProblem[] = [];
  if (typeof values.percentage === 'number' && !(values.percentage > 0))
    problems.push({ field: 'percentage', description: 'must be more than 0 (100 is a normal hour)', rule: 'minimum', limit: 0 });
  if (typeof values.name === 'string' && values.name.trim() === '')
    problems.push({ field: 'name', description: 'names the rule', rule: 'required' });
  const from = 'from_time' in values ? values.from_time : current?.from_time;
  const to = 'to_time' in values ? values.to_time : current?.to_time;
  if (typeof from === 'string' && from === to)
    problems.push({
      field: 'to_time',
      description: 'may not equal from_time: leave both empty for the whole day, or choose a later or (across midnight) an earlier time',
    });
  // The fields as the record will be: a rule that holds on no day would never pay anything.
  // Weekdays that failed their own check are not among the values: they have their 422 already.
  const weekdays = 'weekdays' in values ? values.weekdays : current?.weekdays;
  const holiday = 'public_holiday' in values ? values.public_holiday : (current?.public_holiday ?? false);
  if (Array.isArray(weekdays) && weekdays.length === 0 && holiday !== true)
    problems.push({ field: 'weekdays', description: 'names at least one weekday, unless the rule holds on public holidays' });
  return problems;
}

export const surchargeRuleModule: ResourceModule = {
  spec: surchargeRuleSpec,
  table: tables.surcharge_rule,
  path: '/surcharge_rule',
  rules: {
    check,
    checkDelete(ctx) {
      requireAdmin(ctx.caller, adminOnlyMessage);
      return [];
    },
    checkRestore(ctx) {
      requireAdmin(ctx.caller, adminOnlyMessage);
    },
  },
};
