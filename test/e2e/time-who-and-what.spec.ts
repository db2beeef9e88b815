/**
 * Time data payroll and billing can use (issue 17), as a new planner meets it: the app asks
 * who they are; the timer starts on a card whose name tells its stage apart from the other
 * cards of the order, and books for them with the stage's activity; an hour of a meeting goes
 * on the week sheet with no card; an end before the start is refused in the entry editor
 * unless it ends the next day. The board, the order's cards and the activities are made
 * through the page's bridge, as an integration would; everything else through the screens.
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from './fixtures.js';
import { e2ePlanner, newDataDir, startApp, type RunningApp } from './app.js';
import { testNow } from './dates.js';
import { bridgeApi, openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** Order SO-1001 on a board that saws and then paints it: one card per stage, both named by the order. */
async function seedOrder(page: Page) {
  const sawing = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Sawing', code: 'SAW', hourly_rate: 40, billable: true });
  const painting = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Painting', code: 'PNT', hourly_rate: 55, billable: true });
  const setup = {
    name: 'Workshop',
    statuses: [{ name: 'To do', priority: 0, entry: true, exit: false }],
    stages: [
      { name: 'Sawing', priority: 0, activities: [{ id: sawing.id }] },
      { name: 'Painting', priority: 1, activities: [{ id: painting.id }] },
    ],
  };
  const board = await bridgeApi(page, 'POST', '/v1/board', setup, { with: 'stages' });
  const stage = (name: string) => board.stages.find((s: { name: string }) => s.name === name).id;
  const collection = await bridgeApi(page, 'POST', '/v1/collection', { name: 'SO-1001', board_id: board.id });
  const sawCard = await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/card`, { stage_id: stage('Sawing') });
  await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/card`, { stage_id: stage('Painting') });
  return { sawing, painting, sawCard };
}

/** Today at a local hour, as the API's ISO instant. */
function todayAt(hour: number, minute = 0): string {
  const now = new Date(testNow);
  return new Date(now.getFullYear(), now.getMonth(), now.getDate(), hour, minute).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

test('a new planner says who they are, and the timer books for them on the sawing card of an order', async ({ page }) => {
  app = await startApp(newDataDir(), { appUser: 'ask' });
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  await bridgeApi(page, 'POST', '/v1/resource', { name: 'Saw 1' });
  const { sawing, sawCard } = await seedOrder(page);

  // First start: the app asks who the planner is. They are new here, and they are Saw 1.
  const ask = page.getByRole('region', { name: 'Who are you?' });
  await expect(ask).toBeVisible();
  await ask.getByLabel('First name').fill('Anna');
  await ask.getByLabel('Last name').fill('de Vries');
  await ask.getByLabel('E-mail').fill('anna@example.com');
  await ask.getByLabel('Resource you are (optional)').selectOption({ label: 'Saw 1' });
  await ask.getByRole('button', { name: 'Create and use' }).click();
  await expect(ask).toBeHidden();
  await openScreen(page, 'Settings');
  const you = page.getByRole('region', { name: 'You' });
  await expect(you.getByTestId('app-user-name')).toHaveText('Anna de Vries');
  await expect(you).toContainText('Saw 1');

  // The timer's card search tells the order's two cards apart by their stage.
  const timer = page.getByRole('group', { name: 'My timer' });
  await timer.getByRole('button', { name: 'Start timer' }).click();
  const picker = page.getByRole('dialog', { name: 'Start a timer' });
  await picker.getByLabel('Find the card to time').fill('SO-1001');
  const results = picker.getByRole('list', { name: 'Matching cards' });
  await expect(results.getByRole('button', { name: 'SO-1001 · Sawing', exact: true })).toBeVisible();
  await expect(results.getByRole('button', { name: 'SO-1001 · Painting', exact: true })).toBeVisible();
  await results.getByRole('button', { name: 'SO-1001 · Sawing', exact: true }).click();
  await expect(timer).toContainText('SO-1001 · Sawing');

  // The running entry is Anna's, on the sawing card, for the sawing activity (the stage's only one).
  const me = await bridgeApi(page, 'GET', '/v1/app_user');
  expect(me.user).toMatchObject({ fullname: 'Anna de Vries', email: 'anna@example.com' });
  const running = (await bridgeApi(page, 'GET', '/v1/time_tracking/running')).data;
  expect(running).toMatchObject({ card_id: sawCard.id, activity_id: sawing.id, user_id: me.user_id, running: true });
  await timer.getByRole('button', { name: 'Stop' }).click();
  await expect(timer.getByRole('button', { name: 'Start timer' })).toBeVisible();

  // The next start asks no more.
  await page.reload();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Who are you?' })).toHaveCount(0);
});

test('an hour of a team meeting goes on the week sheet with no card, for the planner', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const meeting = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Team meeting', code: 'MTG' });

  await openScreen(page, 'Time');
  await page.getByRole('button', { name: 'Add an activity' }).click();
  await page.getByLabel('Find an activity to book on no card (a meeting, cleaning, training)').fill('meet');
  await page
    .getByRole('list', { name: 'Matching activities' })
    .getByRole('button', { name: /Team meeting/ })
    .click();

  const sheet = page.getByRole('table', { name: /^Timesheet of week/ });
  await expect(sheet.getByRole('rowheader', { name: 'Team meeting · no card' })).toBeVisible();
  const today = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(testNow));
  const cell = sheet.getByLabel(`Team meeting · no card, ${today}`);
  await cell.fill('1');
  await cell.press('Enter');
  await expect(sheet.getByLabel('Week total of Team meeting · no card')).toHaveText('1:00');

  const entries = (await bridgeApi(page, 'GET', '/v1/time_tracking', undefined, { with: 'user' })).data;
  expect(entries).toHaveLength(1);
  expect(entries[0]).toMatchObject({ card_id: null, activity_id: meeting.id, duration: 60, user: { fullname: e2ePlanner.fullname } });
});

test('an end before the start is refused in the entry editor, and books a night shift only when it ends next day', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { sawCard } = await seedOrder(page);
  const entry = await bridgeApi(page, 'POST', '/v1/time_tracking', { card_id: sawCard.id, start: todayAt(9), end: todayAt(10) });

  await openScreen(page, 'Time');
  await page.getByRole('tab', { name: 'Entries' }).click();
  await page.getByRole('button', { name: /^Edit SO-1001 · Sawing/ }).click();
  const editor = page.getByRole('dialog', { name: 'Time on SO-1001 · Sawing' });

  // A typo: 08:00 after a 09:00 start. Refused beside the end; nothing is saved.
  await editor.getByLabel('End', { exact: true }).fill('08:00');
  await editor.getByRole('button', { name: 'Save entry' }).click();
  await expect(editor.getByText('The end is at or before the start.')).toBeVisible();
  await expect(editor.getByLabel('End', { exact: true })).toHaveAttribute('aria-invalid', 'true');
  const unchanged = await bridgeApi(page, 'GET', `/v1/time_tracking/${entry.id}`);
  expect(unchanged).toMatchObject({ start: entry.start, end: entry.end, duration: 60 });

  // A night shift: 22:00 to 06:00, ticked as ending the next day.
  await editor.getByLabel('Start', { exact: true }).fill('22:00');
  await editor.getByLabel('End', { exact: true }).fill('06:00');
  await editor.getByLabel('Ends next day').check();
  await editor.getByRole('button', { name: 'Save entry' }).click();
  await expect(editor).toBeHidden();
  const night = await bridgeApi(page, 'GET', `/v1/time_tracking/${entry.id}`);
  expect(night.duration).toBe(8 * 60);
  expect(Date.parse(night.start)).toBe(Date.parse(todayAt(22)));
});

test('a timer left running is flagged, and the next start asks when it really stopped', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { sawCard } = await seedOrder(page);
  // Started eleven hours ago and never stopped: past the planner's limit of 10 hours.
  const started = new Date(Date.parse(testNow) - 11 * 3_600_000);
  started.setSeconds(0, 0);
  const timer = await bridgeApi(page, 'POST', '/v1/time_tracking', {
    card_id: sawCard.id,
    start: started.toISOString().replace(/\.\d{3}Z$/, 'Z'),
  });
  expect(timer).toMatchObject({ running: true, forgotten: true });

  // The app starts again: it asks at once, and the top bar marks the timer.
  await page.reload();
  const ask = page.getByRole('dialog', { name: 'A timer was left running' });
  await expect(ask).toBeVisible();
  await expect(ask).toContainText('SO-1001 · Sawing');
  await expect(page.getByRole('group', { name: 'My timer' })).toContainText('Forgotten?');

  // It really stopped eight hours after it started.
  const end = new Date(started.getTime() + 8 * 3_600_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  await ask.getByLabel('Stopped on').fill(`${end.getFullYear()}-${pad(end.getMonth() + 1)}-${pad(end.getDate())}`);
  await ask.getByLabel('At', { exact: true }).fill(`${pad(end.getHours())}:${pad(end.getMinutes())}`);
  await ask.getByRole('button', { name: 'Stop it then' }).click();
  await expect(ask).toBeHidden();
  await expect(page.getByRole('group', { name: 'My timer' }).getByRole('button', { name: 'Start timer' })).toBeVisible();
  const stopped = await bridgeApi(page, 'GET', `/v1/time_tracking/${timer.id}`);
  expect(stopped).toMatchObject({ running: false, duration: 8 * 60, forgotten: false });
});

test('a report for payroll and billing names the user and the activity, and carries rate and amount', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  await seedOrder(page);
  await bridgeApi(page, 'POST', '/v1/activity', { description: 'Team meeting', code: 'MTG', hourly_rate: 30, billable: false });

  // Today: two hours of sawing on the order, and an hour of a meeting on no card.
  await openScreen(page, 'Time');
  const sheet = page.getByRole('table', { name: /^Timesheet of week/ });
  const today = new Intl.DateTimeFormat('en-GB', { weekday: 'long', day: 'numeric', month: 'long' }).format(new Date(testNow));
  await page.getByRole('button', { name: 'Add a card' }).click();
  await page.getByLabel('Find a card to add to the week').fill('SO-1001 sawing');
  await page.getByRole('list', { name: 'Matching cards' }).getByRole('button', { name: 'SO-1001 · Sawing', exact: true }).click();
  await sheet.getByLabel(`SO-1001 · Sawing, ${today}`).fill('2');
  await sheet.getByLabel(`SO-1001 · Sawing, ${today}`).press('Enter');
  await expect(sheet.getByLabel('Week total of SO-1001 · Sawing')).toHaveText('2:00');
  await page.getByRole('button', { name: 'Add an activity' }).click();
  await page
    .getByRole('list', { name: 'Matching activities' })
    .getByRole('button', { name: /Team meeting/ })
    .click();
  await sheet.getByLabel(`Team meeting · no card, ${today}`).fill('1');
  await sheet.getByLabel(`Team meeting · no card, ${today}`).press('Enter');
  await expect(sheet.getByLabel('Week total of Team meeting · no card')).toHaveText('1:00');

  // The preview adds up money too: 2 h × 40 billable, 1 h × 30 not billable.
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export time report' });
  await dialog.getByLabel('Period').selectOption({ label: 'Today' });
  await dialog.getByLabel('Group by', { exact: true }).selectOption({ label: 'Users' });
  const total = dialog.getByRole('status', { name: 'Total' });
  await expect(total).toContainText('3.00');
  await expect(total).toContainText('€110.00');
  await expect(dialog.getByLabel('Billable and not billable')).toHaveText('Billable €80.00 · not billable €30.00');
  await expect(dialog.getByRole('listitem').filter({ hasText: e2ePlanner.fullname })).toContainText('€110.00');

  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Save CSV' }).click()]);
  const rows = (await readFile((await download.path())!, 'utf8'))
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.split(','));
  const header = rows[0]!;
  const lines = rows
    .filter((row) => /^\d{4}-\d{2}-\d{2}$/.test(row[0]!))
    .map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]])));
  const by = (activity: string) => lines.find((line) => line.Activity === activity);
  expect(by('Sawing')).toMatchObject({
    User: e2ePlanner.fullname,
    Card: 'SO-1001 · Sawing',
    Minutes: '120',
    Billable: 'yes',
    Rate: '40.00',
    Amount: '80.00',
  });
  expect(by('Team meeting')).toMatchObject({
    User: e2ePlanner.fullname,
    Card: '',
    Minutes: '60',
    Billable: 'no',
    Rate: '30.00',
    Amount: '30.00',
  });
  expect(rows.find((row) => row[0] === 'Grand total')![header.indexOf('Amount')]).toBe('110.00');
});
