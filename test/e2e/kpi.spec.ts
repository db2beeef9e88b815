/**
 * The KPI screen (issue 43 §4): a chart per figure over the last 26 weeks, each read out by its
 * label and shown as a table on request, with the API's figures; and the same figures saved as
 * an Excel workbook.
 *
 * Board Shop, every day a workday, one stage Work, statuses Ready (entry) and Done (exit). Two
 * finished collections, both done today (the run's fixed day: a card is done on the day it
 * reaches Done): SO-EARLY due a week from today, so on time; SO-LATE due three days ago, so
 * late. This week's on-time delivery is 1 of 2: 50 %. SO-OPEN is started and not done: work
 * in progress 1.
 */
import ExcelJS from 'exceljs';
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, testToday } from './dates.js';
import { bridgeApi, openScreen } from './planner-page.js';
import { seedShop } from './shop.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('the KPI screen charts the API figures, shows them as a table and saves them as Excel', async ({ page }) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(app.url);

  const shop = await seedShop(page, { days: 'every day', done: true });
  const collection = async (name: string, due: string, finished: boolean) => {
    const made = await bridgeApi(page, 'POST', '/v1/collection', { name, board_id: shop.boardId, due_date: due });
    const card = await bridgeApi(page, 'POST', `/v1/collection/${made.id}/card`, {
      stage_id: shop.stageId,
      start_date: addDays(testToday, -2),
      end_date: testToday,
    });
    if (finished) await bridgeApi(page, 'PUT', `/v1/collection/${made.id}/card/${card.id}`, { status_id: shop.doneId });
  };
  await collection('SO-EARLY', addDays(testToday, 7), true);
  await collection('SO-LATE', addDays(testToday, -3), true);
  await collection('SO-OPEN', addDays(testToday, 7), false);

  // The API's figure for this week, which the screen must show.
  const api = await bridgeApi(page, 'GET', '/v1/kpi', undefined, { board_id: shop.boardId, from: testToday, to: testToday });
  const thisWeek = api.data[0];
  expect(thisWeek.figures.board.on_time_delivery).toEqual({ numerator: 1, denominator: 2, ratio: 0.5 });
  expect(thisWeek.figures.board.work_in_progress).toBe(1);

  await openScreen(page, 'KPIs');
  const onTime = page.getByTestId('kpi-onTime');
  await expect(onTime.getByRole('heading', { name: 'On-time delivery' })).toBeVisible();
  // The canvas is read out as its label: the latest figure and how it moved.
  await expect(onTime.getByRole('img')).toHaveAccessibleName(/^On-time delivery: 50% in the week of .+, the first week with a figure$/);
  await expect(page.getByTestId('kpi-wip').getByRole('img')).toHaveAccessibleName(/^Work in progress: 1 in the week of /);

  // Show as table, by keyboard: 26 weeks, the last one the API's figure.
  const toggle = onTime.getByRole('button', { name: 'Show as table' });
  await toggle.focus();
  await page.keyboard.press('Enter');
  await expect(onTime.getByRole('button', { name: 'Hide the table' })).toHaveAttribute('aria-expanded', 'true');
  const rows = onTime.getByRole('table').getByRole('row');
  await expect(rows).toHaveCount(27);
  const shown = `${thisWeek.figures.board.on_time_delivery.ratio * 100}%`;
  await expect(rows.last().getByRole('cell')).toHaveText(shown);
  // A week without finished collections has no figure, not 0 %.
  await expect(rows.nth(1).getByRole('cell')).toHaveText('–');
  await onTime.getByRole('button', { name: 'Hide the table' }).click();
  await expect(onTime.getByRole('table')).toHaveCount(0);

  // Save as Excel: the same figure in the workbook's Board sheet, on this week's row.
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save as Excel' }).click()]);
  expect(download.suggestedFilename()).toMatch(/^kpi-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await download.path())!);
  const sheet = workbook.getWorksheet('Board')!;
  // exceljs' row values are 1-based with an empty first slot; the header is row 4.
  const header = (sheet.getRow(4).values as unknown[]).map(String);
  expect(sheet.rowCount).toBe(4 + 26);
  const last = sheet.getRow(sheet.rowCount);
  // The period's first day is a date cell, which exceljs reads back as a Date.
  expect((last.getCell(1).value as Date).toISOString().slice(0, 10)).toBe(thisWeek.period_start);
  expect(last.getCell(header.indexOf('On-time delivery')).value).toBe(0.5);
  expect(last.getCell(header.indexOf('Work in progress')).value).toBe(1);
  await expect(page.getByText(/^Downloaded kpi-.*\.xlsx\.$/)).toBeVisible();
});
