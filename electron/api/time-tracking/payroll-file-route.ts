/**
 * `GET /v1/time_tracking/payroll_file`: a payroll package's import file (payroll-file.ts,
 * docs/API.md "Payroll files") for one payroll month: `format` nmbrs, loket or datev, `start`
 * and `end` in one month (default this month), `timezone` and `filter` as the time report's.
 */
import type { FastifyReply } from 'fastify';
import { payrollPackages, type PayrollPackage } from '../../../shared/payroll-file.js';
import { single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../resource.js';
import { writePayrollPackage } from './export/payroll-packages.js';
import { readRequest } from './export-route.js';
import { buildPayrollFile } from './payroll-file.js';

export async function exportPayrollFile(ctx: RequestContext, query: QueryString, reply: FastifyReply) {
  const format = single(query, 'format');
  // Checked against payrollPackages on the next line; any other value is a 422.
  const pkg = format as PayrollPackage;
  if (!payrollPackages.includes(pkg))
    throw ApiError.rule('format', `format must be one of ${payrollPackages.join(', ')}${format ? `; not ${format}` : ''}`);
  if (single(query, 'group_by')) throw ApiError.rule('group_by', 'a payroll file is per employee and hour code; it takes no group_by');
  // The report's own checks of start, end, timezone and filter, its format left as JSON.
  const request = readRequest({ ...query, format: 'json' });
  const file = await buildPayrollFile(ctx, {
    start: request.start,
    end: request.end,
    timezone: request.timezone,
    ...(request.filter ? { filter: request.filter } : {}),
    filters: request.filters,
    package: pkg,
  });
  const out = writePayrollPackage(file, pkg);
  return reply.type(out.contentType).header('content-disposition', `attachment; filename="${out.filename}"`).send(out.body);
}
