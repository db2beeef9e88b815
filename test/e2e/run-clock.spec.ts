/**
 * One clock for the whole run (docs/architecture.md "A fixed clock"): what the test helpers
 * write into a data folder before the app starts carries the run's time, as the app's own
 * records do, whatever the machine's date. A user stamped with the machine's time would be a
 * change from another day: a remote on the run's time holds a change from its future back, with
 * every change made after it, so a replica never gets its changes sent.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { runNow } from '../helpers/test-clock.js';
import { bridgeApi } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('the planner a fresh data folder knows, and what the app then writes, carry the run’s time', async ({ page }) => {
  const before = runNow();
  app = await startApp();
  await page.goto(app.url);
  const user = (await bridgeApi(page, 'GET', '/v1/app_user')).user;
  const board = await bridgeApi(page, 'POST', '/v1/board', { name: 'Frames' });
  // Record times are kept to the second.
  for (const at of [user.created_at, board.created_at]) {
    expect(Date.parse(at)).toBeGreaterThanOrEqual(before - 1_000);
    expect(Date.parse(at)).toBeLessThanOrEqual(runNow());
  }
});
