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
import { addDays, shortDate, testToday } from './dates.js';
import { bridgeApi } from './planner-page.js';
import { seedCollection, seedFullPaint } from './shop.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('the plan dialog offers the overtime that would make a late plan fit, adds it in one click, and Undo takes it back', async ({
  page,
}) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(app.url);

  const { boardId, paintingId, ceesId } = await seedFullPaint(page);
  await seedCollection(page, boardId, { name: 'SO-RUSH', activityId: paintingId, minutes: 480, due: addDays(testToday, 3) });
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
  const added = await bridgeApi(page, 'GET', `/v1/resource/${ceesId}/schedule_deviation`);
  expect(added.data.map((d: any) => [d.type, d.start_date, d.time]).sort()).toEqual([
    ['overtime', addDays(testToday, 2), 240],
    ['overtime', addDays(testToday, 3), 240],
  ]);

  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect.poll(async () => (await bridgeApi(page, 'GET', `/v1/resource/${ceesId}/schedule_deviation`)).data.length).toBe(0);
});
