/**
 * The exception inbox in the app (issue 43 §1): a late order and a timer left running show on
 * the Exceptions screen and in the count in the top bar, each in the planner's words; "Stop the
 * timer" stops it, and its item and its part of the count go away.
 *
 * Board Shop, every day a workday, one stage Work. SO-LATE is due today and its card is placed
 * three to four days from now, so it ends late whatever day today is. Pat Planner's timer
 * started twelve hours ago, two past the ten after which it counts as forgotten. Both are made
 * after the app has opened (so the timer does not ask for its end at start): the inbox follows
 * the writes by itself. The late order says why it is late: its card takes two workdays and
 * today is the last it had.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, testNow, testToday } from './dates.js';
import { bridgeApi, openScreen } from './planner-page.js';
import { seedShop } from './shop.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('the inbox shows a late order and a running timer; stopping the timer takes its item and count away', async ({ page }) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(app.url);
  await openScreen(page, 'Exceptions');
  await expect(page.getByText('Nothing needs you now.')).toBeVisible();

  const shop = await seedShop(page, { days: 'every day' });
  const late = await bridgeApi(page, 'POST', '/v1/collection', { name: 'SO-LATE', board_id: shop.boardId, due_date: testToday });
  const card = await bridgeApi(page, 'POST', `/v1/collection/${late.id}/card`, {
    stage_id: shop.stageId,
    start_date: addDays(testToday, 3),
    end_date: addDays(testToday, 4),
  });
  const me = await bridgeApi(page, 'GET', '/v1/app_user');
  await bridgeApi(page, 'POST', '/v1/time_tracking', {
    card_id: card.id,
    user_id: me.user_id,
    start: new Date(Date.parse(testNow) - 12 * 3_600_000).toISOString(),
  });

  const items = page.getByTestId('exception');
  await expect(items).toHaveCount(2);
  const lateItem = items.filter({ hasText: 'SO-LATE is planned to end on' });
  await expect(lateItem).toContainText('after its due date');
  // Why: a card of two workdays cannot end by today, whatever room Work has.
  await expect(lateItem.getByTestId('why-late')).toHaveText(/^Why: nothing fits on Work before .+: it takes 2 workdays$/);
  const timer = items.filter({ hasText: 'The timer of Pat Planner' });
  await expect(timer).toContainText('has been running for 12 h');
  const count = page.getByTestId('exception-count');
  await expect(count).toHaveText('Exceptions: 2');

  await timer.getByRole('button', { name: 'Stop the timer' }).click();
  await expect(timer).toHaveCount(0);
  await expect(items).toHaveCount(1);
  await expect(count).toHaveText('Exceptions: 1');
  expect((await bridgeApi(page, 'GET', '/v1/time_tracking/running', undefined, { user_id: me.user_id })).data).toBeNull();
});
