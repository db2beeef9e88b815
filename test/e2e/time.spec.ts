/**
 * The Time screens as a new planner uses them: a timer started from the top bar on a card and
 * stopped again, hours typed into the week sheet, the entries seen in the list, a CSV and an
 * XLSX report exported through the dialog (the downloaded files' totals checked), and the
 * report marked as exported. The board, collection and card are made through the page's
 * bridge, as an integration would; everything else through the screens.
 *
 * With PLANNER_SCREENSHOTS=1 it also (re)takes docs/screenshots/time-*.png.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from './fixtures.js';
import ExcelJS from 'exceljs';
import { startApp, type RunningApp } from './app.js';
import { testNow } from './dates.js';
import { bridgeApi, openScreen } from './planner-page.js';
import { retakeScreenshot } from './readme-screenshots.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** A board with a welding stage, a collection and a card with five hours of welding planned. */
async function seedCard(page: Page): Promise<{ cardId: string }> {
  const activity = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Welding', code: 'WLD' });
  const board = await bridgeApi(page, 'POST', '/v1/board', {
    name: 'Frames',
    stages: [{ name: 'Welding', activities: [{ id: activity.id }] }],
  });
  await bridgeApi(page, 'POST', `/v1/board/${board.id}/status`, { name: 'To do' });
  const stages = await bridgeApi(page, 'GET', '/v1/stage', undefined, { filter: `board_id:eq:'${board.id}'` });
  const collection = await bridgeApi(page, 'POST', '/v1/collection', { name: 'Frame A', board_id: board.id });
  const card = await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/card`, {
    stage_id: stages.data[0].id,
    name: 'Weld frame A',
    activities: [{ id: activity.id, time: 300 }],
  });
  return { cardId: card.id };
}

/** The card's display name: its collection, its own name and its stage (issue 17). */
const cardShown = 'Frame A · Weld frame A · Welding';

/** Two days of this ISO week other than today (today holds the timer's entry), as the sheet labels their cells. */
function otherWeekDays(): [string, string] {
  const today = new Date(testNow);
  const monday = new Date(today.getFullYear(), today.getMonth(), today.getDate() - ((today.getDay() + 6) % 7));
  const days = Array.from({ length: 7 }, (_, i) => new Date(monday.getFullYear(), monday.getMonth(), monday.getDate() + i)).filter(
    (day) => day.getDate() !== today.getDate(),
  );
  const label = (date: Date) => new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long' }).format(date);
  return [label(days[0]!), label(days[1]!)];
}

/** CSV rows, for a report whose fields hold no quotes or separators. */
function csvRows(text: string): string[][] {
  return text
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .filter(Boolean)
    .map((line) => line.split(','));
}

test('a new planner tracks time with the timer and the week sheet, exports CSV and XLSX and marks them exported', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { cardId } = await seedCard(page);

  // The timer, from the top bar: pick the card, watch it tick, stop it.
  const timer = page.getByRole('group', { name: 'My timer' });
  await timer.getByRole('button', { name: 'Start timer' }).click();
  await page.getByLabel('Find the card to time').fill('weld');
  await page
    .getByRole('dialog', { name: 'Start a timer' })
    .getByRole('button', { name: /Weld frame A/ })
    .click();
  await expect(timer).toContainText('Weld frame A');
  const elapsed = timer.getByRole('timer');
  await expect(elapsed).toHaveText(/^0:00:0\d$/);
  const first = await elapsed.textContent();
  await expect(elapsed).not.toHaveText(first!);
  const running = await bridgeApi(page, 'GET', '/v1/time_tracking/running');
  expect(running.data).toMatchObject({ card_id: cardId, running: true });
  await timer.getByRole('button', { name: 'Stop' }).click();
  await expect(timer.getByRole('button', { name: 'Start timer' })).toBeVisible();
  expect((await bridgeApi(page, 'GET', '/v1/time_tracking/running')).data).toBeNull();

  // The week sheet: the card has a row (the timer's entry); type hours for two other days.
  await openScreen(page, 'Time');
  const sheet = page.getByRole('table', { name: /^Timesheet of week/ });
  await expect(sheet.getByRole('rowheader', { name: /Weld frame A/ })).toBeVisible();
  const [firstDay, secondDay] = otherWeekDays();
  const firstCell = sheet.getByLabel(`${cardShown}, ${firstDay}`);
  await firstCell.fill('1:30');
  await firstCell.press('Enter');
  await expect(sheet.getByLabel(`Week total of ${cardShown}`)).toHaveText('1:30');
  const secondCell = sheet.getByLabel(`${cardShown}, ${secondDay}`);
  await secondCell.fill('2.5');
  await secondCell.press('Tab');
  await expect(sheet.getByLabel(`Week total of ${cardShown}`)).toHaveText('4:00');
  // Adjusting the first day changes its one entry instead of adding another.
  await firstCell.fill('60m');
  await firstCell.press('Enter');
  await expect(sheet.getByLabel(`Week total of ${cardShown}`)).toHaveText('3:30');
  await expect(sheet.getByLabel('Week total', { exact: true })).toHaveText('3:30');
  await expect(sheet.getByRole('row', { name: /Weld frame A/ })).toContainText('3:30 / 5:00');
  await page.getByRole('heading', { name: 'Time', level: 1 }).click();
  await retakeScreenshot(page, 'time-week.png');
  // Nonsense is refused with a reason, and nothing changes.
  await secondCell.fill('lots');
  await secondCell.press('Enter');
  await expect(page.getByRole('alert')).toContainText('“lots” is not a duration');
  await expect(secondCell).toHaveValue('2:30');
  const entries = await bridgeApi(page, 'GET', '/v1/time_tracking', undefined, { filter: `card_id:eq:'${cardId}'`, limit: '100' });
  expect(entries.count).toBe(3);
  expect(entries.data.reduce((sum: number, entry: { duration: number }) => sum + entry.duration, 0)).toBe(210);

  // The entries list shows them; an API-key caller is a planner, so it may approve.
  await page.getByRole('tab', { name: 'Entries' }).click();
  await expect(page.getByRole('status').filter({ hasText: '3 entries' })).toBeVisible();
  await expect(page.getByRole('button', { name: 'Approve' })).toBeDisabled();
  await retakeScreenshot(page, 'time-entries.png');

  // Export: this week, grouped by days, as CSV; the preview adds up first.
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export time report' });
  await dialog.getByLabel('Period').selectOption({ label: 'This week' });
  await expect(dialog.getByRole('status', { name: 'Total' })).toContainText('3.50');
  await expect(dialog.getByRole('status', { name: 'Total' })).toContainText('3 entries');
  await retakeScreenshot(page, 'time-export.png');

  const [csvDownload] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Save CSV' }).click()]);
  expect(csvDownload.suggestedFilename()).toMatch(/^time-report-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = csvRows(await readFile((await csvDownload.path())!, 'utf8'));
  const header = csv[0]!;
  const grand = csv.find((row) => row[0] === 'Grand total')!;
  expect(grand[header.indexOf('Minutes')]).toBe('210');
  expect(grand[header.indexOf('Duration')]).toBe('3.50');
  const lineMinutes = csv.filter((row) => /^\d{4}-\d{2}-\d{2}$/.test(row[0]!)).map((row) => Number(row[header.indexOf('Minutes')]));
  expect(lineMinutes.reduce((sum, minutes) => sum + minutes, 0)).toBe(210);
  await expect(dialog.getByText(/^Downloaded time-report-.*\.csv\.$/)).toBeVisible();

  // The same report as XLSX, in hours and minutes.
  await dialog.getByRole('radio', { name: 'Excel (XLSX)' }).check();
  await dialog.getByRole('radio', { name: 'Hours and minutes (1:30)' }).check();
  await expect(dialog.getByRole('status', { name: 'Total' })).toContainText('3:30');
  const [xlsxDownload] = await Promise.all([
    page.waitForEvent('download'),
    dialog.getByRole('button', { name: 'Save Excel (XLSX)' }).click(),
  ]);
  expect(xlsxDownload.suggestedFilename()).toMatch(/\.xlsx$/);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.readFile((await xlsxDownload.path())!);
  const report = workbook.getWorksheet('Report')!;
  let headerRow = 0;
  let grandRow = 0;
  report.eachRow((row, number) => {
    if (row.getCell(1).value === 'Date') headerRow = number;
    if (row.getCell(1).value === 'Grand total') grandRow = number;
  });
  expect(headerRow).toBeGreaterThan(0);
  const minutesColumn = (report.getRow(headerRow).values as unknown[]).indexOf('Minutes');
  expect(report.getRow(grandRow).getCell(minutesColumn).value).toBe(210);

  // Mark as exported: every entry of the report is stamped, and the next report without
  // exported entries is empty.
  await dialog.getByRole('button', { name: 'Mark as exported' }).click();
  await expect(dialog.getByText('3 entries marked as exported.')).toBeVisible();
  const marked = await bridgeApi(page, 'GET', '/v1/time_tracking', undefined, { filter: 'synchronized_at:eq:null', limit: '0' });
  expect(marked.count).toBe(0);
  await dialog.getByLabel('Only entries not exported before').check();
  await expect(dialog.getByRole('status', { name: 'Total' })).toContainText('0:00');
  await dialog.getByRole('button', { name: 'Close' }).last().click();
  await expect(dialog).toBeHidden();
});

test('a bulk reject says which entries it could not change, and approved entries are locked in the list and the sheet', async ({
  page,
}) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { cardId } = await seedCard(page);
  const today = new Date(testNow);
  const at = (hours: number) => new Date(today.getFullYear(), today.getMonth(), today.getDate(), hours).toISOString();
  const first = await bridgeApi(page, 'POST', '/v1/time_tracking', { card_id: cardId, start: at(8), end: at(9) });
  const second = await bridgeApi(page, 'POST', '/v1/time_tracking', { card_id: cardId, start: at(10), end: at(11), status: 'pending' });
  await bridgeApi(page, 'POST', '/v1/time_tracking', { card_id: cardId, start: at(12), end: at(13) });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Time', exact: true }).click();
  await page.getByRole('tab', { name: 'Entries' }).click();
  const list = page.getByRole('table', { name: 'Time entries' });
  await expect(list.getByRole('row')).toHaveCount(4);

  // Reject all three: only the pending one may be rejected; the drafts say why not. The
  // command is all or nothing, so nothing is rejected yet and the pending one stays selected.
  await list.getByLabel('Select all shown').check();
  await page.getByRole('button', { name: 'Reject' }).click();
  const failures = page.getByRole('alert').filter({ hasText: 'could not be changed' });
  await expect(failures).toContainText('2 entries could not be changed');
  await expect(failures).toContainText('Nothing was changed');
  await expect(failures.getByRole('listitem')).toHaveCount(2);
  await expect(failures.getByRole('listitem').first()).toContainText('cannot change from draft to rejected');
  expect((await bridgeApi(page, 'GET', `/v1/time_tracking/${second.id}`)).status).toBe('pending');
  await expect(page.getByText('1 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Reject' }).click();
  await expect(page.getByText('1 entry rejected.')).toBeVisible();
  expect((await bridgeApi(page, 'GET', `/v1/time_tracking/${second.id}`)).status).toBe('rejected');

  // Approve the two drafts. Approved entries are locked.
  await list.getByLabel('Select all shown').check();
  await list.getByRole('checkbox', { name: /10:00/ }).uncheck();
  await expect(page.getByText('2 selected')).toBeVisible();
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('2 entries approved.')).toBeVisible();
  await expect(list.getByRole('img', { name: 'Locked' })).toHaveCount(2);
  await expect(list.getByRole('button', { name: /^Edit / })).toHaveCount(1);

  // A planner reopens one: it is unlocked again (pending).
  await list.getByRole('button', { name: /^Reopen .*08:00/ }).click();
  await expect(list.getByRole('img', { name: 'Locked' })).toHaveCount(1);
  expect((await bridgeApi(page, 'GET', `/v1/time_tracking/${first.id}`)).status).toBe('pending');

  // The sheet: three entries in today's cell open as a list, the locked one with a lock.
  await page.getByRole('tab', { name: 'Week' }).click();
  const label = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long' }).format(today);
  await page.getByRole('button', { name: new RegExp(`^${cardShown}, ${label}: 3 entries`) }).click();
  const cellEntries = page.getByRole('dialog', { name: `Entries of ${cardShown}, ${label}` });
  await expect(cellEntries.getByLabel('Locked')).toHaveCount(1);
  await expect(cellEntries.getByRole('textbox')).toHaveCount(3);
  await expect(cellEntries.getByRole('button', { name: /^Delete the entry/ })).toHaveCount(2);
});
