/**
 * Two planners on two computers, one remote: what one plans and moves shows up on the other's
 * planboard through sync, while that planboard stays open — no reload, no screen change.
 *
 * The remote is the headless server as its own process; each app runs in browser-host mode
 * with its own data folder and its own browser context, and is connected on its Sync screen.
 * Computer A sets up a board and plans a collection (through the API, as the planboard spec
 * covers doing it on screen), sends it with "Sync now", then moves the card with the keyboard.
 * Computer B is left alone on its planboard: it only gets changes from its own sync runs, and
 * its top bar shows local only, then online with nothing waiting, and never offline (not even
 * while its first sync runs).
 */
import { expect, fixTheClock, test, type Browser, type BrowserContext, type Page } from './fixtures.js';
import type { ServerProcess } from '../helpers/process.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, longDate, nextMonday } from './dates.js';
import { bridgeApi, cardOnServer, connectOnSyncScreen, openScreen } from './planner-page.js';
import { onRemote, remoteAccess, startRemote } from './remote.js';

// Both planboards show the whole week from the next Monday.
const viewport = { width: 1400, height: 900 };
// A replica pulls every 10 s (electron/sync/client.ts): room for a pull and its refetch.
const syncArrives = { timeout: 30_000 };

let remote: ServerProcess | undefined;
const apps: RunningApp[] = [];
const contexts: BrowserContext[] = [];

test.afterEach(async () => {
  await Promise.all(contexts.splice(0).map((context) => context.close()));
  await Promise.all(apps.splice(0).map((app) => app.stop()));
  await remote?.stop();
  remote = undefined;
});

async function openComputer(browser: Browser): Promise<Page> {
  const app = await startApp();
  apps.push(app);
  const context = await browser.newContext({ viewport });
  contexts.push(context);
  await fixTheClock(context);
  const page = await context.newPage();
  // Runs at every load of the page, so it notes what the top bar said from the first paint.
  await page.addInitScript(recordSyncStatus);
  await page.goto(app.url);
  return page;
}

/** Keeps, in the page, each different thing the top bar's sync status said, in order. */
function recordSyncStatus(): void {
  const said: string[] = [];
  (window as unknown as { syncStatusSaid: string[] }).syncStatusSaid = said;
  const read = () => {
    const status = document.querySelector('[role="status"][aria-label="Sync status"]');
    if (!status) return;
    const words = [...status.querySelectorAll('span:not([aria-hidden="true"])')].map((span) => span.textContent).join(' | ');
    if (words && said.at(-1) !== words) said.push(words);
  };
  new MutationObserver(read).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
}

function statusSaid(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { syncStatusSaid: string[] }).syncStatusSaid);
}

async function cardStartOnRemote(name: string): Promise<string | null> {
  return (await onRemote(remote!, 'GET', '/v1/card', undefined, { filter: `name:eq:'${name}'` })).data[0]?.start_date ?? null;
}

/** Presses "Sync now" and waits until nothing is left to send. */
async function syncNow(page: Page): Promise<void> {
  await openScreen(page, 'Sync');
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByTestId('sync-pending')).toHaveText('0', { timeout: 20_000 });
  await expect(page.getByTestId('sync-state')).toHaveText('Online');
}

test('a card planned and moved on one computer appears and moves on the other computer’s open planboard through sync', async ({
  browser,
}) => {
  test.setTimeout(150_000);
  remote = await startRemote();
  const [a, b] = await Promise.all([openComputer(browser), openComputer(browser)]);
  const bStatus = b.getByRole('status', { name: 'Sync status' });
  await expect(bStatus).toContainText('Local only');
  // Gone if the page is ever loaded again: proves B's board followed without a reload.
  await b.evaluate(() => ((window as unknown as { loadedOnce: boolean }).loadedOnce = true));

  for (const page of [a, b]) await connectOnSyncScreen(page, { url: remote.url, ...remoteAccess });
  await openScreen(b, 'Planboard');
  await expect(b.getByText('No boards yet.')).toBeVisible();

  // On A: a board with two stages, a collection planned on Monday in Welding.
  const monday = nextMonday();
  const board = await bridgeApi(
    a,
    'POST',
    '/v1/board',
    {
      name: 'Frames',
      stages: [
        { name: 'Cutting', priority: 0 },
        { name: 'Welding', priority: 1 },
      ],
      statuses: [{ name: 'To do', entry: true, color: 'blue' }],
    },
    { with: 'stages' },
  );
  const collection = await bridgeApi(a, 'POST', '/v1/collection', { name: 'Frame 1001', board_id: board.id });
  await bridgeApi(a, 'POST', `/v1/collection/${collection.id}/board/${board.id}`, { start: monday, stage_id: board.stages[1].id });
  await syncNow(a);
  expect(await cardStartOnRemote('Frame 1001')).toBe(monday);

  // On B, untouched: the board and the card arrive with B's next pull.
  const bStages = b.getByRole('list', { name: 'Stages' }).getByRole('listitem');
  const bCard = b.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^Frame 1001/ });
  await expect(bStages).toHaveText([/^Cutting/, /^Welding/], syncArrives);
  await expect(bCard).toHaveAccessibleName(new RegExp(`${longDate(monday)}, Welding`), syncArrives);

  // On A: the card moved two days later with Alt+→, twice; the last move is what syncs.
  await openScreen(a, 'Planboard');
  const aCard = a.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^Frame 1001/ });
  await aCard.click();
  await expect(aCard).toHaveAttribute('aria-selected', 'true');
  await a.keyboard.press('Alt+ArrowRight');
  await expect(aCard).toHaveAccessibleName(new RegExp(longDate(addDays(monday, 1))));
  await a.keyboard.press('Alt+ArrowRight');
  const wednesday = addDays(monday, 2);
  await expect(aCard).toHaveAccessibleName(new RegExp(`${longDate(wednesday)}, Welding`));
  await expect.poll(async () => (await cardOnServer(a, 'Frame 1001')).start_date).toBe(wednesday);
  await syncNow(a);
  expect(await cardStartOnRemote('Frame 1001')).toBe(wednesday);

  // On B: the card follows to Wednesday, still one card.
  await expect(bCard).toHaveAccessibleName(new RegExp(`${longDate(wednesday)}, Welding`), syncArrives);
  await expect(bCard).toHaveCount(1);
  expect(await b.evaluate(() => (window as unknown as { loadedOnce?: boolean }).loadedOnce)).toBe(true);

  // B's top bar: local only until connected, then (after its first sync) online, and the remote
  // was never out of reach. B's only changes of its own are the app user the test helpers made
  // for it (test/e2e/app.ts), which may show as pending until its first push. The last word is
  // read once no run is in progress (B still pulls every 10 s).
  await expect.poll(async () => (await statusSaid(b)).at(-1)).toBe('Online | Online: everything is sent.');
  const said = await statusSaid(b);
  const localOnly = said.findIndex((words) => words.startsWith('Local only'));
  expect(localOnly, said.join('\n')).toBeGreaterThanOrEqual(0);
  expect(
    said.findIndex((words) => words.startsWith('Online')),
    said.join('\n'),
  ).toBeGreaterThan(localOnly);
  expect(
    said.filter((words) => /Offline|conflict|Status unknown/.test(words)),
    said.join('\n'),
  ).toEqual([]);
});
