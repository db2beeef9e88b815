/**
 * The week sheet adds up (ux-walk-2, friction 3), as a planner meets it: a cell books time on
 * its own day only, beside the day's other time, so two rows of one day never flag each other
 * as overlapping; what does not fit is refused with what is free; a day far over the planner's
 * schedule asks "Book it" or "Correct it" first; a night shift counts on both its days on the
 * sheet exactly as in the report's CSV and the payroll summary; approving entries that really
 * overlap asks first; and the Dutch screen says all of it in Dutch. The resource, the board and
 * entries that are not the subject are made through the page's bridge, as an integration would.
 *
 * Pat Planner (the app's user) is the resource "Pat (welder)", 8 hours Monday to Friday. The
 * days are this week's, counted from the run's fixed day (dates.ts).
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, testToday } from './dates.js';
import { bridgeApi, openScreen, switchToDutch } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** The Monday of the run's ISO week, and the days after it. */
const monday = addDays(testToday, 1 - (((new Date(`${testToday}T12:00:00Z`).getUTCDay() + 6) % 7) + 1));
const saturday = addDays(monday, 5);
const sunday = addDays(monday, 6);

/** A date's local time (this process runs in the planners' zone) as the API's ISO instant. */
function at(date: string, hour: number): string {
  const local = new Date(`${date}T00:00:00`);
  local.setHours(hour);
  return local.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

/** "Monday 19 October", as the sheet names a day in a cell's label. */
function dayName(date: string, locale = 'en-GB'): string {
  return new Intl.DateTimeFormat(locale, { weekday: 'long', day: 'numeric', month: 'long', timeZone: 'UTC' }).format(
    new Date(`${date}T12:00:00Z`),
  );
}

/** Pat is the resource "Pat (welder)"; a card SO-1001 · Welding, and Packing for time on no card. */
async function seedWeek(page: Page): Promise<{ userId: string; cardId: string; packingId: string }> {
  const resource = await bridgeApi(page, 'POST', '/v1/resource', {
    name: 'Pat (welder)',
    workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
  });
  const { user_id: userId } = await bridgeApi(page, 'GET', '/v1/app_user');
  await bridgeApi(page, 'PUT', `/v1/user/${userId}`, { resource_id: resource.id, timezone: 'Europe/Amsterdam' });
  const welding = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Welding', code: 'WLD' });
  const packing = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Packing', code: 'PCK' });
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    { name: 'Frames', statuses: [{ name: 'To do', entry: true }], stages: [{ name: 'Welding', activities: [{ id: welding.id }] }] },
    { with: 'stages' },
  );
  const collection = await bridgeApi(page, 'POST', '/v1/collection', { name: 'SO-1001', board_id: board.id });
  const card = await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/card`, { stage_id: board.stages[0].id });
  return { userId, cardId: card.id, packingId: packing.id };
}

/** Pat's entries, earliest first. */
async function entriesOf(page: Page, userId: string): Promise<any[]> {
  return (await bridgeApi(page, 'GET', '/v1/time_tracking', undefined, { filter: `user_id:eq:'${userId}'`, sort: 'start:asc' })).data;
}

test('a cell books its own day beside the day’s other time, refuses what does not fit, and asks before a day far over the schedule', async ({
  page,
}) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { userId } = await seedWeek(page);

  await openScreen(page, 'Time');
  await page.getByRole('button', { name: 'Add a card' }).click();
  await page.getByLabel('Find a card to add to the week').fill('SO-1001');
  await page.getByRole('list', { name: 'Matching cards' }).getByRole('button', { name: 'SO-1001 · Welding', exact: true }).click();
  await page.getByRole('button', { name: 'Add an activity' }).click();
  await page
    .getByRole('list', { name: 'Matching activities' })
    .getByRole('button', { name: /Packing/ })
    .click();
  const sheet = page.getByRole('table', { name: /^Timesheet of week/ });
  const welding = sheet.getByLabel(`SO-1001 · Welding, ${dayName(monday)}`);
  const packing = sheet.getByLabel(`Packing · no card, ${dayName(monday)}`);
  const mondayTotal = sheet.getByLabel('Total Monday');

  // Four hours of welding, then two of packing: the packing starts where the welding ends.
  await welding.fill('4');
  await welding.press('Enter');
  await expect(sheet.getByLabel('Week total of SO-1001 · Welding')).toHaveText('4:00');
  await packing.fill('2');
  await packing.press('Enter');
  await expect(mondayTotal).toHaveText('6:00');
  const [weld, pack] = await entriesOf(page, userId);
  expect([weld.start, weld.end, pack.start, pack.end]).toEqual([at(monday, 9), at(monday, 13), at(monday, 13), at(monday, 15)]);
  expect([weld.overlaps, pack.overlaps]).toEqual([[], []]);
  await expect(sheet.getByRole('img', { name: 'Overlaps other time of the same person' })).toHaveCount(0);

  // 22 hours of packing beside 4 of welding: only 20 are free (the packing’s own 2 among them), and nothing changes.
  await packing.fill('22');
  await packing.press('Enter');
  await expect(page.getByRole('alert')).toContainText(
    `Only 20:00 of ${dayName(monday)} is free, so 22:00 does not fit. Time typed on the sheet stays within its day.`,
  );
  await expect(packing).toHaveValue('2:00');
  await expect(mondayTotal).toHaveText('6:00');
  await page.getByRole('button', { name: 'Dismiss' }).click();

  // Ten hours of packing make a 14-hour day against 8 scheduled: asked first. Corrected to 6.
  await packing.fill('10');
  await packing.press('Enter');
  const question = page.getByRole('dialog', { name: `Book 10:00 on ${dayName(monday)}?` });
  await expect(question).toContainText(`${dayName(monday)} would then hold 14:00: 6:00 more than the 8:00 scheduled that day.`);
  await question.getByRole('button', { name: 'Correct it' }).click();
  await expect(question).toBeHidden();
  expect((await entriesOf(page, userId))[1].duration).toBe(120);
  await expect(packing).toHaveValue('10');
  await packing.fill('6');
  await packing.press('Enter');
  await expect(mondayTotal).toHaveText('10:00');
  await expect(question).toBeHidden();

  // Asked again for ten, and booked: 13:00 to 23:00, still on Monday.
  await packing.fill('10');
  await packing.press('Enter');
  await question.getByRole('button', { name: 'Book 10:00' }).click();
  await expect(mondayTotal).toHaveText('14:00');
  const booked = (await entriesOf(page, userId))[1];
  expect([booked.start, booked.end, booked.overlaps]).toEqual([at(monday, 13), at(monday, 23), []]);
  await expect(sheet.getByLabel('Week total', { exact: true })).toHaveText('14:00');
});

test('a night shift counts on both its days on the sheet, as in the report’s CSV and the payroll summary', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { userId, cardId } = await seedWeek(page);
  // From the Sunday before into Monday, and from Saturday into Sunday (the night summer time
  // ends, when the run is at that Sunday: nine real hours).
  for (const [date, hour] of [
    [addDays(monday, -1), 22],
    [saturday, 22],
  ] as const)
    await bridgeApi(page, 'POST', '/v1/time_tracking', {
      user_id: userId,
      card_id: cardId,
      start: at(date, hour),
      end: at(addDays(date, 1), 6),
    });
  const sundayMinutes = (Date.parse(at(sunday, 6)) - Date.parse(at(sunday, 0))) / 60_000;

  await openScreen(page, 'Time');
  const sheet = page.getByRole('table', { name: /^Timesheet of week/ });
  const hours = (minutes: number) => `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
  await expect(sheet.getByLabel('Total Monday')).toHaveText('6:00');
  await expect(sheet.getByLabel('Total Saturday')).toHaveText('2:00');
  await expect(sheet.getByLabel('Total Sunday')).toHaveText(hours(sundayMinutes));
  await expect(sheet.getByLabel('Week total', { exact: true })).toHaveText(hours(360 + 120 + sundayMinutes));

  // The report of this week, by days, as CSV: the same minutes on the same dates.
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export time report' });
  await dialog.getByLabel('Period').selectOption({ label: 'This week' });
  await expect(dialog.getByLabel('Time zone')).toHaveValue('Europe/Amsterdam');
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Save CSV' }).click()]);
  const rows = (await readFile((await download.path())!, 'utf8'))
    .replace(/^\uFEFF/, '')
    .split(/\r?\n/)
    .map((line) => line.split(','));
  const minutesColumn = rows[0]!.indexOf('Minutes');
  const csvDays: Record<string, number> = {};
  for (const row of rows.filter((r) => /^\d{4}-\d{2}-\d{2}$/.test(r[0]!)))
    csvDays[row[0]!] = (csvDays[row[0]!] ?? 0) + Number(row[minutesColumn]);
  const sheetDays = { [monday]: 360, [saturday]: 120, [sunday]: sundayMinutes };
  expect(csvDays).toEqual(sheetDays);

  // The payroll summary (read through the API: no screen offers it yet) counts them so too.
  const payroll = await bridgeApi(page, 'GET', '/v1/time_tracking/payroll', undefined, {
    start: monday,
    end: sunday,
    timezone: 'Europe/Amsterdam',
    per: 'day',
    filter: `user_id:eq:'${userId}'`,
  });
  const worked = Object.fromEntries(
    payroll.users[0].buckets.filter((b: { worked_minutes: number }) => b.worked_minutes > 0).map((b: any) => [b.key, b.worked_minutes]),
  );
  expect(worked).toEqual(sheetDays);
});

test('approving entries that really overlap asks first, in the list and in the editor; others are approved at once', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { userId, cardId, packingId } = await seedWeek(page);
  const post = (body: object) => bridgeApi(page, 'POST', '/v1/time_tracking', { user_id: userId, ...body });
  const welding = await post({ card_id: cardId, start: at(monday, 10), end: at(monday, 12) });
  const packing = await post({ card_id: null, activity_id: packingId, start: at(monday, 11), end: at(monday, 12) });
  const apart = await post({ card_id: cardId, start: at(monday, 14), end: at(monday, 15) });

  await openScreen(page, 'Time');
  await page.getByRole('tab', { name: 'Entries' }).click();
  await page.getByLabel('Period').selectOption({ label: 'This week' });
  const list = page.getByRole('table', { name: 'Time entries' });
  await expect(list.getByRole('img', { name: 'Overlaps 1 other entry' })).toHaveCount(2);

  // The one that overlaps nothing: approved without a question.
  await list.getByRole('checkbox', { name: /14:00/ }).check();
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect(page.getByText('1 entry approved.')).toBeVisible();

  // The two that overlap: asked; Cancel approves nothing.
  await list.getByLabel('Select all shown').check();
  await page.getByRole('button', { name: 'Approve' }).click();
  const askTwo = page.getByRole('group', { name: '2 selected entries overlap other time of the same person. Approve anyway?' });
  await askTwo.getByRole('button', { name: 'Cancel' }).click();
  await expect(askTwo).toBeHidden();
  for (const entry of [welding, packing]) expect((await bridgeApi(page, 'GET', `/v1/time_tracking/${entry.id}`)).status).toBe('draft');

  // Approved in the entry editor: asked there too, before anything is saved.
  await list.getByRole('button', { name: /^Edit .*11:00–12:00/ }).click();
  const editor = page.getByRole('dialog', { name: /^Time on Packing/ });
  await editor.getByLabel('Status').selectOption({ label: 'Approved' });
  await editor.getByRole('button', { name: 'Save entry' }).click();
  await expect(editor.getByRole('alert')).toHaveText('This entry overlaps other time of the same person. Approve it anyway?');
  expect((await bridgeApi(page, 'GET', `/v1/time_tracking/${packing.id}`)).status).toBe('draft');
  await editor.getByRole('button', { name: 'Approve anyway' }).click();
  await expect(editor).toBeHidden();
  expect((await bridgeApi(page, 'GET', `/v1/time_tracking/${packing.id}`)).status).toBe('approved');

  // The last one, in the list: asked, and approved anyway.
  await list.getByLabel('Select all shown').check();
  await page.getByRole('button', { name: 'Approve' }).click();
  const askOne = page.getByRole('group', { name: '1 selected entry overlaps other time of the same person. Approve anyway?' });
  await askOne.getByRole('button', { name: 'Approve anyway' }).click();
  await expect(list.getByRole('img', { name: 'Locked' })).toHaveCount(3);
  for (const entry of [welding, packing, apart])
    expect((await bridgeApi(page, 'GET', `/v1/time_tracking/${entry.id}`)).status).toBe('approved');
});

test('the Dutch week sheet says in Dutch what does not fit and asks in Dutch', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { userId, cardId, packingId } = await seedWeek(page);
  await bridgeApi(page, 'POST', '/v1/time_tracking', { user_id: userId, card_id: cardId, start: at(monday, 9), end: at(monday, 13) });
  await bridgeApi(page, 'POST', '/v1/time_tracking', {
    user_id: userId,
    card_id: null,
    activity_id: packingId,
    start: at(monday, 13),
    end: at(monday, 15),
  });

  await switchToDutch(page);
  await openScreen(page, 'Tijd');
  const sheet = page.getByRole('table', { name: /^Urenstaat van week/ });
  const packing = sheet.getByLabel(`Packing · geen kaart, ${dayName(monday, 'nl-NL')}`);
  await packing.fill('22');
  await packing.press('Enter');
  await expect(page.getByRole('alert')).toContainText(
    `Van ${dayName(monday, 'nl-NL')} is nog maar 20:00 vrij, dus 22:00 past niet. Tijd uit de urenstaat blijft binnen zijn dag.`,
  );
  await packing.fill('10');
  await packing.press('Enter');
  const question = page.getByRole('dialog', { name: `10:00 boeken op ${dayName(monday, 'nl-NL')}?` });
  await expect(question).toContainText(
    `${dayName(monday, 'nl-NL')} telt dan 14:00: 6:00 meer dan de 8:00 die die dag op het rooster staat.`,
  );
  await question.getByRole('button', { name: '10:00 boeken' }).click();
  await expect(sheet.getByLabel('Totaal maandag')).toHaveText('14:00');
});
