/**
 * Absences and company holidays (docs/API.md "Absences and holidays"): a vacation entered in a
 * resource's absences editor takes its hours out of the planboard's capacity, and an .ics file
 * of holidays imported on the Resources screen makes company holidays that every resource has,
 * one added after the import too.
 *
 * The board: Workshop (Monday to Friday), stage Assembly, where Ivy works 8 hours Monday to
 * Friday. Frame (240 minutes) sits on the Wednesday of next week.
 */
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, longDate, nextMonday, testToday } from './dates.js';
import { dayOnDateBar, scrollToDay } from './planboard-grid.js';
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
  await expect(page.getByRole('status').filter({ hasText: 'company holidays' })).toHaveText('4 company holidays, for everyone');
  const holidays = page.getByRole('list', { name: 'Company holidays' });
  await expect(holidays.getByRole('listitem')).toHaveCount(4);
  await expect(holidays.getByRole('listitem').first()).toContainText('Bridge day');
  await expect(holidays.getByRole('listitem').first()).toContainText('for everyone · 2 resources');

  // Ivy has them as public holidays, and her schedule marks the first.
  await page.getByRole('button', { name: 'Edit Ivy' }).click();
  await expect(page.getByRole('list', { name: 'Absences of Ivy' }).getByRole('listitem')).toHaveCount(4);
  await expect(page.locator(`.resource-schedule__day[data-date="${addDays(monday, 1)}"]`)).toContainText('Absent: Public holiday');

  // They are the company's, not Ivy's to change: no Edit or Delete on them.
  const ivys = page.getByRole('list', { name: 'Absences of Ivy' }).getByRole('listitem');
  await expect(ivys.first()).toContainText('company holiday, changed under Company holidays');
  await expect(ivys.first().getByRole('button')).toHaveCount(0);

  // Deleting a holiday takes it off every resource.
  await holidays.getByRole('button', { name: /^Delete Bridge day/ }).click();
  await holidays.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(holidays.getByRole('listitem')).toHaveCount(3);
  await expect(page.getByRole('list', { name: 'Absences of Ivy' }).getByRole('listitem')).toHaveCount(3);
});

/** The next 25 December on or after the run's today. */
function nextChristmas(): string {
  const year = Number(testToday.slice(0, 4));
  return testToday <= `${year}-12-25` ? `${year}-12-25` : `${year + 1}-12-25`;
}

/** Christmas and the day after, yearly, and a bridge day next week, as a holiday feed publishes them. */
function christmasFile(): string {
  const compact = (date: string) => date.replaceAll('-', '');
  const event = (uid: string, date: string, summary: string, rule?: string) => [
    'BEGIN:VEVENT',
    `UID:${uid}@workshop.example`,
    'DTSTAMP:20200101T000000Z',
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
    ...event('christmas', '2020-12-25', 'Christmas Day', 'RRULE:FREQ=YEARLY'),
    ...event('boxing-day', '2020-12-26', 'Boxing Day', 'RRULE:FREQ=YEARLY'),
    ...event('bridge-day', addDays(monday, 1), 'Bridge day'),
    'END:VCALENDAR',
    '',
  ].join('\r\n');
}

test('a resource added after the holidays were imported has them: its schedule, and its Christmas week on the planboard', async ({
  page,
}) => {
  await open(page);
  await openScreen(page, 'Resources');
  await page.locator('.holiday-form input[type="file"]').setInputFiles({
    name: 'holidays.ics',
    mimeType: 'text/calendar',
    buffer: Buffer.from(christmasFile()),
  });
  // Christmas and Boxing Day in each of the two years from today, and the bridge day.
  await expect(page.getByRole('status').filter({ hasText: 'company holidays' })).toHaveText('5 company holidays, for everyone');

  // Cees is hired afterwards, on Assembly, 8 hours Monday to Friday.
  const [board] = (await bridgeApi(page, 'GET', '/v1/board', undefined, { with: 'stages' })).data;
  await bridgeApi(page, 'POST', '/v1/resource', {
    name: 'Cees',
    type: 'employee',
    workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
    boards: [{ id: board.id, stages: [{ id: board.stages[0].id, percentage: 100 }] }],
  });
  const holidays = page.getByRole('list', { name: 'Company holidays' });
  await expect(holidays.getByRole('listitem').filter({ hasText: 'Bridge day' })).toContainText('for everyone · 3 resources');

  await page.getByRole('button', { name: 'Edit Cees' }).click();
  await expect(page.getByRole('list', { name: 'Absences of Cees' }).getByRole('listitem')).toHaveCount(5);
  const bridgeDay = page.locator(`.resource-schedule__day[data-date="${addDays(monday, 1)}"]`);
  await expect(bridgeDay).toContainText('0 / 8 h');
  await expect(bridgeDay).toContainText('Absent: Public holiday');

  // His Christmas week on the planboard: 40 hours less a day for each holiday on a weekday.
  const christmas = nextChristmas();
  const weekdaysOff = [christmas, addDays(christmas, 1)].filter(
    (date) => ![0, 6].includes(new Date(`${date}T12:00:00Z`).getUTCDay()),
  ).length;
  const weekday = new Date(`${christmas}T12:00:00Z`).getUTCDay();
  const christmasMonday = addDays(christmas, -((weekday + 6) % 7));
  const ceesId = (await bridgeApi(page, 'GET', '/v1/resource', undefined, { filter: "name:eq:'Cees'" })).data[0].id;
  await openScreen(page, 'Planboard');
  await page.getByRole('group', { name: 'Zoom' }).getByRole('button', { name: 'Week' }).click();
  await page.getByRole('group', { name: 'Rows' }).getByRole('button', { name: 'Resources' }).click();
  await scrollToDay(page, christmas);
  await expect(page.locator(`.pb-capacity[data-stage-id="${ceesId}"] .pb-capacity__week[data-week-start="${christmasMonday}"]`)).toHaveText(
    `0 / ${40 - 8 * weekdaysOff} h`,
  );
  // The day itself is shaded and named on the date bar.
  await expect(dayOnDateBar(page, christmas)).toHaveAttribute('title', 'Christmas Day (company holiday)');
});
