/**
 * Export to Loket.nl (docs/API.md "Payroll files") through the Time screen's export dialog: a
 * month of hours and an absence become the Loket.nl file, byte for byte; "Mark as exported"
 * stamps the worked entries, and the next file of entries not exported before carries only the
 * absence. The period is November 2026 by its dates, so the spec holds on any day the run is
 * fixed to (test/helpers/test-clock.ts). The records are made through the page's bridge, as an integration
 * would: an activity with hour code 100 and Anna, employee 1001, whose resource works 8 hours
 * Monday to Friday. The payroll settings (vacation under 300) are typed into Settings:
 *
 *   Mon 2 Nov 08:00–16:30 Amsterdam (07:00–15:30 UTC), Welding   510 min → 100   8,50
 *   vacation Mon 9 Nov, whole day                                 480 min → 300   8,00
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

async function seedNovember(page: Page): Promise<void> {
  const welding = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Welding', hour_code: '100' });
  const resource = await bridgeApi(page, 'POST', '/v1/resource', {
    name: 'Anna',
    workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
  });
  await bridgeApi(page, 'POST', '/v1/user', { email: 'anna@example.com', role: 'member', firstname: 'Anna', lastname: 'Smit' });
  const anna = (await bridgeApi(page, 'GET', '/v1/user', undefined, { filter: "email:eq:'anna@example.com'" })).data[0];
  await bridgeApi(page, 'PUT', `/v1/user/${anna.id}`, { resource_id: resource.id, payroll_ref: '1001', timezone: 'Europe/Amsterdam' });
  await bridgeApi(page, 'POST', '/v1/time_tracking', {
    user_id: anna.id,
    activity_id: welding.id,
    start: '2026-11-02T07:00:00Z',
    end: '2026-11-02T15:30:00Z',
  });
  await bridgeApi(page, 'POST', `/v1/resource/${resource.id}/schedule_deviation`, {
    type: 'vacation',
    start_date: '2026-11-09',
    end_date: '2026-11-09',
  });
}

test('export to Loket.nl', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  await seedNovember(page);

  // Settings → Payroll files: the absence codes, saved as the environment's one record.
  await openScreen(page, 'Settings');
  const settings = page.getByRole('region', { name: 'Payroll files' });
  await settings.getByLabel('Hour code for vacation').fill('300');
  await settings.getByLabel('Hour code for sick leave').fill('310');
  await settings.getByRole('button', { name: 'Save payroll settings' }).click();
  await expect
    .poll(async () =>
      (await bridgeApi(page, 'GET', '/v1/payroll_setting')).data.map((s: { vacation_hour_code: string }) => s.vacation_hour_code),
    )
    .toEqual(['300']);
  // Changed again, it is the same record.
  await settings.getByLabel('Hour code for public holidays').fill('330');
  await settings.getByRole('button', { name: 'Save payroll settings' }).click();
  await expect
    .poll(async () =>
      (await bridgeApi(page, 'GET', '/v1/payroll_setting')).data.map((s: { holiday_hour_code: string }) => s.holiday_hour_code),
    )
    .toEqual(['330']);

  await openScreen(page, 'Time');
  await page.getByRole('button', { name: 'Export…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Export time report' });
  // November by its dates, whatever day the run believes it is.
  await dialog.getByLabel('Period').selectOption({ label: 'Custom range' });
  await dialog.getByLabel('From', { exact: true }).fill('2026-11-01');
  await dialog.getByLabel('To', { exact: true }).fill('2026-11-30');
  await dialog.getByLabel('Time zone').fill('Europe/Amsterdam');
  await dialog.getByRole('radio', { name: 'Loket.nl' }).check();
  await expect(dialog.getByText('Hours per employee and hour code for one month, absences included', { exact: false })).toBeVisible();
  await expect(dialog.getByRole('status', { name: 'Total' })).toContainText('8.50');

  const [download] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Save Loket.nl' }).click()]);
  expect(download.suggestedFilename()).toBe('loket-hours-2026-11.csv');
  expect((await readFile((await download.path())!)).toString('hex')).toBe(
    Buffer.from(
      '\uFEFFWerknemernummer;Naam;Begindatum;Einddatum;Dienstverband;100;300\r\n' + '1001;Anna Smit;01-11-2026;30-11-2026;1;8,50;8,00\r\n',
      'utf8',
    ).toString('hex'),
  );
  await expect(dialog.getByText('Downloaded loket-hours-2026-11.csv.')).toBeVisible();

  // Marked as exported, the worked hours leave the next file; the absence is no entry and stays.
  await dialog.getByRole('button', { name: 'Mark as exported' }).click();
  await expect(dialog.getByText('1 entry marked as exported.')).toBeVisible();
  await dialog.getByLabel('Only entries not exported before').check();
  await expect(dialog.getByRole('status', { name: 'Total' })).toContainText('0.00');
  const [again] = await Promise.all([page.waitForEvent('download'), dialog.getByRole('button', { name: 'Save Loket.nl' }).click()]);
  expect(await readFile((await again.path())!, 'utf8')).toBe(
    '\uFEFFWerknemernummer;Naam;Begindatum;Einddatum;Dienstverband;300\r\n1001;Anna Smit;01-11-2026;30-11-2026;1;8,00\r\n',
  );

  // A period over two months is no payroll month: the dialog says so and does not save.
  await dialog.getByLabel('From', { exact: true }).fill('2026-11-15');
  await dialog.getByLabel('To', { exact: true }).fill('2026-12-14');
  await expect(dialog.getByRole('alert')).toHaveText('A payroll file covers one month: choose a period within one month.');
  await expect(dialog.getByRole('button', { name: 'Save Loket.nl' })).toBeDisabled();
});
