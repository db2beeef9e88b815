/**
 * `GET /v1/time_tracking/overtime_balance`: each user's overtime balance over a period
 * (overtime.ts, docs/API.md "Overtime balance"): `start` and `end` (default this month) and
 * `user_id` (one user; default every user linked to a resource).
 */
import { addDays, bucketStart, today } from '../../../shared/dates.js';
import { isValidDate } from '../../../shared/fields.js';
import type { FieldProblem } from '../../../shared/errors.js';
import { isUuid } from '../../../shared/ids.js';
import type { OvertimeFigures } from '../../../shared/payroll-summary.js';
import { single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../resource.js';
import { tables } from '../tables.js';
import { overtimeBalances, overtimePer, type OvertimePer } from './overtime.js';
import { userName } from './report-names.js';

export interface OvertimeBalanceAnswer {
  start: string;
  end: string;
  per: OvertimePer;
  users: ({ user_id: string; user: string } & OvertimeFigures)[];
}

export async function overtimeBalanceRoute(ctx: RequestContext, query: QueryString): Promise<OvertimeBalanceAnswer> {
  const first = bucketStart(today(), 'month');
  const start = single(query, 'start') || first;
  const end = single(query, 'end') || addDays(bucketStart(addDays(first, 31), 'month'), -1);
  const userId = single(query, 'user_id');
  const problems: FieldProblem[] = [];
  if (!isValidDate(start)) problems.push({ field: 'start', description: 'start must be a date (YYYY-MM-DD)' });
  if (!isValidDate(end)) problems.push({ field: 'end', description: 'end must be a date (YYYY-MM-DD)' });
  if (problems.length === 0 && end < start) problems.push({ field: 'end', description: 'end may not be before start' });
  if (userId && !isUuid(userId)) problems.push({ field: 'user_id', description: 'user_id must be a user id (uuid)' });
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  let users;
  if (userId) {
    const user = await ctx.records.get(tables.user, userId.toLowerCase());
    if (!user) throw ApiError.unprocessable([{ field: 'user_id', description: `there is no user ${userId}` }]);
    users = [user];
  } else users = (await ctx.records.list(tables.user, { match: { archived_at: null }, limit: 1_000_000, offset: 0 })).rows;
  const balances = await overtimeBalances(ctx.records, users, start, end);
  return {
    start,
    end,
    per: await overtimePer(ctx.records),
    users: users
      .filter((u) => balances.has(u.id))
      // Every user kept has a balance (the filter above).
      .map((u) => ({ user_id: u.id, user: userName(u), ...balances.get(u.id)! }))
      .sort((a, b) => a.user.localeCompare(b.user)),
  };
}
