/**
 * Absences and company holidays (docs/API.md "Absences and holidays"): a vacation entered in a
 * resource's absences editor takes its hours out of the planboard's capacity, and an .ics file
 * of holidays imported on the Resources screen gives every resource its holidays.
 *
 * The board: Workshop (Monday to Friday), stage Assembly, where Ivy works 8 hours Monday to
 * Friday. Frame (240 minutes) sits on the Wednesday of next week.
 */
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, longDate, nextMonday } from './dates.js';
import { bridgeApi, openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const monday = nextMonday();
const wednesday = addDays(monday, 2);

async function seed(page: Page): Promise<void> {
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Workshop',
      workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false },
      stages: [{ name: 'Assembly', priority: 0 }],
      statuses: [{ name: 'To do', entry: true, color: 'blue' }],
    },
    { with: 'stages' },
  );
  const stage = board.stages[0].id;
  for (const name of ['Ivy', 'Jon']) {
    await bridgeApi(page, 'POST', '/v1/resource', {
      name,
      type: 'employee',
      workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
      boards: name === 'Ivy' ? [{ id: board.id, stages: [{ id: stage, percentage: 100 }] }] : [],
    });
  }
  const activity = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Assemble', resource_type: 'employee' });
  const collection = await bridgeApi(page, 'POST', '/v1/collection', { name: 'Frame', board_id: board.id });
  await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/card`, {
    stage_id: stage,
    start_date: wednesday,
    end_date: wednesday,
    activities: [{ id: activity.id, time: 240 }],
  });
}

async function open(page: Page): Promise<void> {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  await seed(page);
}

/** The planboard at day zoom, where the capacity strip has a cell per day. */
async function openPlanboardByDay(page: Page): Promise<void> {
  await openScreen(page, 'Planboard');
  await page.getByRole('group', { name: 'Zoom' }).getByRole('button', { name: 'Day' }).click();
}

/** Assembly's capacity on a day, as the planboard's strip reads it out. */
function capacityOn(page: Page, date: string) {
  return page.locator(`.pb-capacity__day[title^="Assembly, ${longDate(date)}:"]`);
}

test('enter a vacation and see the capacity drop', async ({ page }) => {
  await open(page);
  await openPlanboardByDay(page);
  await expect(capacityOn(page, wednesday)).toHaveAttribute('title', /: 4 h of 8 h planned$/);

  await openScreen(page, 'Resources');
  await page.getByRole('button', { name: 'Edit Ivy' }).click();
  const form = page.getByRole('form', { name: 'New absence' });
  await form.getByLabel('Type').selectOption({ label: 'Vacation' });
  await form.getByLabel('From').fill(wednesday);
  await form.getByLabel('Until').fill(wednesday);
  await form.getByLabel('Note').fill('Family visit');
  await form.getByRole('button', { name: 'Save absence' }).click();

  const absences = page.getByRole('list', { name: 'Absences of Ivy' });
  await expect(absences.getByRole('listitem')).toHaveCount(1);
  await expect(absences.getByRole('listitem')).toContainText('Vacation');
  await expect(absences.getByRole('listitem')).toContainText('whole day · Family visit');
  // The schedule marks the day and names the absence.
  const day = page.locator(`.resource-schedule__day[data-date="${wednesday}"]`);
  await expect(day).toContainText('0 / 8 h');
  await expect(day).toContainText('Absent: Vacation');
  await expect(day).toHaveClass(/resource-schedule__day--absent/);

  await openPlanboardByDay(page);
  await expect(capacityOn(page, wednesday)).toHaveAttribute('title', /: 4 h of 0 min planned \(over capacity\)$/);
  // The day after keeps Ivy's 8 hours.
  await expect(capacityOn(page, addDays(wednesday, 1))).toHaveAttribute('title', /: 0 min of 8 h planned$/);
});

/** Two one-day holidays next week and the week after, and a yearly one (two occurrences in the window). */
function holidayFile(): string {
  const compact = (date: string) => date.replaceAll('-', '');
  const event = (uid: string, date: string, summary: string, rule?: string) => [
    'BEGIN:VEVENT',
    `UID:${uid}@workshop.example`,
    'DTSTAMP:20260101T000000Z',
    `DTSTART;VALUE=DATE:${compact(date)}`,
    `DTEND;VALUE=DATE:${compact(addDays(date, 1))}`,
    ...(rule ? [rule] : []),
    `SUMMARY:${summary}`,
    'END:VEVENT',
  ];
  return [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Workshop//Holidays//EN',
    ...event('bridge-day', addDays(monday, 1), 'Bridge day'),
    ...event('works-outing', addDays(monday, 8), 'Works outing'),
    ...event('founders-day', addDays(monday, 15), 'Founders day', 'RRULE:FREQ=YEARLY'),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

test('import an .ics holiday file', async ({ page }) => {
  await open(page);
  await openScreen(page, 'Resources');
  const fileInput = page.locator('.holiday-form input[type="file"]');

  await fileInput.setInputFiles({
    name: 'broken.ics',
    mimeType: 'text/calendar',
    buffer: Buffer.from('BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n'),
  });
  await expect(page.getByRole('alert').filter({ hasText: 'not an iCalendar file' })).toBeVisible();
  await expect(page.getByText('No company holidays')).toBeVisible();

  await fileInput.setInputFiles({ name: 'holidays.ics', mimeType: 'text/calendar', buffer: Buffer.from(holidayFile()) });
  await expect(page.getByRole('status').filter({ hasText: 'imported' })).toHaveText('4 holidays imported for 2 resources');
  const holidays = page.getByRole('list', { name: 'Company holidays' });
  await expect(holidays.getByRole('listitem')).toHaveCount(4);
  await expect(holidays.getByRole('listitem').first()).toContainText('Bridge day');
  await expect(holidays.getByRole('listitem').first()).toContainText('2 resources');

  // Ivy has them as public holidays, and her schedule marks the first.
  await page.getByRole('button', { name: 'Edit Ivy' }).click();
  await expect(page.getByRole('list', { name: 'Absences of Ivy' }).getByRole('listitem')).toHaveCount(4);
  await expect(page.locator(`.resource-schedule__day[data-date="${addDays(monday, 1)}"]`)).toContainText('Absent: Public holiday');

  // Deleting a holiday takes it off every resource.
  await holidays.getByRole('button', { name: /^Delete Bridge day/ }).click();
  await holidays.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(holidays.getByRole('listitem')).toHaveCount(3);
  await expect(page.getByRole('list', { name: 'Absences of Ivy' }).getByRole('listitem')).toHaveCount(3);
});
