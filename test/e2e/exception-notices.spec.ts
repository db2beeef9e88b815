/**
 * Notifications for new exceptions (issue 43 §2), in the browser host: the planner allows the
 * page to notify (the browser's permission, granted in the test) and chooses "Late" in
 * Settings. A late order made afterwards comes as one notification in the planner's words; a
 * running timer, a kind not chosen, does not; a click on the notification opens the Exceptions
 * screen. The browser's Notification is the real one, watched: each one made is recorded.
 *
 * Board Shop, every day a workday, one stage Work; SO-LATE is due today and placed three to four
 * days from now, so it ends late whatever day the run's clock says it is.
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

test('a new late order comes as one notification of the kinds chosen; a click opens the inbox', async ({ page, context }) => {
  test.setTimeout(120_000);
  app = await startApp();
  await context.grantPermissions(['notifications'], { origin: new URL(app.url).origin });
  await context.addInitScript(() => {
    // Watch the browser's own Notification: record each one made, and keep it to click.
    const Real = window.Notification;
    const made: { title: string; body: string; notice: Notification }[] = [];
    class Watched extends Real {
      constructor(title: string, options?: NotificationOptions) {
        super(title, options);
        made.push({ title, body: options?.body ?? '', notice: this });
      }
    }
    Object.defineProperty(window, 'Notification', { value: Watched, configurable: true, writable: true });
    Object.defineProperty(window, 'madeNotices', { value: made });
  });
  const notices = () =>
    page.evaluate(() =>
      (window as unknown as { madeNotices: { title: string; body: string }[] }).madeNotices.map(({ title, body }) => ({ title, body })),
    );

  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(app.url);
  const me = await bridgeApi(page, 'GET', '/v1/app_user');
  // The first look on this computer only remembers what is there: wait for it before anything is new.
  await expect.poll(() => page.evaluate((id) => localStorage.getItem(`planner.exceptions.told.${id}`), me.user_id)).not.toBeNull();

  await openScreen(page, 'Settings');
  const section = page.getByRole('region', { name: 'Notifications' });
  await expect(section.getByText('This browser shows them.')).toBeVisible();
  await section.getByLabel('Late', { exact: true }).check();
  await expect(section.getByRole('status')).toHaveText('Saved.');
  expect((await bridgeApi(page, 'GET', `/v1/user/${me.user_id}`)).notify_exceptions).toEqual(['late_collection']);

  const shop = await seedShop(page, { days: 'every day' });
  const late = await bridgeApi(page, 'POST', '/v1/collection', { name: 'SO-LATE', board_id: shop.boardId, due_date: testToday });
  const card = await bridgeApi(page, 'POST', `/v1/collection/${late.id}/card`, {
    stage_id: shop.stageId,
    start_date: addDays(testToday, 3),
    end_date: addDays(testToday, 4),
  });
  await bridgeApi(page, 'POST', '/v1/time_tracking', {
    card_id: card.id,
    user_id: me.user_id,
    start: new Date(Date.parse(testNow) - 12 * 3_600_000).toISOString(),
  });

  await expect.poll(notices, { timeout: 15_000 }).toHaveLength(1);
  const [notice] = await notices();
  expect(notice!.title).toBe('Planner: 1 new exception');
  expect(notice!.body).toContain('SO-LATE is planned to end on');
  // Nothing more comes for what was told, however often the inbox refreshes.
  await page.waitForTimeout(2_500);
  expect(await notices()).toHaveLength(1);

  await page.evaluate(() => {
    const made = (window as unknown as { madeNotices: { notice: Notification }[] }).madeNotices;
    made[0]!.notice.onclick?.(new Event('click'));
  });
  await expect(page.getByRole('heading', { name: 'Exceptions', level: 1 })).toBeVisible();
});
