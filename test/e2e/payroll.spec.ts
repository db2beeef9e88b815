/**
 * The payroll summary as a planner reaches it (ux-walk-2, friction 8): on a first start with
 * no resources yet, "Who are you?" asks no resource and says where to link one later;
 * Settings links the planner to their resource once it exists; the Time screen's Payroll tab
 * shows per user the hours scheduled, absent, expected and worked for a period and the
 * difference, their hours per hour code and their overtime balance, and saves the API's PDF and CSV of it (docs/API.md "Payroll summary"). The
 * resource and the booked hours are made through the page's bridge, as an integration would.
 */
import { readFile } from 'node:fs/promises';
import { expect, test } from './fixtures.js';
import { newDataDir, startApp, type RunningApp } from './app.js';
import { testNow } from './dates.js';
import { bridgeApi, mainMenu, openScreen, switchToDutch } from './planner-page.js';
import { parseCsv, pdfText } from '../helpers/time-report.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** Today at a local hour, as the API's ISO instant. */
function todayAt(hour: number): string {
  const now = new Date(testNow);
  return new Date(now.getFullYear(), now.getMonth(), now.getDate(), hour).toISOString().replace(/\.\d{3}Z$/, 'Z');
}

test('a planner links themselves to their resource in Settings and reads the payroll summary on the Time screen', async ({ page }) => {
  app = await startApp(newDataDir(), { appUser: 'ask' });
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);

  // First start, no resources yet: nothing to choose, and the planner is told where to do it later.
  const ask = page.getByRole('region', { name: 'Who are you?' });
  await expect(ask).toBeVisible();
  await expect(ask.getByLabel('Resource you are (optional)')).toHaveCount(0);
  await expect(ask).toContainText('Link yourself to a resource later, in Settings.');
  await ask.getByLabel('First name').fill('Petra');
  await ask.getByLabel('Last name').fill('de Vries');
  await ask.getByLabel('E-mail').fill('petra@example.com');
  await ask.getByRole('button', { name: 'Create and use' }).click();
  await expect(ask).toBeHidden();

  // Two hours booked today on a meeting; her resource works eight hours on weekdays.
  const meeting = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Team meeting', code: 'MTG' });
  await bridgeApi(page, 'POST', '/v1/time_tracking', { activity_id: meeting.id, start: todayAt(9), end: todayAt(11) });
  await bridgeApi(page, 'POST', '/v1/resource', {
    name: 'Petra at the saw',
    workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
  });

  // Not linked: the summary expects nothing of her, so all she booked is difference.
  await openScreen(page, 'Time');
  await page.getByRole('tab', { name: 'Payroll' }).click();
  const summary = page.getByRole('table', { name: 'Payroll summary' });
  await page.getByLabel('Period').selectOption({ label: 'This week' });
  const petra = summary.getByRole('row', { name: /^Petra de Vries/ });
  // Then her hours under no hour code (the meeting has none), and no overtime balance without a schedule.
  await expect(petra.getByRole('cell')).toHaveText(['No resource', '0:00', '0:00', '0:00', '2:00', '2:00', '2:00', '–', '–', '–']);

  // Settings links her to her resource.
  await openScreen(page, 'Settings');
  const you = page.getByRole('region', { name: 'You' });
  await you.getByLabel('Resource you are').selectOption({ label: 'Petra at the saw' });
  await expect(you.getByRole('status')).toHaveText('Saved.');
  const me = await bridgeApi(page, 'GET', '/v1/app_user');
  expect(me.user.resource_id).not.toBeNull();

  // Now a week of 40 hours is expected of her, and she is 38 short.
  await openScreen(page, 'Time');
  await expect(page.getByRole('tab', { name: 'Payroll' })).toHaveAttribute('aria-selected', 'true');
  // Short hours take nothing from her overtime balance: it stays 0.
  await expect(petra.getByRole('cell')).toHaveText([
    'Petra at the saw',
    '40:00',
    '0:00',
    '40:00',
    '2:00',
    '-38:00',
    '2:00',
    '0:00',
    '0:00',
    '0:00',
  ]);
  await expect(summary.getByRole('row', { name: /^Total/ }).getByRole('cell')).toHaveText([
    '',
    '40:00',
    '0:00',
    '40:00',
    '2:00',
    '-38:00',
    '2:00',
    '',
  ]);

  // The files are the API's: the CSV adds up the same, the PDF names her and her resource.
  const [csvDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save CSV' }).click()]);
  expect(csvDownload.suggestedFilename()).toMatch(/^payroll-summary-\d{4}-\d{2}-\d{2}-\d{4}-\d{2}-\d{2}\.csv$/);
  const csv = parseCsv((await readFile((await csvDownload.path())!, 'utf8')).replace(/^\uFEFF/, ''));
  const header = csv[0]!;
  const total = csv.find((row) => row[0] === 'Total Petra de Vries')!;
  expect(total[header.indexOf('Resource')]).toBe('Petra at the saw');
  expect(total[header.indexOf('Worked')]).toBe('2:00');
  expect(total[header.indexOf('Difference')]).toBe('-38:00');
  await expect(page.getByText(/^Downloaded payroll-summary-.*\.csv\.$/)).toBeVisible();
  const [pdfDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Save PDF' }).click()]);
  expect(pdfDownload.suggestedFilename()).toMatch(/^payroll-summary-.*\.pdf$/);
  const text = await pdfText(await readFile((await pdfDownload.path())!));
  expect(text).toContain('Total Petra de Vries');
  expect(text).toContain('Petra at the saw');

  // The Dutch screen says the same in Dutch.
  await switchToDutch(page);
  await mainMenu(page).getByRole('button', { name: 'Tijd', exact: true }).click();
  await page.getByRole('tab', { name: 'Salaris' }).click();
  const dutch = page.getByRole('table', { name: 'Salarisoverzicht' });
  await expect(dutch.getByRole('columnheader')).toHaveText([
    'Gebruiker',
    'Resource',
    'Uren per code',
    'Overwerksaldo',
    'Gepland',
    'Afwezig',
    'Verwacht',
    'Gewerkt',
    'Verschil',
    'Geen code 100%',
    'Begin',
    'Mutatie',
    'Eind',
  ]);
  await expect(page.getByRole('button', { name: 'PDF opslaan' })).toBeVisible();
});
