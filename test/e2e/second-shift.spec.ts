/**
 * A second shift in the resource form (docs/decisions/shifts.md, docs/API.md "Schedules and
 * capacity"): a planner gives the press a late shift on Monday and a Saturday shift, reads the
 * resource's schedule with both counted, and finds the row again in Dutch.
 *
 * The week read is that of Mon 2027-03-01 (a hard date): the press works 8 h Mon–Fri, its second
 * shift 8 h on Monday and 6 h on Saturday → 960, 480, 480, 480, 480, 360, 0.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { bridgeApi, openScreen, switchToDutch } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('a resource gets a second shift in the form, its schedule counts it, and the form reads it back in Dutch', async ({ page }) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.goto(app.url);

  await openScreen(page, 'Resources');
  const form = page.getByRole('form', { name: 'New resource' });
  await form.getByLabel('Resource name').fill('Press');
  const shift = form.getByRole('group', { name: 'Second shift: hours per weekday added (blank: none)' });
  await shift.getByLabel('Monday second shift hours').fill('8');
  await shift.getByLabel('Saturday second shift hours').fill('6');
  await form.getByRole('button', { name: 'Save resource' }).click();
  await expect(page.getByRole('list', { name: 'Resources' }).getByRole('listitem').filter({ hasText: 'Press' })).toBeVisible();

  const press = (await bridgeApi(page, 'GET', '/v1/resource')).data.find((r: any) => r.name === 'Press');
  expect(press.second_shift).toEqual({ '1': 8, '2': null, '3': null, '4': null, '5': null, '6': 6, '7': null });
  const week = await bridgeApi(page, 'GET', `/v1/resource/${press.id}/schedule`, undefined, {
    filter: 'date:gte:2027-03-01,and,date:lte:2027-03-07',
  });
  expect(week.data.map((d: any) => d.scheduled)).toEqual([960, 480, 480, 480, 480, 360, 0]);

  await switchToDutch(page);
  await openScreen(page, 'Resources');
  await page.getByRole('button', { name: 'Press bewerken' }).click();
  const dutch = page.getByRole('group', { name: 'Tweede ploeg: uren per weekdag erbij (leeg: geen)' });
  await expect(dutch.getByLabel('Maandag tweede ploeg, uren')).toHaveValue('8');
  await expect(dutch.getByLabel('Zaterdag tweede ploeg, uren')).toHaveValue('6');
  await expect(dutch.getByLabel('Dinsdag tweede ploeg, uren')).toHaveValue('');
});
