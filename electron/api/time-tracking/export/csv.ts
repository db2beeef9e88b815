/**
 * A time report as CSV (RFC 4180): UTF-8, CRLF line ends, a header row, one record per
 * report line, a "Total <label>" record after each group's lines and a "Grand total" record
 * at the end. Every record has the same 13 fields (`tableColumns`); a total record fills the
 * first field and Duration and Minutes.
 *
 * For Excel in European locales, `separator: ';'` also writes decimal hours with a decimal
 * comma (`7,50`), and `bom: true` starts the file with a UTF-8 byte order mark, without which
 * Excel reads the file as ANSI and garbles every non-ASCII letter.
 *
 * Spreadsheet formula injection: a text field (user, board, collection, card, activity,
 * status, note, group label) that starts with `=`, `+`, `-`, `@`, a tab or a CR gets a
 * leading `'`, so Excel and LibreOffice show it as text instead of running it as a formula
 * (OWASP's advice). The value then reads `'=SUM(A1)`. Fields the report computes itself
 * (dates, times, durations, minutes) are never changed.
 *
 * The file is produced as the stream is read, about 64 KiB at a time, so a large report is
 * never held as one string.
 */
import { Readable } from 'node:stream';
import { formatMinutes, type ReportLine, type TimeReport } from '../../../../shared/time-report.js';
import { grandTotalLabel, reportRows, subtotalLabel, tableColumns } from './report-rows.js';
import { formatLocalDateTime, ZoneClock } from './zone-clock.js';

export type CsvSeparator = ',' | ';';

export interface CsvOptions {
  /** Start with a UTF-8 byte order mark (for Excel). Default false. */
  bom?: boolean;
  /** Field separator; `;` also switches decimal hours to a decimal comma. Default `,`. */
  separator?: CsvSeparator;
}

const chunkSize = 64 * 1024;

/** A text field as a spreadsheet will not mistake for a formula. */
export function neutraliseFormula(text: string): string {
  const first = text.charCodeAt(0);
  // = + - @ tab CR
  return first === 0x3d || first === 0x2b || first === 0x2d || first === 0x40 || first === 0x09 || first === 0x0d ? `'${text}` : text;
}

export function writeCsv(report: TimeReport, options: CsvOptions = {}): Readable {
  const clock = new ZoneClock(report.period.timezone);
  return Readable.from(csvChunks(report, clock, options.separator ?? ',', options.bom ?? false), { objectMode: false });
}

function* csvChunks(report: TimeReport, clock: ZoneClock, separator: CsvSeparator, bom: boolean): Generator<Buffer, void, undefined> {
  const needsQuotes = separator === ',' ? /[",\r\n]/ : /[";\r\n]/;
  const field = (value: string) => (needsQuotes.test(value) ? `"${value.replaceAll('"', '""')}"` : value);
  const text = (value: string) => field(neutraliseFormula(value));
  // Labels (user, board, card …) and durations repeat line after line: each is written once.
  const labels = new Map<string, string>();
  const label = (value: string) => {
    let written = labels.get(value);
    if (written === undefined) labels.set(value, (written = text(value)));
    return written;
  };
  const durations = new Map<number, string>();
  const duration = (minutes: number) => {
    let written = durations.get(minutes);
    if (written === undefined) {
      const value = formatMinutes(minutes, report.duration_format);
      durations.set(minutes, (written = separator === ';' ? value.replace('.', ',') : value));
    }
    return written;
  };
  const emptyBeforeDuration = separator.repeat(tableColumns.indexOf('Duration'));
  const total = (name: string, minutes: number) =>
    `${text(name)}${emptyBeforeDuration}${duration(minutes)}${separator}${minutes}${separator}\r\n`;
  const s = separator;
  const line = (l: ReportLine) =>
    `${l.date}${s}${l.week}${s}${label(l.user)}${s}${label(l.board)}${s}${label(l.collection)}${s}${label(l.card)}${s}${label(l.activity)}${s}` +
    `${label(l.status)}${s}${formatLocalDateTime(clock.local(l.start))}${s}${formatLocalDateTime(clock.local(l.end))}${s}` +
    `${duration(l.minutes)}${s}${l.minutes}${s}${text(l.note)}\r\n`;

  let chunk = (bom ? '\uFEFF' : '') + tableColumns.join(separator) + '\r\n';
  for (const row of reportRows(report)) {
    if (row.kind === 'line') chunk += line(row.line);
    else if (row.kind === 'subtotal') chunk += total(subtotalLabel(row.group), row.group.minutes);
    else if (row.kind === 'grand-total') chunk += total(grandTotalLabel, row.minutes);
    if (chunk.length >= chunkSize) {
      yield Buffer.from(chunk, 'utf8');
      chunk = '';
    }
  }
  yield Buffer.from(chunk, 'utf8');
}
