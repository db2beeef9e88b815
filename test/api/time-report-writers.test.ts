/**
 * The report file writers as the API calls them (electron/api/time-tracking/export): the
 * `writeReport` surface (content types, file names, streams), the period a report states, the
 * local clock of the report's time zone, and the order in which every format prints groups.
 * Each format's own file is read back in time-report-writers.{csv,xlsx,pdf}.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { maxReportLines, reportFileFormats, writeReport } from '../../electron/api/time-tracking/export/index.js';
import { periodDays, reportFilename } from '../../electron/api/time-tracking/export/report-caption.js';
import { reportRows } from '../../electron/api/time-tracking/export/report-rows.js';
import { formatLocalDateTime, ZoneClock } from '../../electron/api/time-tracking/export/zone-clock.js';
import type { TimeReport } from '../../shared/time-report.js';
import { bulkReport, moneyOf, readAll, workedReport } from '../helpers/time-report.js';

describe('writeReport', () => {
  it('answers each format with its content type and an ASCII file name for the period', async () => {
    const report = workedReport();
    const expected = {
      csv: 'text/csv; charset=utf-8',
      xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
      pdf: 'application/pdf',
    };
    for (const format of reportFileFormats) {
      const file = writeReport(report, format);
      expect(file.contentType).toBe(expected[format]);
      expect(file.filename).toBe(`time-report-2026-10-24-2026-10-26.${format}`);
      const body = await readAll(file.body);
      expect(body.length).toBeGreaterThan(100);
    }
  });

  it('starts each file with its format signature', async () => {
    const report = workedReport();
    expect((await readAll(writeReport(report, 'csv').body)).subarray(0, 4).toString()).toBe('Date');
    expect((await readAll(writeReport(report, 'xlsx').body)).subarray(0, 2).toString()).toBe('PK');
    const pdf = await readAll(writeReport(report, 'pdf').body);
    expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
    expect(pdf.subarray(-6).toString()).toContain('%%EOF');
  });

  it('writes an empty report as a file with a grand total of zero', async () => {
    const empty: TimeReport = { ...workedReport(), groups: [], lines: [], total_minutes: 0, totals: moneyOf([]), hour_codes: [] };
    expect((await readAll(writeReport(empty, 'csv').body)).toString()).toBe(
      'Date,Week,User,Board,Collection,Card,Activity,Status,Start,End,Duration,Minutes,Billable,Rate,Amount,Overlap,Note,Hour code,Percentage,Segment minutes\r\n' +
        'Grand total,,,,,,,,,,0.00,0,,,0.00,,,,,\r\nBillable,,,,,,,,,,0.00,0,,,0.00,,,,,\r\nNon-billable,,,,,,,,,,0.00,0,,,0.00,,,,,\r\n' +
        'Title,Time report October,,,,,,,,,,,,,,,,,,\r\nPeriod,2026-10-24 – 2026-10-26 (Europe/Amsterdam),,,,,,,,,,,,,,,,,,\r\n' +
        'Filters,"status: approved,pending",,,,,,,,,,,,,,,,,,\r\nExported by,Carla Planner,,,,,,,,,,,,,,,,,,\r\nCurrency,EUR,,,,,,,,,,,,,,,,,,\r\n',
    );
    expect((await readAll(writeReport(empty, 'xlsx').body)).length).toBeGreaterThan(1000);
    expect((await readAll(writeReport(empty, 'pdf').body)).length).toBeGreaterThan(1000);
  });

  it('documents a size limit of 200,000 lines', () => {
    expect(maxReportLines).toBe(200_000);
  });

  it('refuses an unknown time zone before anything is written', () => {
    const report = { ...workedReport(), period: { ...workedReport().period, timezone: 'Mars/Olympus_Mons' } };
    for (const format of reportFileFormats) expect(() => writeReport(report, format)).toThrow(RangeError);
  });

  it('stops writing when the reader goes away half-way', async () => {
    const report = bulkReport(2, 5, 100);
    for (const format of reportFileFormats) {
      const { body } = writeReport(report, format);
      const closed = new Promise<void>((resolve) => body.once('close', () => resolve()));
      body.once('data', () => body.destroy());
      body.resume();
      await closed;
      expect(body.destroyed).toBe(true);
    }
    // Nothing left running that could throw into the test runner later.
    await new Promise((resolve) => setTimeout(resolve, 50));
  });
});

describe('the period a report states', () => {
  it('reads plain dates as the first and the last day, both included', () => {
    const period = periodDays(workedReport());
    expect(period).toEqual({ first: '2026-10-24', last: '2026-10-26', text: '2026-10-24 – 2026-10-26' });
  });

  it('reads instants as start included, end excluded, in the report time zone', () => {
    const report: TimeReport = {
      ...workedReport(),
      period: { start: '2026-10-31T23:00:00Z', end: '2026-11-30T23:00:00Z', timezone: 'Europe/Amsterdam' },
    };
    expect(periodDays(report)).toEqual({ first: '2026-11-01', last: '2026-11-30', text: '2026-11-01 – 2026-11-30' });
  });

  it('shows times when the period does not run from midnight to midnight', () => {
    const report: TimeReport = {
      ...workedReport(),
      period: { start: '2026-11-02T07:00:00Z', end: '2026-11-02T16:30:00Z', timezone: 'Europe/Amsterdam' },
    };
    expect(periodDays(report).text).toBe('2026-11-02 08:00 – 2026-11-02 17:30');
    expect(periodDays(report).last).toBe('2026-11-02');
  });

  it('makes a file name of ASCII letters, digits, dots and dashes only', () => {
    expect(reportFilename({ first: '2026-11-01', last: '2026-11-30', text: '' }, 'pdf')).toBe('time-report-2026-11-01-2026-11-30.pdf');
    expect(reportFilename({ first: '2026/11/01"', last: 'Ünïcödé; rm', text: '' }, 'csv')).toMatch(/^[A-Za-z0-9.-]+$/);
  });
});

describe('the local clock of the report time zone', () => {
  it('follows Amsterdam through the end of summer time', () => {
    const clock = new ZoneClock('Europe/Amsterdam');
    expect(formatLocalDateTime(clock.local('2026-10-24T23:30:00Z'))).toBe('2026-10-25 01:30'); // CEST
    expect(formatLocalDateTime(clock.local('2026-10-25T00:59:00Z'))).toBe('2026-10-25 02:59'); // CEST
    expect(formatLocalDateTime(clock.local('2026-10-25T01:00:00Z'))).toBe('2026-10-25 02:00'); // CET
    expect(formatLocalDateTime(clock.local('2026-03-29T01:00:00Z'))).toBe('2026-03-29 03:00'); // spring forward
  });

  it('refuses an instant without an offset, which the server would read on its own clock', () => {
    const clock = new ZoneClock('Europe/Amsterdam');
    expect(() => clock.local('2026-10-24T20:30:00')).toThrow(RangeError);
    expect(() => clock.local('2026-10-24')).toThrow(RangeError);
    expect(formatLocalDateTime(clock.local('2026-10-24T20:30:00+00:00'))).toBe('2026-10-24 22:30');
  });

  it('agrees with Intl minute by minute around a change that is not on a UTC hour (St. John’s, UTC−3:30)', () => {
    const clock = new ZoneClock('America/St_Johns');
    const intl = new Intl.DateTimeFormat('sv-SE', {
      timeZone: 'America/St_Johns',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    // Summer time begins on 8 March 2026 at 02:00 NST = 05:30 UTC.
    for (let t = Date.parse('2026-03-08T03:00:00Z'); t < Date.parse('2026-03-08T08:00:00Z'); t += 60_000) {
      expect(formatLocalDateTime(clock.local(new Date(t).toISOString()))).toBe(intl.format(t));
    }
  });
});

describe('the order every format prints', () => {
  it('prints heading, lines and subtotal per group, then the grand total and its billable and non-billable parts', () => {
    const rows = [...reportRows(workedReport())].map((row) =>
      row.kind === 'line'
        ? `line ${row.line.entry_id} ${row.line.date}`
        : row.kind === 'grand-total'
          ? `grand ${row.minutes} ${row.amount}`
          : row.kind === 'billable-total'
            ? `${row.billable ? 'billable' : 'non-billable'} ${row.minutes} ${row.amount}`
            : `${row.kind} ${row.group.label} ${row.group.minutes}`,
    );
    expect(rows).toEqual([
      'heading Alice Andersen 465',
      'heading 2026-10-24 90',
      'line e1 2026-10-24',
      'subtotal 2026-10-24 90',
      'heading 2026-10-25 195',
      'line e1 2026-10-25',
      'line e2 2026-10-25',
      'subtotal 2026-10-25 195',
      'heading 2026-10-26 180',
      'line e3 2026-10-26',
      'subtotal 2026-10-26 180',
      'subtotal Alice Andersen 465',
      'heading Brown, Bob 350',
      'heading 2026-10-24 290',
      'line e4 2026-10-24',
      'line e5 2026-10-24',
      'subtotal 2026-10-24 290',
      'heading 2026-10-26 60',
      'line e6 2026-10-26',
      'subtotal 2026-10-26 60',
      'subtotal Brown, Bob 350',
      'grand 815 513.33',
      'billable 695 463.33',
      'non-billable 120 50',
    ]);
  });

  it('gives each heading and subtotal its depth and its ancestors, three levels deep', () => {
    const report = workedReport();
    // Alice's days, each split once more: a third level under the second.
    const alice = report.groups[0]!;
    alice.groups = alice.groups!.map((day) => ({ ...day, groups: [{ ...day, label: `${day.label} work` }], lines: undefined }));
    const rows = [...reportRows(report)]
      .filter((row) => row.kind === 'heading' || row.kind === 'subtotal' || row.kind === 'line')
      .slice(0, 7)
      .map((row) =>
        row.kind === 'line'
          ? `line ${row.depth}`
          : `${row.kind} ${row.group.label} ${row.depth} [${row.path.map((g) => g.label).join(' > ')}]`,
      );
    expect(rows).toEqual([
      'heading Alice Andersen 0 []',
      'heading 2026-10-24 1 [Alice Andersen]',
      'heading 2026-10-24 work 2 [Alice Andersen > 2026-10-24]',
      'line 3',
      'subtotal 2026-10-24 work 2 [Alice Andersen > 2026-10-24]',
      'subtotal 2026-10-24 1 [Alice Andersen]',
      'heading 2026-10-25 1 [Alice Andersen]',
    ]);
  });

  it('prints a report without groups as its lines and a grand total', () => {
    const report: TimeReport = { ...workedReport(), group_by: [], groups: [] };
    const kinds = [...reportRows(report)].map((row) => row.kind);
    expect(kinds).toEqual([...Array(7).fill('line'), 'grand-total', 'billable-total', 'billable-total']);
  });

  it('refuses a group that points at a line that does not exist', () => {
    const report = workedReport();
    report.groups[0]!.groups![0]!.lines = [99];
    expect(() => [...reportRows(report)]).toThrow(/line 99/);
  });
});
