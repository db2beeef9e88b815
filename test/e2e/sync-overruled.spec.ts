/**
 * What sync tells a planner about its outcome, on the Sync screen and beside the work: a card
 * renamed while this computer was cut off, and renamed again on the server meanwhile, loses
 * (the later change wins everywhere) — and the planner sees it in the Sync screen's overruled
 * list, in the top bar, as a mark on the card and a line in its panel, and keeps their name.
 * And a wrong API key is refused when it is entered, with one clear message, and not stored.
 *
 * The remote is the headless server as its own process, behind a small proxy that can cut the
 * app off; the app runs in browser-host mode with its own data folder.
 */
import { expect, test } from './fixtures.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import type { ServerProcess } from '../helpers/process.js';
import { startApp, type RunningApp } from './app.js';
import { seedFramesBoard } from './card-setup.js';
import { nextMonday } from './dates.js';
import { bridgeApi, connectOnSyncScreen, openScreen } from './planner-page.js';
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

test('a card renamed offline and renamed later on the server is shown as overruled, and the planner keeps their name', async ({ page }) => {
  test.setTimeout(120_000);
  remote = await startRemote();
  proxy = await startFaultProxy(remote.url);
  app = await startApp();
  await page.setViewportSize({ width: 1500, height: 1000 });
  await page.goto(app.url);
  await connectOnSyncScreen(page, { url: proxy.url, ...remoteAccess });
  const { card } = await seedFramesBoard(page, nextMonday());
  const cardPath = `/v1/collection/${card.collection_id}/card/${card.id}`;
  const onServer = async () => (await onRemote(remote!, 'GET', cardPath)) as { name: string | null };
  await expect
    .poll(async () => (await onRemote(remote!, 'GET', '/v1/card', undefined, { filter: `id:eq:'${card.id}'` })).data.length, {
      timeout: 20_000,
    })
    .toBe(1);

  // Cut off, the planner renames the card; meanwhile someone renames it on the server.
  await proxy.set('refuse');
  await bridgeApi(page, 'PUT', cardPath, { name: 'Frame 1001 welded' });
  await new Promise((resolve) => setTimeout(resolve, 20));
  await onRemote(remote, 'PUT', cardPath, { name: 'Frame 1001 painted' });

  // Back online: the server's later name wins, and the planner is told.
  await proxy.set('pass');
  await openScreen(page, 'Sync');
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByTestId('sync-overruled')).toHaveText('1', { timeout: 20_000 });
  await expect(page.getByTestId('sync-pending')).toHaveText('0');
  const topBar = page.getByRole('status', { name: 'Sync status' });
  await expect(topBar).toContainText('1 overruled');
  const entry = page.getByRole('list', { name: 'Overruled changes' }).getByRole('listitem');
  await expect(entry).toHaveCount(1);
  await expect(entry).toContainText('Your change to Card name of card “Frame 1001 painted”');
  await expect(entry).toContainText(/Changed on another computer \(\w+\) on /);
  await expect(entry.getByRole('row', { name: /Yours/ })).toContainText('“Frame 1001 welded”');
  await expect(entry.getByRole('row', { name: /Now/ })).toContainText('“Frame 1001 painted”');
  const history = page.getByRole('table', { name: 'Sync history' });
  await expect(history.getByRole('row').nth(1)).toContainText('Done');

  // On the planboard the card is marked, and its panel says what happened.
  await openScreen(page, 'Planboard');
  const option = page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^Frame 1001 painted/ });
  await expect(option).toHaveAccessibleName(/A change of yours to this card was overruled/);
  await option.click();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('complementary', { name: 'Card details' });
  const notice = panel.getByRole('note', { name: 'Overruled changes of this card' });
  await expect(notice).toContainText(
    /Your change to Card name was overruled by another computer \(\w+\) \(.+\): yours “Frame 1001 welded”, now “Frame 1001 painted”\./,
  );

  // Keep mine: the planner's name is back here, and after sync on the server too.
  await notice.getByRole('button', { name: 'Keep mine' }).click();
  await expect(notice).toBeHidden();
  await expect(panel.getByRole('heading', { name: 'Frame 1001 welded', level: 2 })).toBeVisible();
  await expect(page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^Frame 1001 welded/ })).not.toHaveAccessibleName(
    /overruled/,
  );
  await expect(topBar).not.toContainText('overruled');
  await expect.poll(async () => (await onServer()).name, { timeout: 20_000 }).toBe('Frame 1001 welded');
  await openScreen(page, 'Sync');
  await expect(page.getByTestId('sync-overruled')).toHaveText('0');
  await expect(page.getByText('None of your changes was overruled.')).toBeVisible();
});

test('a wrong API key is refused when it is entered, with one message, and nothing is stored', async ({ page }) => {
  test.setTimeout(60_000);
  remote = await startRemote();
  app = await startApp();
  await page.goto(app.url);
  await openScreen(page, 'Sync');
  await page.getByLabel('Remote address').fill(remote.url);
  await page.getByLabel('Environment').fill(remoteAccess.env);
  await page.getByLabel('API key').fill('not-the-key');
  await page.getByRole('button', { name: 'Connect' }).click();

  const apiKey = page.getByLabel('API key');
  await expect(apiKey).toHaveAccessibleDescription(
    `The key does not open environment “${remoteAccess.env}” on ${remote.url}. Check the API key and the environment.`,
  );
  await expect(page.getByText('Saved. Sync starts at once.')).toBeHidden();
  await expect(page.getByTestId('sync-state')).toHaveText('Not set up');
  await expect(page.getByRole('status', { name: 'Sync status' })).toContainText('Local only');
  // Not stored: after a reload the form is empty and the app still syncs with nothing.
  await page.reload();
  await openScreen(page, 'Sync');
  await expect(page.getByLabel('Remote address')).toHaveValue('');
  await expect(page.getByTestId('sync-state')).toHaveText('Not set up');

  // The right key connects.
  await connectOnSyncScreen(page, { url: remote.url, ...remoteAccess });
  await expect(page.getByText(`API key for environment ${remoteAccess.env}`)).toBeVisible();
});
