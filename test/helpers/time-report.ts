/**
 * Time reports built by hand for the report file writers, and the readers that take a
 * written file apart again: an RFC 4180 CSV parser, `pdftotext -layout` for PDFs.
 *
 * `workedReport()` is the worked example, Europe/Amsterdam, 24–26 October 2026 (summer time
 * ends on Sunday the 25th at 03:00 CEST, when clocks go back to 02:00 CET):
 *
 *   line  user   local day   local time (zone)            minutes  note
 *   0     Alice  Sat 24      22:30 CEST – 24:00            90       entry e1, crosses midnight …
 *   1     Alice  Sun 25      00:00 – 01:15 CEST            75       … and goes on after it
 *   2     Alice  Sun 25      01:30 CEST – 02:30 CET        120      across the DST change
 *   3     Alice  Mon 26      09:00 – 12:00 CET             180      quotes, separators, newline
 *   4     Bob    Sat 24      08:00 – 12:30 CEST            270      `=SUM(A1)`
 *   5     Bob    Sat 24      13:00 – 13:20 CEST            20       non-Latin card name
 *   6     Bob    Mon 26      23:00 – 24:00 CET             60       clipped at the period's end
 *
 *   Alice: 24th 90, 25th 195, 26th 180 → 465 (7.75 h, 7:45)
 *   Bob ("Brown, Bob"): 24th 290, 26th 60 → 350 (5.83 h, 5:50)
 *   Grand total 815 (13.58 h, 13:35)
 *
 * Money: Assembly is billed at 40.00 an hour, Inspection (line 2) at 25.00 and not billed.
 *
 *   line amounts   60.00, 50.00, 50.00 (not billed), 120.00, 180.00, 13.33, 40.00
 *   Alice 280.00 (24th 60.00, 25th 100.00, 26th 120.00) · Bob 233.33 (24th 193.33, 26th 40.00)
 *   Grand total 513.33: billable 463.33 (695 min), non-billable 50.00 (120 min)
 *
 * Line 5 (Bob, 13:00) is flagged as overlapping another entry of his (one the report leaves out).
 */
import { spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { inflateRawSync } from 'node:zlib';
import {
  hourCodeTotals,
  type DurationFormat,
  type ReportGroup,
  type ReportLine,
  type ReportMoney,
  type TimeReport,
} from '../../shared/time-report.js';

export const nonLatinCard = 'Zürich – Łódź 東京 Ωmega';
export const trickyNote = 'Fixed "the" bug; tested, deployed\nsecond line';
export const formulaNote = '=SUM(A1)';

/** The money of lines, added up in whole cents. */
export function moneyOf(lines: readonly ReportLine[]): ReportMoney {
  const cents = (ls: readonly ReportLine[]) => ls.reduce((sum, l) => sum + Math.round(l.amount * 100), 0);
  const minutes = (ls: readonly ReportLine[]) => ls.reduce((sum, l) => sum + l.minutes, 0);
  const billable = lines.filter((l) => l.billable);
  const other = lines.filter((l) => !l.billable);
  return {
    amount: cents(lines) / 100,
    billable_minutes: minutes(billable),
    billable_amount: cents(billable) / 100,
    non_billable_minutes: minutes(other),
    non_billable_amount: cents(other) / 100,
  };
}

function line(partial: Partial<ReportLine> & Pick<ReportLine, 'entry_id' | 'date' | 'start' | 'end' | 'minutes' | 'user'>): ReportLine {
  const rate = partial.hourly_rate ?? 40;
  return {
    week: '2026-W43',
    user_id: partial.user === 'Alice Andersen' ? 'u-alice' : 'u-bob',
    card_id: 'c-1',
    card: 'Frame 7',
    collection_id: 'k-1',
    collection: 'Order 1001',
    board_id: 'b-1',
    board: 'Welding',
    activity_id: 'a-1',
    activity: 'Assembly',
    hourly_rate: rate,
    billable: true,
    amount: Math.round((rate * partial.minutes * 100) / 60) / 100,
    overlaps: false,
    status: 'approved',
    note: '',
    hour_code: null,
    // One normal segment unless the test gives its own: the line's minutes at 100 %.
    segments: [{ date: partial.date, minutes: partial.minutes, percentage: 100, hour_code: partial.hour_code ?? null }],
    ...partial,
  };
}

export function workedReport(duration_format: DurationFormat = 'decimal'): TimeReport {
  const lines: ReportLine[] = [
    line({
      entry_id: 'e1',
      date: '2026-10-24',
      start: '2026-10-24T20:30:00Z',
      end: '2026-10-24T22:00:00Z',
      minutes: 90,
      user: 'Alice Andersen',
      note: 'Night shift',
    }),
    line({
      entry_id: 'e1',
      date: '2026-10-25',
      week: '2026-W43',
      start: '2026-10-24T22:00:00Z',
      end: '2026-10-24T23:15:00Z',
      minutes: 75,
      user: 'Alice Andersen',
      note: 'Night shift',
    }),
    line({
      entry_id: 'e2',
      date: '2026-10-25',
      start: '2026-10-24T23:30:00Z',
      end: '2026-10-25T01:30:00Z',
      minutes: 120,
      user: 'Alice Andersen',
      activity_id: 'a-2',
      activity: 'Inspection',
      hourly_rate: 25,
      billable: false,
    }),
    line({
      entry_id: 'e3',
      date: '2026-10-26',
      week: '2026-W44',
      start: '2026-10-26T08:00:00Z',
      end: '2026-10-26T11:00:00Z',
      minutes: 180,
      user: 'Alice Andersen',
      note: trickyNote,
    }),
    line({
      entry_id: 'e4',
      date: '2026-10-24',
      start: '2026-10-24T06:00:00Z',
      end: '2026-10-24T10:30:00Z',
      minutes: 270,
      user: 'Brown, Bob',
      note: formulaNote,
      status: 'pending',
    }),
    line({
      entry_id: 'e5',
      date: '2026-10-24',
      start: '2026-10-24T11:00:00Z',
      end: '2026-10-24T11:20:00Z',
      minutes: 20,
      user: 'Brown, Bob',
      card: nonLatinCard,
      note: '-5 minutes correction',
      overlaps: true,
    }),
    line({
      entry_id: 'e6',
      date: '2026-10-26',
      week: '2026-W44',
      start: '2026-10-26T22:00:00Z',
      end: '2026-10-26T23:00:00Z',
      minutes: 60,
      user: 'Brown, Bob',
      note: '@night',
    }),
  ];
  const day = (date: string, indexes: number[]): ReportGroup => ({
    grouping: 'days',
    key: date,
    label: date,
    minutes: indexes.reduce((sum, i) => sum + lines[i]!.minutes, 0),
    ...moneyOf(indexes.map((i) => lines[i]!)),
    lines: indexes,
  });
  const user = (key: string, label: string, days: ReportGroup[]): ReportGroup => ({
    grouping: 'users',
    key,
    label,
    minutes: days.reduce((sum, g) => sum + g.minutes, 0),
    ...moneyOf(days.flatMap((g) => g.lines!.map((i) => lines[i]!))),
    groups: days,
  });
  const groups = [
    user('u-alice', 'Alice Andersen', [day('2026-10-24', [0]), day('2026-10-25', [1, 2]), day('2026-10-26', [3])]),
    user('u-bob', 'Brown, Bob', [day('2026-10-24', [4, 5]), day('2026-10-26', [6])]),
  ];
  return {
    title: 'Time report October',
    period: { start: '2026-10-24', end: '2026-10-26', timezone: 'Europe/Amsterdam' },
    filters: { status: 'approved,pending' },
    filter_text: '',
    exported_by: 'Carla Planner',
    currency: 'EUR',
    group_by: ['users', 'days'],
    duration_format,
    generated_at: '2026-10-27T07:00:00Z',
    total_minutes: 815,
    totals: moneyOf(lines),
    groups,
    lines,
    hour_codes: hourCodeTotals(lines),
  };
}

/**
 * A large report grouped by users and days: `users` × `days` groups of `perDay` lines each,
 * eight-hour working days in UTC, November 2026.
 */
export function bulkReport(users: number, days: number, perDay: number, duration_format: DurationFormat = 'decimal'): TimeReport {
  const lines: ReportLine[] = [];
  const groups: ReportGroup[] = [];
  const minutesEach = Math.max(1, Math.floor(480 / perDay));
  for (let u = 0; u < users; u++) {
    const dayGroups: ReportGroup[] = [];
    for (let d = 0; d < days; d++) {
      const date = `2026-11-${String(d + 1).padStart(2, '0')}`;
      const indexes: number[] = [];
      let t = Date.parse(`${date}T07:00:00Z`);
      for (let i = 0; i < perDay; i++) {
        indexes.push(lines.length);
        const n = lines.length;
        lines.push({
          entry_id: `entry-${n}`,
          date,
          week: d < 1 ? '2026-W44' : `2026-W${45 + Math.floor((d - 1) / 7)}`,
          start: new Date(t).toISOString(),
          end: new Date(t + minutesEach * 60_000).toISOString(),
          minutes: minutesEach,
          user_id: `user-${u}`,
          user: `Worker ${u} Example-Name`,
          card_id: `card-${n % 500}`,
          card: `Card ${n % 500} Frame assembly station`,
          collection_id: `collection-${n % 50}`,
          collection: `Order ${1000 + (n % 50)} Customer B.V.`,
          board_id: `board-${n % 5}`,
          board: `Board ${n % 5}`,
          activity_id: `activity-${n % 12}`,
          activity: `Activity ${n % 12}`,
          hourly_rate: 30 + (n % 12) * 2.5,
          billable: n % 12 < 8,
          amount: Math.round(((30 + (n % 12) * 2.5) * minutesEach * 100) / 60) / 100,
          overlaps: false,
          status: n % 3 ? 'approved' : 'pending',
          note: n % 4 ? `Worked on item ${n}, checked and reported` : '',
          hour_code: `H${n % 12}`,
          segments: [{ date, minutes: minutesEach, percentage: 100, hour_code: `H${n % 12}` }],
        });
        t += minutesEach * 60_000;
      }
      dayGroups.push({
        grouping: 'days',
        key: date,
        label: date,
        minutes: minutesEach * perDay,
        ...moneyOf(indexes.map((i) => lines[i]!)),
        lines: indexes,
      });
    }
    const userLines = dayGroups.flatMap((g) => g.lines!.map((i) => lines[i]!));
    groups.push({
      grouping: 'users',
      key: `user-${u}`,
      label: `Worker ${u} Example-Name`,
      minutes: minutesEach * perDay * days,
      ...moneyOf(userLines),
      groups: dayGroups,
    });
  }
  return {
    title: 'Time report November',
    period: { start: '2026-11-01', end: `2026-11-${String(days).padStart(2, '0')}`, timezone: 'Europe/Amsterdam' },
    filters: {},
    filter_text: '',
    exported_by: 'Carla Planner',
    currency: 'EUR',
    group_by: ['users', 'days'],
    duration_format,
    generated_at: '2026-12-01T08:00:00Z',
    total_minutes: lines.length * minutesEach,
    totals: moneyOf(lines),
    groups,
    lines,
    hour_codes: hourCodeTotals(lines),
  };
}

export async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk));
  return Buffer.concat(chunks);
}

/**
 * RFC 4180: records end with CRLF, fields are separated by `separator`, a quoted field may
 * hold separators, CR, LF and doubled quotes. Throws on anything else (a bare LF between
 * records, a quote inside an unquoted field, text after a closing quote).
 */
export function parseCsv(text: string, separator = ','): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let i = 0;
  const fail = (why: string) => {
    throw new Error(`CSV: ${why} at offset ${i}: ${JSON.stringify(text.slice(Math.max(0, i - 20), i + 20))}`);
  };
  while (i < text.length) {
    let field = '';
    if (text[i] === '"') {
      i++;
      for (;;) {
        if (i >= text.length) fail('unterminated quoted field');
        if (text[i] === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
          } else {
            i++;
            break;
          }
        } else field += text[i++];
      }
    } else {
      while (i < text.length && text[i] !== separator && text[i] !== '\r' && text[i] !== '\n') {
        if (text[i] === '"') fail('quote in an unquoted field');
        field += text[i++];
      }
    }
    record.push(field);
    if (text[i] === separator) {
      i++;
      continue;
    }
    if (text.startsWith('\r\n', i)) {
      i += 2;
      records.push(record);
      record = [];
      continue;
    }
    if (i < text.length) fail('expected a separator or CRLF');
    records.push(record);
  }
  return records;
}

/** The text of a PDF as `pdftotext -layout` extracts it; pages are separated by form feeds. */
export async function pdfText(pdf: Buffer): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'report-pdf-'));
  try {
    const file = join(dir, 'report.pdf');
    await writeFile(file, pdf);
    return await new Promise<string>((resolve, reject) => {
      const child = spawn('pdftotext', ['-layout', '-enc', 'UTF-8', file, '-'], { stdio: ['ignore', 'pipe', 'pipe'] });
      let out = '';
      let err = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (out += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (err += c));
      child.on('error', reject);
      child.on('close', (code) => (code === 0 && !err.trim() ? resolve(out) : reject(new Error(`pdftotext exited ${code}: ${err}`))));
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** One file of a ZIP archive (stored or deflated, no ZIP64), found through the central directory. */
export function zipEntry(zip: Buffer, name: string): Buffer {
  let end = zip.length - 22;
  while (end >= 0 && zip.readUInt32LE(end) !== 0x06054b50) end--;
  if (end < 0) throw new Error('not a ZIP file');
  const count = zip.readUInt16LE(end + 10);
  let at = zip.readUInt32LE(end + 16);
  for (let i = 0; i < count; i++) {
    if (zip.readUInt32LE(at) !== 0x02014b50) throw new Error('broken ZIP central directory');
    const method = zip.readUInt16LE(at + 10);
    const size = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    if (zip.toString('utf8', at + 46, at + 46 + nameLength) === name) {
      const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
      const data = zip.subarray(start, start + size);
      return method === 8 ? inflateRawSync(data) : data;
    }
    at += 46 + skip;
  }
  throw new Error(`no ${name} in the ZIP file`);
}
