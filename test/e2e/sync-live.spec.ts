/**
 * A remote update arriving live: the app (browser host) is connected to a remote and shows
 * its Projects screen; someone renames a project straight on the remote, and the screen shows
 * the new name within a few seconds, with no reload and no click.
 *
 * The replica listens on the remote's live channel (docs/API.md "Sync", "Live updates"):
 * while that stream is open an idle replica sends nothing, and pulls only when the remote
 * announces a change. The app talks to the remote through a proxy that logs every request, so
 * the spec checks that the stream is open before the change, and that what fetched the change
 * was one sync run after the remote's announcement, not a poll. With the channel off
 * (PLANNER_SYNC_LIVE=off in the environment) the app only polls, and this spec fails.
 */
import { expect, test } from './fixtures.js';
import { startFaultProxy, type FaultProxy, type ProxyLogEntry } from '../helpers/fault-proxy.js';
import type { ServerProcess } from '../helpers/process.js';
import { startApp, type RunningApp } from './app.js';
import { connectOnSyncScreen, openScreen } from './planner-page.js';
import { onRemote, remoteAccess, startRemote } from './remote.js';

let app: RunningApp | undefined;
let remote: ServerProcess | undefined;
let proxy: FaultProxy | undefined;

test.afterEach(async () => {
  await app?.stop();
  await remote?.stop();
  await proxy?.close();
  app = undefined;
  remote = undefined;
  proxy = undefined;
});

const isStream = (entry: ProxyLogEntry) => entry.method === 'GET' && entry.path.startsWith('/v1/sync/stream');
const isPull = (entry: ProxyLogEntry) => entry.method === 'GET' && entry.path.startsWith('/v1/sync/changes');

test('a project renamed on the remote shows on the open Projects screen without a reload or a click', async ({ page }) => {
  test.setTimeout(90_000);
  remote = await startRemote();
  proxy = await startFaultProxy(remote.url);
  const kitchen = await onRemote(remote, 'POST', '/v1/project', { name: 'Kitchen' });

  app = await startApp();
  await page.goto(app.url);
  await connectOnSyncScreen(page, { url: proxy.url, env: remoteAccess.env, key: remoteAccess.key });
  await openScreen(page, 'Projects');
  const projects = page.getByRole('list', { name: 'Projects' });
  await expect(projects.getByRole('listitem').filter({ hasText: 'Kitchen' })).toBeVisible({ timeout: 15_000 });

  // The replica listens: its stream is open (its head came through the proxy) and still open.
  // With the channel off it never opens one, and the spec stops here.
  await expect
    .poll(() => proxy!.log.filter((entry) => isStream(entry) && entry.answered).length, {
      message: 'the app opens the live channel (GET /v1/sync/stream) on the remote',
      timeout: 15_000,
    })
    .toBeGreaterThanOrEqual(1);
  // Its first sync runs are over (the stream's first event may have started one).
  await proxy.idle();
  const before = proxy.log.length;

  // Someone else renames the project on the remote.
  const changedAt = Date.now();
  await onRemote(remote, 'PUT', `/v1/project/${kitchen.id}`, { name: 'Kitchen and pantry' });

  // The open screen shows it by itself, within a few seconds.
  await expect(projects.getByRole('listitem').filter({ hasText: 'Kitchen and pantry' })).toBeVisible({ timeout: 5_000 });
  const shownMs = Date.now() - changedAt;
  console.log(`remote rename shown on the Projects screen after ${shownMs} ms`);
  await expect(projects.getByRole('listitem').filter({ hasText: /^Kitchen$/ })).toHaveCount(0);

  // What fetched it: pulls of the one sync run the announcement started (a page of changes,
  // and at most one more), all after the rename; the stream stayed open, none was reopened.
  const since = proxy.log.slice(before);
  const pulls = since.filter(isPull);
  expect(
    pulls.length,
    `pulls since the rename: ${since.map((entry) => `${entry.method} ${entry.path}`).join(', ')}`,
  ).toBeGreaterThanOrEqual(1);
  expect(pulls.length).toBeLessThanOrEqual(2);
  expect(pulls.every((entry) => entry.startedAt >= changedAt)).toBe(true);
  expect(since.filter(isStream)).toEqual([]);
});
