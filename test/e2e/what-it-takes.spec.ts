/**
 * Why late and "what would it take?" (issues 43 §5 and 41 §2), as a planner meets them on the
 * Exceptions screen: a rush order is late because Paint is full, the screen says so and offers
 * the overtime that would make room; one click adds it as one command, the reason changes to
 * "has room", and Undo on the planboard takes the overtime back.
 *
 * Board Shop, every day a workday, one stage Paint allowing Painting; Cees paints 8 h every day. A filler order
 * takes all of Paint from today to today + 3; SO-RUSH is due today + 3 and its Paint card of 8 h
 * sits on today + 5. So it lacks 8 h by its due date: 4 h of overtime for Cees on today + 2 and
 * today + 3, whatever day the run's clock says it is.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, testToday } from './dates.js';
import { bridgeApi, openScreen } from './planner-page.js';
import { seedFullPaint } from './shop.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('a late order says why, offers overtime that adds in one click, and Undo takes it back', async ({ page }) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(app.url);

  const { boardId, stageId, paintingId, ceesId } = await seedFullPaint(page);
  const rush = await bridgeApi(page, 'POST', '/v1/collection', { name: 'SO-RUSH', board_id: boardId, due_date: addDays(testToday, 3) });
  await bridgeApi(page, 'POST', `/v1/collection/${rush.id}/card`, {
    stage_id: stageId,
    start_date: addDays(testToday, 5),
    end_date: addDays(testToday, 5),
    activities: [{ id: paintingId, time: 480 }],
    resources: [{ id: ceesId }],
  });

  await openScreen(page, 'Exceptions');
  const item = page.getByTestId('exception').filter({ hasText: 'SO-RUSH is planned to end on' });
  await expect(item.getByTestId('why-late')).toHaveText(/^Why: Paint is full from .+ to .+$/);
  const takes = item.getByTestId('what-it-takes');
  await expect(takes).toContainText('What would it take? 8 h overtime: Cees');
  await expect(takes).toContainText('4 h');

  await takes.getByRole('button', { name: 'Add this overtime' }).click();
  await expect(item.getByTestId('why-late')).toHaveText('Why: Paint has room for it sooner: it is planned later than it needs to be');
  await expect(item.getByTestId('what-it-takes')).toHaveCount(0);
  const added = await bridgeApi(page, 'GET', `/v1/resource/${ceesId}/schedule_deviation`);
  expect(added.data.map((d: any) => [d.type, d.start_date, d.time]).sort()).toEqual([
    ['overtime', addDays(testToday, 2), 240],
    ['overtime', addDays(testToday, 3), 240],
  ]);

  await openScreen(page, 'Planboard');
  await page.getByRole('button', { name: 'Undo', exact: true }).click();
  await expect.poll(async () => (await bridgeApi(page, 'GET', `/v1/resource/${ceesId}/schedule_deviation`)).data.length).toBe(0);
  await openScreen(page, 'Exceptions');
  await expect(item.getByTestId('why-late')).toHaveText(/^Why: Paint is full from .+ to .+$/);
});
