/**
 * `GET /v1/time_tracking/export`: reads the report request from the query, computes the report
 * and answers it as JSON (with each figure also formatted in `duration_format`) or as a file
 * (csv, xlsx, pdf) with its Content-Type and a Content-Disposition file name.
 */
import type { FastifyReply } from 'fastify';
import { bucketStart, daysBetween, addDays, today } from '../../../shared/dates.js';
import { isTimeZone, isValidDate } from '../../../shared/fields.js';
import { reportFormats, reportGroupings, withDurations, type ReportFormat, type ReportGrouping } from '../../../shared/time-report.js';
import { booleanParam, parseListOptions, single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../resource.js';
import { writeReport } from './export/index.js';
import { buildReport, maxReportDays, type ReportRequest } from './report.js';
import { filteredUser, userName } from './report-names.js';

export function readRequest(query: QueryString): ReportRequest & { format: ReportFormat; bom: boolean; separator: ',' | ';' } {
  const problems: { field: string; description: string }[] = [];
  const first = bucketStart(today(), 'month');
  const start = single(query, 'start') || first;
  const nextMonth = bucketStart(addDays(first, 31), 'month');
  const end = single(query, 'end') || addDays(nextMonth, -1);
  for (const [name, value] of [
    ['start', start],
    ['end', end],
  ] as const) {
    if (!isValidDate(value)) problems.push({ field: name, description: `${name} must be a date (YYYY-MM-DD)` });
  }
  if (problems.length === 0 && end < start) problems.push({ field: 'end', description: 'end may not be before start' });
  if (problems.length === 0 && daysBetween(start, end) >= maxReportDays)
    problems.push({ field: 'end', description: `a report covers at most ${maxReportDays} days` });
  const timezone = single(query, 'timezone') || 'UTC';
  if (!isTimeZone(timezone))
    problems.push({ field: 'timezone', description: 'timezone must be an IANA time zone such as Europe/Amsterdam' });
  // Each grouping is checked against reportGroupings below; an unknown one is a 422.
  const groupBy = (single(query, 'group_by') || '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean) as ReportGrouping[];
  for (const g of groupBy)
    if (!reportGroupings.includes(g))
      problems.push({ field: 'group_by', description: `group_by takes ${reportGroupings.join(', ')}; not ${g}` });
  if (new Set(groupBy).size !== groupBy.length || groupBy.length > 3)
    problems.push({ field: 'group_by', description: 'group_by takes up to three different groupings' });
  // Checked against reportFormats on the next line; an unknown one is a 422.
  const format = (single(query, 'format') || 'json') as ReportFormat;
  if (!reportFormats.includes(format)) problems.push({ field: 'format', description: `format must be one of ${reportFormats.join(', ')}` });
  const durationFormat = single(query, 'duration_format') || 'decimal';
  if (durationFormat !== 'decimal' && durationFormat !== 'hh:mm')
    problems.push({ field: 'duration_format', description: 'duration_format must be decimal or hh:mm' });
  const separator = single(query, 'separator') || ',';
  if (separator !== ',' && separator !== ';') problems.push({ field: 'separator', description: "separator must be ',' or ';'" });
  const title = single(query, 'title') || 'Time report';
  if (title.length > 200) problems.push({ field: 'title', description: 'title may be at most 200 characters' });
  const currency = (single(query, 'currency') || 'EUR').toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency))
    problems.push({ field: 'currency', description: 'currency must be an ISO 4217 code of three letters, such as EUR' });
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  const options = parseListOptions({ filter: query.filter });
  const filterText = single(query, 'filter');
  // durationFormat and separator were checked above: any other value has thrown its 422.
  return {
    start,
    end,
    timezone,
    groupBy,
    // Checked against the two formats above.
    durationFormat: durationFormat as 'decimal' | 'hh:mm',
    ...(options.filter ? { filter: options.filter } : {}),
    filters: filterText ? { filter: filterText } : {},
    title,
    currency,
    format,
    bom: booleanParam(query, 'bom'),
    separator: separator as ',' | ';', // checked above
  };
}

export async function exportReport(ctx: RequestContext, query: QueryString, reply: FastifyReply) {
  const request = readRequest(query);
  const report = await buildReport(ctx, request);
  if (request.format === 'json') return withDurations(report);
  const user = await filteredUser(ctx, request.filter);
  const file = writeReport(report, request.format, {
    bom: request.bom,
    separator: request.separator,
    ...(user ? { user: userName(user) } : {}),
  });
  return reply.type(file.contentType).header('content-disposition', `attachment; filename="${file.filename}"`).send(file.body);
}
