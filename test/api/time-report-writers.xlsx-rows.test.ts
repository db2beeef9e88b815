/**
 * The XLSX writer writes line rows as sheet XML itself (xlsx.ts `lineRows`, for the export's
 * time budget) instead of through exceljs' Row objects. The file must be the same either way:
 * these tests write each report both ways and compare every part of the workbook, byte for
 * byte, apart from its creation time.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { writeLinesThroughExcelJs, writeXlsx } from '../../electron/api/time-tracking/export/xlsx.js';
import type { TimeReport } from '../../shared/time-report.js';
import { bulkReport, readAll, workedReport, zipEntry } from '../helpers/time-report.js';

const parts = [
  '[Content_Types].xml',
  'xl/workbook.xml',
  'xl/styles.xml',
  'xl/worksheets/sheet1.xml',
  'xl/_rels/workbook.xml.rels',
  'docProps/app.xml',
];

async function bothWays(report: TimeReport): Promise<{ fast: Record<string, string>; exceljs: Record<string, string> }> {
  const read = async () => {
    const zip = await readAll(writeXlsx(report));
    return Object.fromEntries(parts.map((name) => [name, zipEntry(zip, name).toString('utf8')]));
  };
  const fast = await read();
  writeLinesThroughExcelJs(true);
  try {
    return { fast, exceljs: await read() };
  } finally {
    writeLinesThroughExcelJs(false);
  }
}

describe('XLSX line rows', () => {
  afterEach(() => writeLinesThroughExcelJs(false));

  it('are the XML exceljs writes, for a grouped report with tricky text', async () => {
    const report = workedReport();
    report.lines[0]!.note = 'bell\u0007 lone\uD800 surrogate \uFFFF <b>&amp;</b> \'quoted\' "too"\ttab\r\nend 😀\u007f';
    report.lines[1]!.user = '=cmd|" /C calc"!A0 & <Ops>';
    report.lines[2]!.card = 'x'.repeat(40_000);
    report.lines[2]!.hourly_rate = 42.125;
    const { fast, exceljs } = await bothWays(report);
    for (const name of parts) expect(fast[name], name).toBe(exceljs[name]);
    expect(fast['xl/worksheets/sheet1.xml']).toContain('&lt;b&gt;&amp;amp;&lt;/b&gt;');
  });

  it('are the XML exceljs writes with hh:mm durations, without groups, and nested three deep', async () => {
    const hhmm = workedReport('hh:mm');
    const flat = workedReport();
    flat.groups = [];
    flat.group_by = [];
    const nested = bulkReport(3, 4, 5);
    nested.groups = nested.groups.map((user) => ({
      ...user,
      groups: [{ ...user, grouping: 'billable', key: 'billable', label: 'Billable' }],
    }));
    nested.group_by = ['users', 'billable', 'days'];
    // Payroll segments: a further one on the first line (written through exceljs, before the
    // fast rows begin) and on later ones, an hour code of none, and a line of no segments.
    const split = workedReport();
    const twoSegments = (i: number, first: string | null) => {
      const line = split.lines[i]!;
      line.segments = [
        { date: line.date, minutes: line.minutes - 10, percentage: 100, hour_code: first },
        { date: '2026-10-27', minutes: 10, percentage: 125.5, hour_code: '<N&GHT>' },
      ];
    };
    twoSegments(0, 'ORD');
    twoSegments(3, null);
    twoSegments(6, 'ORD');
    split.lines[4]!.segments = [];
    for (const report of [hhmm, flat, nested, split]) {
      const { fast, exceljs } = await bothWays(report);
      for (const name of parts) expect(fast[name], name).toBe(exceljs[name]);
    }
  });
});
