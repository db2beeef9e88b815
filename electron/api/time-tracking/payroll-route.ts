/**
 * `GET /v1/time_tracking/payroll`: the payroll summary (payroll.ts) of a period, per user and
 * day or week, as JSON or as a csv, xlsx or pdf download (docs/API.md "Payroll summary"). It
 * reads the time report's parameters (export-route.ts: start, end, timezone, filter, format,
 * duration_format, title, bom, separator) and `per` (day or week, default week).
 */
import type { FastifyReply } from 'fastify';
import { payrollBuckets, type PayrollBucketKind } from '../../../shared/payroll-summary.js';
import { single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../resource.js';
import { payrollFilename, writePayrollCsv, writePayrollPdf, writePayrollXlsx } from './export/payroll-files.js';
import { reportContentTypes } from './export/index.js';
import { readRequest } from './export-route.js';
import { buildPayroll } from './payroll.js';
import { filteredUser, userName } from './report-names.js';

export async function exportPayroll(ctx: RequestContext, query: QueryString, reply: FastifyReply) {
  // Checked against payrollBuckets below, before it is used; any other value is a 422.
  const per = (single(query, 'per') || 'week') as PayrollBucketKind;
  if (single(query, 'group_by'))
    throw ApiError.rule('group_by', 'a payroll summary is grouped by user and by day or week (per); it takes no group_by');
  const request = readRequest({ ...query, title: single(query, 'title') || 'Payroll summary' });
  if (!payrollBuckets.includes(per)) throw ApiError.rule('per', `per must be ${payrollBuckets.join(' or ')}`);
  const summary = await buildPayroll(ctx, { ...request, per });
  if (request.format === 'json') return summary;
  const user = await filteredUser(ctx, request.filter);
  const body =
    request.format === 'csv'
      ? writePayrollCsv(summary, { bom: request.bom, separator: request.separator })
      : request.format === 'xlsx'
        ? writePayrollXlsx(summary)
        : writePayrollPdf(summary);
  return reply
    .type(reportContentTypes[request.format])
    .header('content-disposition', `attachment; filename="${payrollFilename(summary, request.format, user ? userName(user) : undefined)}"`)
    .send(body);
}
