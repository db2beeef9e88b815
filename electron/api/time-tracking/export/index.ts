/**
 * Report files: a computed `TimeReport` (shared/time-report.ts) as a CSV, XLSX or PDF
 * download. The JSON format is the model itself and is not written here.
 *
 *   const file = writeReport(report, 'csv', { separator: ';', bom: true });
 *   reply.type(file.contentType).header('content-disposition', `attachment; filename="${file.filename}"`).send(file.body);
 *
 * `body` is a Readable that makes the file while it is read: a large report is never held
 * twice in memory, and a slow reader slows the writer down instead of filling memory. Bad
 * input (an unknown time zone, an unreadable instant) throws here, before anything is sent;
 * a failure half-way destroys the stream with the error. The report must not change while
 * the body is being read.
 *
 * Size limit: a report of more than `maxReportLines` lines is refused by the API with 422
 * before it is written; the writers are measured at 100,000 lines (test/bench/time-report-writers.ts).
 */
import type { Readable } from 'node:stream';
import type { ReportFormat, TimeReport } from '../../../../shared/time-report.js';
import { writeCsv, type CsvOptions } from './csv.js';
import { writePdf } from './pdf.js';
import { periodDays, reportFilename } from './report-caption.js';
import { writeXlsx } from './xlsx.js';

export { writeCsv, type CsvOptions, type CsvSeparator } from './csv.js';
export { writePdf } from './pdf.js';
export { writeXlsx } from './xlsx.js';

export { maxReportLines } from '../report.js';

/** The formats written as files (json is the report itself). */
export type ReportFileFormat = Exclude<ReportFormat, 'json'>;
export const reportFileFormats: readonly ReportFileFormat[] = ['csv', 'xlsx', 'pdf'];

/** Options of `writeReport`: CSV's, and the user the file name carries (a report of one user). */
export type ReportFileOptions = CsvOptions & { user?: string };

export interface ReportFile {
  body: Readable;
  contentType: string;
  /** ASCII only, e.g. `time-report-2026-11-01-2026-11-30.csv`. */
  filename: string;
}

export const reportContentTypes: Record<ReportFileFormat, string> = {
  csv: 'text/csv; charset=utf-8',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pdf: 'application/pdf',
};

export function writeReport(report: TimeReport, format: ReportFileFormat, options: ReportFileOptions = {}): ReportFile {
  const filename = reportFilename(periodDays(report), format, options.user ? { user: options.user } : {});
  const body = format === 'csv' ? writeCsv(report, options) : format === 'xlsx' ? writeXlsx(report) : writePdf(report);
  return { body, contentType: reportContentTypes[format], filename };
}
