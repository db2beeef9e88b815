/**
 * The plan check after a sync on the Sync screen (docs/API.md "Sync", "Plan check"): while this
 * computer is cut off, the planner plans 5 h of cutting on Thursday's laser, and someone plans
 * another 5 h on the server; each is fine against Anna's 8 h, merged it is not. After the sync
 * the screen lists the overload beside the overruled changes, naming the change on the other
 * computer that made it. Accept closes it; "Move mine later" plans the planner's own order again
 * where there is room after that day, and closes it too.
 *
 * On the planboard the cards of an open finding are marked.
 *
 * The remote is the headless server as its own process, behind a small proxy that can cut the
 * app off; the app runs in browser-host mode with its own data folder.
 */
import { expect, test, type Page } from './fixtures.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import type { ServerProcess } from '../helpers/process.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, nextMonday } from './dates.js';
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

/** Thursday's laser overloaded by the merge, as the Sync screen lists it; the finding, and what the spec checks after. */
async function overloadedThursday(page: Page) {
  remote = await startRemote();
  proxy = await startFaultProxy(remote.url);
  app = await startApp();
  await page.setViewportSize({ width: 1500, height: 1000 });
  await page.goto(app.url);
  await connectOnSyncScreen(page, { url: proxy.url, ...remoteAccess });

  const everyDay = { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true };
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    { name: 'Laser shop', workdays: everyDay, stages: [{ name: 'Laser', priority: 1 }], statuses: [{ name: 'Todo' }] },
    { with: 'stages' },
  );
  const laser = board.stages[0].id as string;
  const cut = (await bridgeApi(page, 'POST', '/v1/activity', { description: 'Cut' })).id as string;
  const eight = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': 8, '7': 8 };
  await bridgeApi(page, 'POST', '/v1/resource', {
    name: 'Anna',
    workdays: eight,
    boards: [{ id: board.id, active: true, stages: [{ id: laser, percentage: 100, active: true }] }],
  });
  await expect
    .poll(async () => (await onRemote(remote!, 'GET', '/v1/resource', undefined, { filter: "name:eq:'Anna'" })).data.length, {
      timeout: 20_000,
    })
    .toBe(1);

  const thursday = addDays(nextMonday(), 3);
  const cutting = { stage_id: laser, start_date: thursday, end_date: thursday, activities: [{ id: cut, time: 300 }] };
  // Cut off, the planner fills Thursday's laser; meanwhile someone does too, on the server.
  await proxy.set('refuse');
  const mine = await bridgeApi(page, 'POST', '/v1/collection', { name: 'SO-Mine', board_id: board.id });
  await bridgeApi(page, 'POST', `/v1/collection/${mine.id}/card`, cutting);
  const theirs = await onRemote(remote, 'POST', '/v1/collection', { name: 'SO-Theirs', board_id: board.id });
  await onRemote(remote, 'POST', `/v1/collection/${theirs.id}/card`, cutting);

  // Back online: the merged Thursday is over capacity, and the planner is told who made it so.
  await proxy.set('pass');
  await openScreen(page, 'Sync');
  await page.getByRole('button', { name: 'Sync now' }).click();
  const findings = page.getByRole('list', { name: 'Plan check after sync' });
  const finding = findings.getByRole('listitem').filter({ hasText: 'over capacity' });
  await expect(finding).toHaveCount(1, { timeout: 20_000 });
  await expect(finding).toContainText(/Stage Laser is over capacity on \w{3} \d+ \w{3}: 10 h planned, 8 h available\./);
  await expect(finding).toContainText(/card “SO-Theirs” made on another computer \(\w+\) on /);
  await expect(finding).not.toContainText('SO-Mine');

  return { finding, board, mine, thursday };
}

test('a day overloaded by the merge of two plans, each fine alone, is listed with the change that made it, and accepted', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { finding } = await overloadedThursday(page);
  await finding.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText('No sync made the plan worse than either side had it.')).toBeVisible();
});

test('the planner moves their own order off the overloaded day: planned again where there is room, and the finding closes', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { finding, board, mine, thursday } = await overloadedThursday(page);
  await finding.getByRole('button', { name: 'Move mine later' }).click();
  await expect(page.getByText('No sync made the plan worse than either side had it.')).toBeVisible();
  // Thursday keeps the other computer's 5 h; the planner's own 5 h go to Friday, where Anna has room.
  const cards = await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: `board_id:eq:'${board.id}'`, with: 'collection' });
  const days = Object.fromEntries(cards.data.map((card: any) => [card.collection.name, [card.start_date, card.end_date]]));
  expect(days).toEqual({ 'SO-Mine': [addDays(thursday, 1), addDays(thursday, 1)], 'SO-Theirs': [thursday, thursday] });
  expect(mine.id).toEqual(cards.data.find((card: any) => card.collection.name === 'SO-Mine').collection_id);
});

test("the cards of the merge-made overload are marked on the planboard, the planner's and the other computer's, until it is accepted", async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { finding } = await overloadedThursday(page);
  await openScreen(page, 'Planboard');
  const cards = page.getByRole('listbox', { name: 'Cards' });
  const mark = /A sync made a problem in the plan with this card: see Sync/;
  for (const name of ['SO-Mine', 'SO-Theirs'])
    await expect(cards.getByRole('option', { name: new RegExp(name) })).toHaveAccessibleName(mark);

  await openScreen(page, 'Sync');
  await finding.getByRole('button', { name: 'Accept' }).click();
  await expect(page.getByText('No sync made the plan worse than either side had it.')).toBeVisible();
  await openScreen(page, 'Planboard');
  for (const name of ['SO-Mine', 'SO-Theirs'])
    await expect(cards.getByRole('option', { name: new RegExp(name) })).not.toHaveAccessibleName(mark);
});
