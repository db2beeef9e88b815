/**
 * A time report as CSV (RFC 4180): UTF-8, CRLF line ends, a header row, one record per
 * report line (and one more per further payroll segment of the line: `segmentColumns`), a
 * "Total <label>" record after each group's lines, a "Grand total" record and
 * its "Billable" and "Non-billable" parts. Every record has the same 20 fields
 * (`tableColumns`, then `segmentColumns`); a total record fills the first field, Duration, Minutes and Amount. Last
 * come records that say what the file is (Title, Period, Filters, Exported by, Currency: the
 * label in the first field, the value in the second), so the file names its period, its
 * filters and who made it however it is passed on.
 *
 * Rates and amounts are plain numbers with two decimals in the report's currency (the
 * Currency record and the Amount column say which). For Excel in European locales,
 * `separator: ';'` also writes decimal hours, rates and amounts with a decimal comma
 * (`7,50`), and `bom: true` starts the file with a UTF-8 byte order mark, without which
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
import { formatAmount, formatMinutes, type HourSegment, type ReportLine, type TimeReport } from '../../../../shared/time-report.js';
import { isoWeek } from '../../../../shared/zoned-time.js';
import { periodDays } from './report-caption.js';
import {
  billableLabel,
  captionFacts,
  grandTotalLabel,
  reportRows,
  segmentColumns,
  subtotalLabel,
  tableColumns,
  yesNo,
} from './report-rows.js';
import { formatLocalDateTime, ZoneClock } from './zone-clock.js';

export type CsvSeparator = ',' | ';';

/** Every field of a CSV record: the table's, then the payroll segment's. */
export const csvColumns = [...tableColumns, ...segmentColumns] as const;

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
  const amounts = new Map<number, string>();
  const money = (amount: number) => {
    let written = amounts.get(amount);
    if (written === undefined) {
      const value = formatAmount(amount);
      amounts.set(amount, (written = separator === ';' ? value.replace('.', ',') : value));
    }
    return written;
  };
  // A report's lines begin and end at a few thousand distinct instants, each read many times.
  const localTimes = new Map<string, string>();
  const localTime = (instant: string) => {
    let written = localTimes.get(instant);
    if (written === undefined) localTimes.set(instant, (written = formatLocalDateTime(clock.local(instant))));
    return written;
  };
  const s = separator;
  const emptyBeforeDuration = s.repeat(tableColumns.indexOf('Duration'));
  // Minutes → Amount, and Amount → the last field (Note).
  const minutesToAmount = s.repeat(tableColumns.indexOf('Amount') - tableColumns.indexOf('Minutes'));
  const amountToEnd = s.repeat(csvColumns.length - 1 - csvColumns.indexOf('Amount'));
  // Records are joined, field by field and then chunk by chunk, rather than concatenated: a
  // concatenation keeps every piece as a string object of its own until the chunk is encoded,
  // some thirty per line, and allocating and collecting them was a large part of the export.
  const total = (name: string, minutes: number, amount: number) =>
    `${text(name)}${emptyBeforeDuration}${duration(minutes)}${s}${minutes}${minutesToAmount}${money(amount)}${amountToEnd}`;
  const fact = (name: string, value: string) => `${text(name)}${s}${text(value)}${s.repeat(csvColumns.length - 2)}`;
  const fields: string[] = new Array<string>(csvColumns.length);
  const percentage = (value: number) => (separator === ';' ? String(value).replace('.', ',') : String(value));
  const putSegment = (segment: HourSegment | undefined) => {
    fields[17] = segment?.hour_code ? label(segment.hour_code) : '';
    fields[18] = segment ? percentage(segment.percentage) : '';
    fields[19] = segment ? String(segment.minutes) : '';
  };
  // A further segment of a line: the line's labels, the segment's own date, week and figures.
  const segmentRecord = (l: ReportLine, segment: HourSegment) => {
    fields.fill('');
    fields[0] = segment.date;
    fields[1] = isoWeek(segment.date);
    fields[2] = label(l.user);
    fields[3] = label(l.board);
    fields[4] = label(l.collection);
    fields[5] = label(l.card);
    fields[6] = label(l.activity);
    fields[7] = label(l.status);
    putSegment(segment);
    return fields.join(s);
  };
  const line = (l: ReportLine) => {
    fields[0] = l.date;
    fields[1] = l.week;
    fields[2] = label(l.user);
    fields[3] = label(l.board);
    fields[4] = label(l.collection);
    fields[5] = label(l.card);
    fields[6] = label(l.activity);
    fields[7] = label(l.status);
    fields[8] = localTime(l.start);
    fields[9] = localTime(l.end);
    fields[10] = duration(l.minutes);
    fields[11] = String(l.minutes);
    fields[12] = yesNo(l.billable);
    fields[13] = money(l.hourly_rate);
    fields[14] = money(l.amount);
    fields[15] = l.overlaps ? 'yes' : '';
    fields[16] = text(l.note);
    putSegment(l.segments[0]);
    return fields.join(s);
  };

  const records: string[] = [(bom ? '\uFEFF' : '') + csvColumns.join(separator)];
  let length = 0;
  const add = (record: string) => {
    records.push(record);
    length += record.length + 2;
  };
  for (const row of reportRows(report)) {
    if (row.kind === 'line') {
      add(line(row.line));
      for (let i = 1; i < row.line.segments.length; i++) add(segmentRecord(row.line, row.line.segments[i]!));
    } else if (row.kind === 'subtotal') add(total(subtotalLabel(row.group), row.group.minutes, row.group.amount));
    else if (row.kind === 'grand-total') add(total(grandTotalLabel, row.minutes, row.amount));
    else if (row.kind === 'billable-total') add(total(billableLabel(row.billable), row.minutes, row.amount));
    if (length >= chunkSize) {
      records.push('');
      yield Buffer.from(records.join('\r\n'), 'utf8');
      records.length = 0;
      length = 0;
    }
  }
  add(fact('Title', report.title));
  for (const [name, value] of captionFacts(report, periodDays(report, clock).text)) add(fact(name, value));
  records.push('');
  yield Buffer.from(records.join('\r\n'), 'utf8');
}
