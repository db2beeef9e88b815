/**
 * A closed payroll period on the week sheet (docs/API.md "Closed periods"): a period closed
 * through the API (the page's bridge, as an integration would) greys out its days on the sheet:
 * their cells show their time but are disabled, with a title saying why, and the screen names
 * the period; the days after it stay open. The week is last week, counted from the run's fixed
 * day (dates.ts); the period is its Monday to Wednesday.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, testToday } from './dates.js';
import { bridgeApi, openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** The Monday of the run's ISO week, and last week's days. */
const thisMonday = addDays(testToday, -((new Date(`${testToday}T12:00:00Z`).getUTCDay() + 6) % 7));
const monday = addDays(thisMonday, -7);
const tuesday = addDays(monday, 1);
const wednesday = addDays(monday, 2);
const thursday = addDays(monday, 3);

/** A date's local time (this process runs in the planners' zone) as the API's ISO instant. */
function at(date: string, hour: number): string {
  const local = new Date(`${date}T00:00:00`);
  local.setHours(hour);
  return local.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** "Monday 19 October", as the sheet names a day in a cell's label. */
function dayName(date: string): string {
  return new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
}

test('the days of a closed period are greyed out on the week sheet, with why, and the days after it stay open', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);

  const { user_id: userId } = await bridgeApi(page, 'GET', '/v1/app_user');
  await bridgeApi(page, 'PUT', `/v1/user/${userId}`, { timezone: 'Europe/Amsterdam' });
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    { name: 'Frames', statuses: [{ name: 'To do', entry: true }], stages: [{ name: 'Welding' }] },
    { with: 'stages' },
  );
  const collection = await bridgeApi(page, 'POST', '/v1/collection', { name: 'SO-1001', board_id: board.id });
  const card = await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/card`, { stage_id: board.stages[0].id });
  await bridgeApi(page, 'POST', '/v1/time_tracking', { card_id: card.id, start: at(tuesday, 8), end: at(tuesday, 10) });
  await bridgeApi(page, 'POST', '/v1/time_tracking', { card_id: card.id, start: at(thursday, 8), end: at(thursday, 9) });
  await bridgeApi(page, 'POST', '/v1/time_tracking/period', { start: monday, end: wednesday });

  await openScreen(page, 'Time');
  await page.getByRole('button', { name: 'Previous week' }).click();
  const sheet = page.getByRole('table', { name: /^Timesheet of week/ });
  const cell = (date: string) => sheet.getByLabel(`SO-1001 · Welding, ${dayName(date)}`);

  await expect(page.getByText(/^Closed for payroll: /)).toBeVisible();
  for (const date of [monday, tuesday, wednesday]) {
    await expect(cell(date)).toBeDisabled();
    await expect(cell(date)).toHaveAttribute('title', /^Closed for payroll \(.+\): time on this day can no longer be changed$/);
  }
  // The time booked before the close still shows; the day after the period is open.
  await expect(cell(tuesday)).toHaveValue('2:00');
  await expect(cell(thursday)).toBeEnabled();
  await expect(cell(thursday)).toHaveValue('1:00');
  await cell(thursday).fill('1:30');
  await cell(thursday).press('Enter');
  await expect(sheet.getByLabel('Week total of SO-1001 · Welding')).toHaveText('3:30');
});
