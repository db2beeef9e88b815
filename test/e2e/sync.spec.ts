/**
 * The Sync screen as a planner uses it, against a real remote (the headless server as its
 * own process) behind a small proxy on a fixed port — so the remote can stop and come back
 * on another port while the app keeps one remote address, as a server restarted behind a
 * load balancer would.
 *
 * Connect with an API key and environment; change things online, then with the remote
 * stopped (pending grows), then with it back (pending goes to zero); then make a change the
 * remote refuses (a duplicate external_ref) and resolve it from the conflict list.
 *
 * With PLANNER_SCREENSHOTS=1 it also (re)takes docs/screenshots/sync.png.
 */
import { expect, test, type Page } from './fixtures.js';
import { tempDir } from '../helpers/api.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import type { ServerProcess } from '../helpers/process.js';
import { startApp, type RunningApp } from './app.js';
import { bridgeApi, bridgeCall, openScreen } from './planner-page.js';
import { addDays, longDate, nextMonday } from './dates.js';
import { retakeScreenshot } from './readme-screenshots.js';
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

async function remoteProjects(): Promise<{ name: string; external_ref: string | null }[]> {
  return (await onRemote(remote!, 'GET', '/v1/project?limit=1000&sort=name:asc')).data;
}

async function createProject(page: Page, name: string): Promise<void> {
  await openScreen(page, 'Projects');
  await page.getByLabel('New project name').fill(name);
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('list', { name: 'Projects' }).getByRole('listitem').filter({ hasText: name })).toBeVisible();
}

test('a planner connects to a remote, keeps working offline, sees pending go to zero when it is back, and resolves a refused change', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const remoteDir = tempDir('planner-remote-');
  remote = await startRemote(remoteDir);
  proxy = await startFaultProxy(remote.url);
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(app.url);

  // Connect: remote address, environment and key.
  await openScreen(page, 'Sync');
  const state = page.getByTestId('sync-state');
  const pending = page.getByTestId('sync-pending');
  const refused = page.getByTestId('sync-conflicts');
  await expect(state).toHaveText('Not set up');
  await expect(page.getByText(/available in the desktop app/)).toBeVisible();
  await page.getByLabel('Remote address').fill(proxy.url);
  await page.getByLabel('Environment').fill(remoteAccess.env);
  await page.getByLabel('API key').fill(remoteAccess.key);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Saved. Sync starts at once.')).toBeVisible();
  await expect(state).toHaveText('Online', { timeout: 15_000 });
  await expect(page.getByText(`API key for environment ${remoteAccess.env}`)).toBeVisible();
  await expect(page.getByLabel('API key')).toHaveValue('');

  // Online: a change reaches the remote by itself.
  await createProject(page, 'Kitchen');
  await expect.poll(async () => (await remoteProjects()).map((p) => p.name), { timeout: 15_000 }).toContain('Kitchen');

  // Offline: the remote stops; changes are kept and wait.
  await remote.stop();
  await createProject(page, 'Bathroom');
  await createProject(page, 'Garage');
  await expect(page.getByRole('status', { name: 'Sync status' })).toContainText('Offline', { timeout: 15_000 });
  await openScreen(page, 'Sync');
  await expect(state).toHaveText('Offline');
  await expect.poll(async () => Number(await pending.textContent())).toBeGreaterThanOrEqual(2);
  const waiting = page.getByRole('table', { name: 'Changes waiting to be sent' });
  await expect(waiting).toContainText('Bathroom');
  await expect(waiting).toContainText('Garage');
  // Said under the status (the sync history's failed runs say it too).
  await expect(page.getByRole('region', { name: 'Status' }).getByText(/cannot be reached right now/)).toBeVisible();

  // Back: a new remote process on the same data folder (another port, behind the same
  // address). Sync now sends what waited.
  remote = await startRemote(remoteDir);
  proxy.retarget(remote.url);
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(pending).toHaveText('0', { timeout: 20_000 });
  await expect(state).toHaveText('Online');
  await expect(page.getByRole('status', { name: 'Sync status' })).toContainText('Online');
  expect((await remoteProjects()).map((p) => p.name)).toEqual(expect.arrayContaining(['Bathroom', 'Garage', 'Kitchen']));

  // A conflict: while this computer is cut off, someone makes project X on the remote, and
  // the planner makes another project X here. The remote refuses the second.
  await proxy.set('refuse');
  await onRemote(remote, 'POST', '/v1/project', { name: 'Remote X', external_ref: 'X' });
  const local = await bridgeCall(page, 'POST', '/v1/project', { name: 'Local X', external_ref: 'X' });
  expect(local.status).toBe(201);
  await proxy.set('pass');
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(refused).toHaveText('1', { timeout: 20_000 });
  const conflicts = page.getByRole('list', { name: 'Refused changes' });
  const conflict = conflicts.getByRole('listitem').filter({ hasText: 'Local X' }).first();
  await expect(conflict).toContainText('Your new project “Local X” was refused');
  // In the planner's words: the field by its label, the rule it broke.
  await expect(conflict).toContainText('External reference is already used by another record');
  await expect(page.getByRole('status', { name: 'Sync status' })).toContainText('1 conflict');

  // Review: your data against the server's; retry with another external_ref.
  await conflict.getByRole('button', { name: 'Review' }).click();
  const compare = conflict.getByRole('table', { name: 'Your data against the server’s' });
  await expect(compare.getByRole('row', { name: /External reference/ })).toContainText('X');
  await expect(compare.getByRole('row', { name: /External reference/ })).toContainText('not on the server');
  await expect(compare.getByRole('rowheader', { name: /External reference \(differs\)/ })).toBeVisible();
  await expect(conflict.getByLabel('External reference')).toHaveValue('X');
  await expect(conflict.getByLabel('Name', { exact: true })).toHaveValue('Local X');
  await page.evaluate(() => window.scrollTo(0, 0));
  await retakeScreenshot(page, 'sync.png', { fullPage: true });
  await conflict.getByLabel('External reference').fill('Y');
  await conflict.getByRole('button', { name: 'Retry' }).click();
  await expect(page.getByText('The remote accepted every change.')).toBeVisible();
  await expect(refused).toHaveText('0');

  // The retried change is an ordinary local change: it reaches the remote.
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect
    .poll(async () => (await remoteProjects()).find((p) => p.name === 'Local X')?.external_ref ?? null, { timeout: 20_000 })
    .toBe('Y');
  await expect(pending).toHaveText('0');
  const names = (await remoteProjects()).map((p) => `${p.name}:${p.external_ref ?? ''}`);
  expect(names).toEqual(expect.arrayContaining(['Remote X:X', 'Local X:Y']));
});

test('the connection form says what is missing before it sends anything', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  await openScreen(page, 'Sync');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('alert')).toContainText('Enter the address of the remote');
  await page.getByLabel('Remote address').fill('http://127.0.0.1:9');
  await page.getByLabel('API key').fill('remote-key');
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByRole('alert')).toContainText('An API key goes with its environment');
  await expect(page.getByTestId('sync-state')).toHaveText('Not set up');
});

test('a refused card move is shown in the planner’s words: fields by their labels, stages by name, days as days, nothing the app keeps for itself', async ({
  page,
}) => {
  test.setTimeout(120_000);
  remote = await startRemote();
  proxy = await startFaultProxy(remote.url);
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 1000 });
  await page.goto(app.url);
  await openScreen(page, 'Sync');
  await page.getByLabel('Remote address').fill(proxy.url);
  await page.getByLabel('Environment').fill(remoteAccess.env);
  await page.getByLabel('API key').fill(remoteAccess.key);
  await page.getByRole('button', { name: 'Connect' }).click();
  const state = page.getByTestId('sync-state');
  await expect(state).toHaveText('Online', { timeout: 15_000 });

  // A board with two stages and an order planned on Sawing (a planning: its card has a plan and
  // a batch), synced to the remote.
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Workshop',
      stages: [
        { name: 'Sawing', priority: 0 },
        { name: 'Painting', priority: 1 },
      ],
      statuses: [{ name: 'To do', entry: true, priority: 0 }],
    },
    { with: 'stages' },
  );
  const [sawing, painting] = board.stages;
  const monday = nextMonday();
  const collection = await bridgeApi(page, 'POST', '/v1/collection', { name: 'SO-1001', board_id: board.id });
  const planned = await bridgeApi(
    page,
    'POST',
    `/v1/collection/${collection.id}/board/${board.id}`,
    { start: monday, stage_id: sawing.id },
    { with: 'cards' },
  );
  const card = planned.cards[0];
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByTestId('sync-pending')).toHaveText('0', { timeout: 20_000 });
  await expect
    .poll(async () => (await onRemote(remote!, 'GET', '/v1/card', undefined, { filter: `id:eq:'${card.id}'` })).count, { timeout: 20_000 })
    .toBe(1);

  // Cut off, the card moves to Painting and a day later here, while Painting is deleted on the remote.
  await proxy.set('refuse');
  await onRemote(remote, 'DELETE', `/v1/stage/${painting.id}`);
  await bridgeApi(page, 'PUT', `/v1/collection/${collection.id}/card/${card.id}`, {
    stage_id: painting.id,
    start_date: addDays(monday, 1),
    end_date: addDays(monday, 1),
  });
  const waiting = page.getByRole('table', { name: 'Changes waiting to be sent' });
  await expect(waiting.getByRole('row', { name: /SO-1001|card/ }).last()).toContainText('Stage');
  await expect(waiting).not.toContainText('stage_id');

  await proxy.set('pass');
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByTestId('sync-conflicts')).toHaveText('1', { timeout: 20_000 });
  const conflict = page.getByRole('list', { name: 'Refused changes' }).getByRole('listitem').first();
  await expect(conflict).toContainText('Your action “Edit card” was refused');
  await expect(conflict).toContainText('Stage: the one chosen is not there (deleted, or not synced yet)');
  await expect(conflict).not.toContainText('stage_id');
  await conflict.getByRole('button', { name: 'Review' }).click();
  const compare = conflict.getByRole('table', { name: 'Your data against the server’s' });
  // Records by their names; Painting is gone here too, now that this computer shows the server's version.
  const stage = compare.getByRole('row', { name: /Stage \(differs\)/ });
  await expect(stage).toContainText('a record not on this computer');
  await expect(stage).toContainText('Sawing');
  await expect(compare.getByRole('row', { name: /Board/ })).toContainText('Workshop');
  await expect(compare.getByRole('row', { name: /Status/ })).toContainText('To do');
  await expect(compare.getByRole('row', { name: /Collection/ })).toContainText('SO-1001');
  // Days as the app writes them, not as the API stores them.
  await expect(compare.getByRole('row', { name: /Start date/ })).toContainText(longDate(addDays(monday, 1)).replace(/^(\w+) /, '$1, '));
  await expect(compare).not.toContainText(addDays(monday, 1));
  // What the app keeps for itself is left out.
  for (const field of ['plan_id', 'batch_id', 'rank', 'position', 'stage_id', 'collection_id'])
    await expect(compare).not.toContainText(field);
  await expect(compare).not.toContainText(card.id);
  // A stage is not typed by hand: only the fields a planner can type are offered for a retry.
  await expect(conflict.getByLabel('Stage', { exact: true })).toHaveCount(0);
});
