/**
 * "What would it take?" in the plan dialog (issue 41 §2, docs/API.md "What would it take?"): a
 * rush order in the backlog, planned finite, would end after its due date because Paint is full;
 * the dialog offers the overtime that would make it fit, one click adds it as one command, the
 * plan shown then ends on the due date, and Undo on the planboard takes the overtime back.
 *
 * Board Shop, every day a workday, one stage Paint allowing Painting; Cees paints 8 h every day.
 * A filler order takes all of Paint from today (the run's fixed day) to today + 3; SO-RUSH, due
 * today + 3, needs 8 h of Painting. Finite from today it ends on today + 4, lacking 8 h by its
 * due date: 4 h of overtime for Cees on today + 2 and today + 3.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, longDate, testToday } from './dates.js';
import { bridgeApi } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const everyDay = { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true };
const eightEveryDay = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': 8, '7': 8 };

/** "Wed 3 Mar": a day as the plan dialog writes it in English. */
const shortDate = (date: string) => longDate(date).replace(/ \d{4}$/, '');

test('the plan dialog offers the overtime that would make a late plan fit, adds it in one click, and Undo takes it back', async ({
  page,
}) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(app.url);

  const painting = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Painting', resource_type: 'employee' });
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Shop',
      workdays: everyDay,
      statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
      stages: [{ name: 'Paint', priority: 0, activities: [{ id: painting.id, priority: 0 }] }],
    },
    { with: 'stages' },
  );
  const paint = board.stages[0].id;
  const cees = await bridgeApi(page, 'POST', '/v1/resource', {
    name: 'Cees',
    workdays: eightEveryDay,
    boards: [{ id: board.id, active: true, stages: [{ id: paint, percentage: 100, active: true }] }],
  });
  const filler = await bridgeApi(page, 'POST', '/v1/collection', { name: 'FILLER', board_id: board.id });
  await bridgeApi(page, 'POST', `/v1/collection/${filler.id}/card`, {
    stage_id: paint,
    start_date: testToday,
    end_date: addDays(testToday, 3),
    activities: [{ id: painting.id, time: 1920 }],
    resources: [{ id: cees.id }],
  });
  await bridgeApi(page, 'POST', '/v1/collection', {
    name: 'SO-RUSH',
    board_id: board.id,
    due_date: addDays(testToday, 3),
    activities: [{ id: painting.id, time: 480 }],
  });
  await page.reload();

  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  const rushItem = backlog.getByRole('list', { name: 'Backlog collections' }).getByRole('listitem').filter({ hasText: 'SO-RUSH' });
  await rushItem.hover();
  await rushItem.getByRole('button', { name: 'Plan…' }).click();
  await backlog.getByRole('button', { name: 'More options…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Plan SO-RUSH' });
  await dialog.getByLabel('Start date', { exact: true }).fill(testToday);
  // Planned as before (infinite) it ends today, on time: nothing to offer.
  await expect(dialog.getByTestId('plan-end')).toHaveText(`This plan ends on ${shortDate(testToday)}`);
  await expect(dialog.getByTestId('what-it-takes')).toHaveCount(0);

  await dialog.getByLabel('Only where there is free capacity (finite)').check();
  const due = shortDate(addDays(testToday, 3));
  await expect(dialog.getByTestId('plan-end')).toHaveText(
    `This plan ends on ${shortDate(addDays(testToday, 4))} That is after the due date (${due}).`,
  );
  const takes = dialog.getByTestId('what-it-takes');
  await expect(takes).toContainText(
    `What would it take? 8 h overtime: Cees ${shortDate(addDays(testToday, 2))} 4 h, ${shortDate(addDays(testToday, 3))} 4 h`,
  );

  await takes.getByRole('button', { name: 'Add this overtime' }).click();
  // The plan is worked out again with the overtime: it ends on its due date and needs nothing more.
  await expect(dialog.getByTestId('plan-end')).toHaveText(`This plan ends on ${due}`);
  await expect(takes).toHaveCount(0);
  const added = await bridgeApi(page, 'GET', `/v1/resource/${cees.id}/schedule_deviation`);
  expect(added.data.map((d: any) => [d.type, d.start_date, d.time]).sort()).toEqual([
    ['overtime', addDays(testToday, 2), 240],
    ['overtime', addDays(testToday, 3), 240],
  ]);

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect.poll(async () => (await bridgeApi(page, 'GET', `/v1/resource/${cees.id}/schedule_deviation`)).data.length).toBe(0);
});
