/**
 * Close a period, export to Loket.nl, see the balance (issue 44 §3 and §6; docs/API.md
 * "Overtime balance", "Payroll files"). Anna is linked to her resource and given her payroll
 * number in Settings → Employees, after the first start; October is closed through the API as
 * an integration (the admin) would; the payroll screen's export button opens the export
 * dialog on October, whose Loket.nl file is compared byte for byte; the payroll screen then
 * shows the balance October closed with as November's opening, and the planner books a payout
 * of an hour in November on the same screen, which draws it down. The periods are October and
 * November 2026 by their dates, so the spec holds on any day the run is fixed to
 * (test/helpers/test-clock.ts). Anna works in Europe/Amsterdam, her resource 8 hours Monday to
 * Friday; overtime counts per week:
 *
 *   October   Mon 5 – Fri 9 Oct, 08:00–17:00 (06:00–15:00 UTC, summer time)  5 × 9 h = 45 h
 *             expected 40 h                                      balance 0:00 → +5:00 → 5:00
 *   November  Mon 2 – Fri 6 Nov, 08:00–16:30 (07:00–15:30 UTC)    5 × 8.5 h = 42.5 h  +2:30
 *                                                                5:00 → +2:30 → 7:30
 *             a payout of 1 hour on Mon 30 Nov, booked on screen                       −1:00
 *                                                                5:00 → +1:30 → 6:30
 */
import { readFile } from 'node:fs/promises';
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { bridgeApi, openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const octoberDays = ['05', '06', '07', '08', '09'];
const novemberDays = ['02', '03', '04', '05', '06'];

async function seed(page: Page): Promise<string> {
  const welding = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Welding', hour_code: '100' });
  await bridgeApi(page, 'POST', '/v1/resource', {
    name: 'Press shop Anna',
    workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
  });
  await bridgeApi(page, 'POST', '/v1/user', { email: 'anna@example.com', role: 'member', firstname: 'Anna', lastname: 'Smit' });
  const anna = (await bridgeApi(page, 'GET', '/v1/user', undefined, { filter: "email:eq:'anna@example.com'" })).data[0];
  await bridgeApi(page, 'PUT', `/v1/user/${anna.id}`, { timezone: 'Europe/Amsterdam' });
  for (const day of octoberDays)
    await bridgeApi(page, 'POST', '/v1/time_tracking', {
      user_id: anna.id,
      activity_id: welding.id,
      start: `2026-10-${day}T06:00:00Z`,
      end: `2026-10-${day}T15:00:00Z`,
    });
  for (const day of novemberDays)
    await bridgeApi(page, 'POST', '/v1/time_tracking', {
      user_id: anna.id,
      activity_id: welding.id,
      start: `2026-11-${day}T07:00:00Z`,
      end: `2026-11-${day}T15:30:00Z`,
    });
  return anna.id;
}

/** Shows the payroll screen for a month by its dates. */
async function payrollFor(page: Page, from: string, to: string): Promise<void> {
  const panel = page.getByRole('tabpanel');
  await panel.getByLabel('Period').selectOption({ label: 'Custom range' });
  await panel.getByLabel('From', { exact: true }).fill(from);
  await panel.getByLabel('To', { exact: true }).fill(to);
}

/** Anna's row: her overtime opening, change and closing as shown. */
async function expectBalance(page: Page, opening: string, change: string, closing: string): Promise<void> {
  const row = page.getByRole('table', { name: 'Payroll summary' }).getByRole('row', { name: /Anna Smit/ });
  await expect(row.locator('[data-figure="opening_minutes"]')).toHaveText(opening);
  await expect(row.locator('[data-figure="change_minutes"]')).toHaveText(change);
  await expect(row.locator('[data-figure="closing_minutes"]')).toHaveText(closing);
}

test('close a period, export to Loket.nl, see the balance', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1600, height: 900 });
  await page.goto(app.url);
  const annaId = await seed(page);

  // Settings → Employees: Anna's resource and payroll number, at any time after the first start.
  await openScreen(page, 'Settings');
  const people = page.getByRole('region', { name: 'Employees' });
  await people.getByLabel('Resource of Anna Smit').selectOption({ label: 'Press shop Anna' });
  await people.getByLabel('Payroll number of Anna Smit').fill('1001');
  await people.getByLabel('Payroll number of Anna Smit').press('Enter');
  await expect
    .poll(async () => {
      const anna = await bridgeApi(page, 'GET', `/v1/user/${annaId}`);
      return [anna.resource_id !== null, anna.payroll_ref];
    })
    .toEqual([true, '1001']);

  // October is paid: closed, its balance frozen on the period.
  const october = await bridgeApi(page, 'POST', '/v1/time_tracking/period', { start: '2026-10-01', end: '2026-10-31' });
  expect(october.overtime_closing).toEqual({ [annaId]: 300 });

  await openScreen(page, 'Time');
  await page.getByRole('tab', { name: 'Payroll' }).click();
  await payrollFor(page, '2026-10-01', '2026-10-31');
  await expectBalance(page, '0:00', '5:00', '5:00');
  const table = page.getByRole('table', { name: 'Payroll summary' });
  await expect(table.getByRole('columnheader', { name: '100 100%' })).toBeVisible();
  await expect(table.getByRole('row', { name: /Anna Smit/ })).toContainText('45:00');

  // The export dialog opens on the payroll screen's October.
  await page.getByRole('button', { name: 'Export to a payroll package…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export time report' });
  await expect(dialog.getByLabel('From', { exact: true })).toHaveValue('2026-10-01');
  await expect(dialog.getByLabel('To', { exact: true })).toHaveValue('2026-10-31');
  await dialog.getByLabel('Time zone').fill('Europe/Amsterdam');
  await dialog.getByRole('radio', { name: 'Loket.nl' }).check();
  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Save Loket.nl' }).click()]);
  expect(download.suggestedFilename()).toBe('loket-hours-2026-10.csv');
  expect((await readFile((await download.path())!)).toString('hex')).toBe(
    Buffer.from(
      '\uFEFFWerknemernummer;Naam;Begindatum;Einddatum;Dienstverband;100\r\n' + '1001;Anna Smit;01-10-2026;31-10-2026;1;45,00\r\n',
      'utf8',
    ).toString('hex'),
  );
  await dialog.getByRole('button', { name: 'Close' }).last().click();

  // November opens with what October closed with, and a payout booked on the screen draws it down.
  await payrollFor(page, '2026-11-01', '2026-11-30');
  await expectBalance(page, '5:00', '2:30', '7:30');
  const correction = page.getByRole('form', { name: 'Correct an overtime balance' });
  await expect(correction.getByLabel('Employee')).toHaveValue(annaId);
  await expect(correction.getByLabel('On')).toHaveValue('2026-11-30');
  await correction.getByLabel('Hours').fill('1:00');
  await correction.getByLabel('Note for the bookkeeper').fill('Paid out with November');
  await correction.getByRole('button', { name: 'Book' }).click();
  await expect(page.getByRole('status').filter({ hasText: '1:00 h of Anna Smit’s overtime paid out.' })).toBeVisible();
  await expectBalance(page, '5:00', '1:30', '6:30');
  const [payout] = (await bridgeApi(page, 'GET', '/v1/overtime_correction')).data;
  expect(payout).toMatchObject({ user_id: annaId, date: '2026-11-30', minutes: -60, description: 'Paid out with November' });
  // Hours that are no duration are refused beside the field, and nothing is booked.
  await correction.getByLabel('Hours').fill('an hour');
  await correction.getByRole('button', { name: 'Book' }).click();
  await expect(correction.getByText('Type the hours, for example 6:00 or 1.5.')).toBeVisible();
  expect((await bridgeApi(page, 'GET', '/v1/overtime_correction')).data).toHaveLength(1);
});
