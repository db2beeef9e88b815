/**
 * The PDF report file, its text extracted again with `pdftotext -layout` (poppler-utils) and
 * compared with the worked example's model: heading, groups, subtotals, grand total, page
 * numbers, the header row on every page of a long report, cut and transliterated text.
 */
import { describe, expect, it } from 'vitest';
import { drawable } from '../../electron/api/time-tracking/export/pdf-text.js';
import { writePdf } from '../../electron/api/time-tracking/export/pdf.js';
import type { TimeReport } from '../../shared/time-report.js';
import { bulkReport, moneyOf, pdfText, readAll, workedReport } from '../helpers/time-report.js';

const textOf = async (report: TimeReport) => pdfText(await readAll(writePdf(report)));
const pagesOf = (text: string) => text.split('\f').filter((page) => page.trim());
const headerRow =
  /Board\s+Card\s+Activity\s+Status\s+Start\s+End\s+Duration\s+Hour code\s+%\s+Rate\s+Amount EUR\s+Billable\s+Overlap\s+Note/;

describe('PDF report file', () => {
  it('opens with the title, the period, the time zone, the filters, who exported it and the currency', async () => {
    const text = await textOf(workedReport());
    expect(text).toContain('Time report October');
    expect(text).toMatch(/Period: 2026-10-24 – 2026-10-26\s+Time zone: Europe\/Amsterdam/);
    expect(text).toContain('Filters: status: approved,pending');
    expect(text).toMatch(/Grouped by: users, days\s+Generated: 2026-10-27 08:00/);
    expect(text).toMatch(/Exported by: Carla Planner\s+Currency: EUR/);
  });

  it('prints each group with its heading, lines and subtotal, and the grand total, as the model has them', async () => {
    const text = await textOf(workedReport());
    const expected = [
      /User: Alice Andersen/,
      /Day: 2026-10-24/,
      /Welding\s+Frame 7\s+Assembly\s+approved\s+22:30\s+24:00\s+1\.50\s+100\s+40\.00\s+60\.00\s+yes\s+Night shift/,
      /Total 2026-10-24\s+1\.50\s+60\.00/,
      /Day: 2026-10-25/,
      /00:00\s+01:15\s+1\.25\s+100\s+40\.00\s+50\.00/,
      /Inspection\s+approved\s+01:30\s+02:30\s+2\.00\s+100\s+25\.00\s+50\.00\s+no/,
      /Total 2026-10-25\s+3\.25\s+100\.00/,
      /Total 2026-10-26\s+3\.00\s+120\.00/,
      /Total Alice Andersen\s+7\.75\s+280\.00/,
      /User: Brown, Bob/,
      /13:00\s+13:20\s+0\.33\s+100\s+40\.00\s+13\.33\s+yes\s+yes/,
      /Total 2026-10-24\s+4\.83\s+193\.33/,
      /23:00\s+24:00\s+1\.00/,
      /Total Brown, Bob\s+5\.83\s+233\.33/,
      /Grand total\s+13\.58\s+513\.33/,
      /Billable\s+11\.58\s+463\.33/,
      /Non-billable\s+2\.00\s+50\.00/,
    ];
    let rest = text;
    for (const pattern of expected) {
      const match = pattern.exec(rest);
      expect(match, `${pattern} after the previous one`).not.toBeNull();
      rest = rest.slice(match!.index + match![0].length);
    }
  });

  it("prints a line's hour code and percentage, and a split line's segments on rows of their own that add to no total", async () => {
    const report = workedReport();
    // Alice's first line (Saturday 22:30–24:00, 90 minutes) as if a rule paid the hour from 23:00
    // at 125.5 % under NIGHT, and that hour fell on the next day on her own clock; Bob's last line
    // (Monday 23:00–24:00) one segment under ORD.
    report.lines[0] = {
      ...report.lines[0]!,
      hour_code: 'ORD',
      segments: [
        { date: '2026-10-24', minutes: 30, percentage: 100, hour_code: 'ORD' },
        { date: '2026-10-25', minutes: 60, percentage: 125.5, hour_code: 'NIGHT' },
      ],
    };
    report.lines[6]!.segments = [{ date: '2026-10-26', minutes: 60, percentage: 100, hour_code: 'ORD' }];
    const text = await textOf(report);
    expect(text).toMatch(headerRow);
    const rows = text.split('\n');
    const at = rows.findIndex((row) => /22:30\s+24:00/.test(row));
    // The split line leaves Hour code and % empty; its segments follow it, then the day's total.
    expect(rows[at]).toMatch(/22:30\s+24:00\s+1\.50\s+40\.00\s+60\.00\s+yes\s+Night shift/);
    expect(rows[at + 1]).toMatch(/^\s+of which\s+0\.50\s+ORD\s+100\s*$/);
    expect(rows[at + 2]).toMatch(/^\s+of which on 2026-10-25\s+1\.00\s+NIGHT\s+125\.5\s*$/);
    expect(rows[at + 3]).toMatch(/^\s+Total 2026-10-24\s+1\.50\s+60\.00\s*$/);
    expect(text).toMatch(/23:00\s+24:00\s+1\.00\s+ORD\s+100\s+40\.00\s+40\.00\s+yes\s+@night/);
    // Totals are the lines' as before.
    expect(text).toMatch(/Grand total\s+13\.58\s+513\.33/);
    expect(text.match(/of which/g)).toHaveLength(2);
  });

  it('keeps a split line and its segments on one page', async () => {
    const report = bulkReport(1, 2, 100);
    for (const line of report.lines)
      line.segments = [
        { date: line.date, minutes: 2, percentage: 100, hour_code: 'ORD' },
        { date: line.date, minutes: 2, percentage: 125, hour_code: 'NIGHT' },
      ];
    const pages = pagesOf(await textOf(report));
    expect(pages.length).toBeGreaterThan(1);
    for (const page of pages) {
      const rows = page.split('\n').filter((row) => row.trim() && !/Page \d+ of/.test(row));
      // No page starts (after its header and caption) with a segment row or ends on a line cut from them.
      const firstLine = rows.findIndex((row) => /\d\d:\d\d\s+\d\d:\d\d/.test(row) || /of which/.test(row));
      expect(rows[firstLine]).not.toMatch(/of which/);
      expect(rows.at(-1)).not.toMatch(/\d\d:\d\d\s+\d\d:\d\d\s+0\.07/);
    }
    expect(pages.join('').match(/of which\s+0\.03\s+NIGHT\s+125/g)).toHaveLength(200);
  });

  it('leaves out the columns the grouping already shows', async () => {
    const text = await textOf(workedReport());
    expect(text).toMatch(headerRow);
    expect(text).not.toMatch(/\bUser\s+Board\b/);
    expect(text).not.toMatch(/\bDate\s+/);
    const report = workedReport();
    const byStatus = await textOf({
      ...report,
      group_by: ['statuses'],
      groups: [
        { grouping: 'statuses', key: 'approved', label: 'approved', minutes: 815, ...moneyOf(report.lines), lines: [0, 1, 2, 3, 4, 5, 6] },
      ],
    });
    expect(byStatus).toMatch(
      /Date\s+User\s+Board\s+Card\s+Activity\s+Start\s+End\s+Duration\s+Hour code\s+%\s+Rate\s+Amount EUR\s+Billable\s+Overlap\s+Note/,
    );
  });

  it('prints hh:mm durations when the report asks for them', async () => {
    const text = await textOf(workedReport('hh:mm'));
    expect(text).toMatch(/Total 2026-10-25\s+3:15/);
    expect(text).toMatch(/Total Alice Andersen\s+7:45/);
    expect(text).toMatch(/Total Brown, Bob\s+5:50/);
    expect(text).toMatch(/Grand total\s+13:35/);
  });

  it('numbers its pages', async () => {
    const pages = pagesOf(await textOf(workedReport()));
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatch(/Time report October · 2026-10-24 – 2026-10-26 · Europe\/Amsterdam\s+Page 1 of 1/);
  });

  it('spreads a 3,000-line report over pages that each start with the header row and say which group goes on', async () => {
    const report = bulkReport(3, 10, 100);
    const text = await textOf(report);
    const pages = pagesOf(text);
    expect(pages.length).toBeGreaterThan(50);
    pages.forEach((page, i) => {
      expect(page, `page ${i + 1}`).toMatch(headerRow);
      expect(page, `page ${i + 1}`).toContain(`Page ${i + 1} of ${pages.length}`);
    });
    expect(pages[1]).toMatch(/User: Worker 0 Example-Name › Day: 2026-11-01 \(continued\)/);
    // Every line is printed once, and the totals add up: 3,000 lines of 4 minutes.
    expect(text.match(/\d\d:\d\d\s+\d\d:\d\d\s+0\.07/g)).toHaveLength(3000);
    expect(text.match(/Total 2026-11-\d\d\s+6\.67/g)).toHaveLength(30);
    expect(text.match(/Total Worker \d Example-Name\s+66\.67/g)).toHaveLength(3);
    expect(pages.at(-1)).toMatch(/Grand total\s+200\.00/);
  });

  it('never leaves a group heading alone at the foot of a page', async () => {
    const pages = pagesOf(await textOf(bulkReport(3, 10, 100)));
    for (const page of pages) {
      const rows = page.split('\n').filter((row) => row.trim() && !/Page \d+ of/.test(row));
      expect(rows.at(-1)).not.toMatch(/^\s*(User|Day): /);
    }
  });

  it('cuts text too wide for its column with an ellipsis', async () => {
    const report = workedReport();
    report.lines[0]!.card = 'An extraordinarily long card name that cannot possibly fit in its column';
    const text = await textOf(report);
    expect(text).not.toContain('cannot possibly fit');
    expect(text).toMatch(/An extraordinarily[\w ]*…/);
    // The next column still starts where it should.
    expect(text).toMatch(/…\s+Assembly\s+approved\s+22:30/);
  });

  it('transliterates or replaces what Helvetica cannot draw, and draws what needs escaping', async () => {
    const report = workedReport();
    report.lines[6]!.note = 'Paren (a) back\\slash € “q” ő';
    const text = await textOf(report);
    expect(text).toContain('Zürich – Lódz ?? ?mega');
    expect(text).toContain('Paren (a) back\\slash € “q” o');
    // The note with a line break stays on one line (cut where the column ends).
    expect(text).toMatch(/Fixed "the" bug; tested, deployed sec\w*…/);
  });

  it('maps text to WinAnsi: Latin-1 kept, accents dropped, other scripts as ?', () => {
    expect(drawable('Crème brûlée')).toBe('Crème brûlée');
    expect(drawable('Łódź, Kraków, Dvořák, ﬁsh')).toBe('Lódz, Kraków, Dvorák, fish');
    expect(drawable('Привет 😀 東京')).toBe('?????? ? ??');
    expect(drawable('tab\there\r\nnext\u0007')).toBe('tab here  next');
    expect(drawable('€ – — … ™ Œ')).toBe('€ – — … ™ Œ');
  });
});
