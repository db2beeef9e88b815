/**
 * Overtime (docs/API.md "Schedules and capacity"): entered in a resource's absences editor with
 * the hours it adds, it raises that day's capacity on the planboard and shows as added time in
 * the resource's list and schedule, not as an absence.
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

const wednesday = addDays(nextMonday(), 2);

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
  await bridgeApi(page, 'POST', '/v1/resource', {
    name: 'Ivy',
    type: 'employee',
    workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
    boards: [{ id: board.id, stages: [{ id: stage, percentage: 100 }] }],
  });
  const activity = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Assemble', resource_type: 'employee' });
  const collection = await bridgeApi(page, 'POST', '/v1/collection', { name: 'Frame', board_id: board.id });
  await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/card`, {
    stage_id: stage,
    start_date: wednesday,
    end_date: wednesday,
    activities: [{ id: activity.id, time: 240 }],
  });
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

test('enter overtime and see the capacity of that day go up', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  await seed(page);
  await openPlanboardByDay(page);
  await expect(capacityOn(page, wednesday)).toHaveAttribute('title', /: 4 h of 8 h planned$/);

  await openScreen(page, 'Resources');
  await page.getByRole('button', { name: 'Edit Ivy' }).click();
  const form = page.getByRole('form', { name: 'New absence' });
  await form.getByLabel('Type').selectOption({ label: 'Overtime' });
  await form.getByLabel('From').fill(wednesday);
  await form.getByLabel('Until').fill(wednesday);
  // Overtime needs its hours: without them the form says so beside the field, and nothing is saved.
  await form.getByRole('button', { name: 'Save absence' }).click();
  await expect(form.getByText('Hours added per day is required')).toBeVisible();
  await expect(page.getByText('No absences')).toBeVisible();

  await form.getByLabel('Hours added per day').fill('2');
  await form.getByLabel('Note').fill('Rush order');
  await form.getByRole('button', { name: 'Save absence' }).click();

  const absences = page.getByRole('list', { name: 'Absences of Ivy' });
  await expect(absences.getByRole('listitem')).toHaveCount(1);
  await expect(absences.getByRole('listitem')).toContainText('Overtime');
  await expect(absences.getByRole('listitem')).toContainText('+2 h per day · Rush order');
  // The schedule shows the hours added, and the day is not absent.
  const day = page.locator(`.resource-schedule__day[data-date="${wednesday}"]`);
  await expect(day).toContainText('10 / 8 h');
  await expect(day).toContainText('Overtime +2 h');
  await expect(day).toHaveClass(/resource-schedule__day--overtime/);
  await expect(day).not.toHaveClass(/resource-schedule__day--absent/);

  await openPlanboardByDay(page);
  await expect(capacityOn(page, wednesday)).toHaveAttribute('title', /: 4 h of 10 h planned$/);
  // The day after keeps Ivy's 8 hours.
  await expect(capacityOn(page, addDays(wednesday, 1))).toHaveAttribute('title', /: 0 min of 8 h planned$/);
});
