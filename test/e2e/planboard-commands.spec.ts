/**
 * Many cards moved as one planner's action (docs/API.md "Commands and undo"): 20 selected cards
 * moved with the keyboard are ONE `move_cards` command, Ctrl+Z undoes them in one step through
 * the server and Ctrl+Shift+Z redoes them in one step. The same holds once the move has synced
 * to a remote: the undo is a new command that syncs, and the remote has all 20 back.
 *
 * The app runs in browser-host mode with its own data folder; the remote is the headless server
 * as its own process. The board is seeded through the page's bridge, the moves and undo are
 * done on screen, and the data is read back from the API.
 */
import { expect, test, type Page } from './fixtures.js';
import type { ServerProcess } from '../helpers/process.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, longDate, nextMonday } from './dates.js';
import { bridgeApi, connectOnSyncScreen, openScreen } from './planner-page.js';
import { onRemote, remoteAccess, startRemote } from './remote.js';

let app: RunningApp | undefined;
let remote: ServerProcess | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
  await remote?.stop();
  remote = undefined;
});

const total = 22;
const moved = 20;
const names = Array.from({ length: total }, (_, at) => `Part ${String(at + 1).padStart(2, '0')}`);

interface Seeded {
  boardId: string;
  /** Where each card starts, by name. */
  starts: Map<string, string>;
}

/** A board with one stage and 22 cards over Monday to Thursday, each of its own collection. */
async function seedBoard(page: Page): Promise<Seeded> {
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Frames',
      stages: [{ name: 'Assembly', priority: 0 }],
      statuses: [{ name: 'To do', entry: true, color: 'blue' }],
    },
    { with: 'stages' },
  );
  const monday = nextMonday();
  const starts = new Map<string, string>();
  for (const [at, name] of names.entries()) {
    const collection = await bridgeApi(page, 'POST', '/v1/collection', { name, board_id: board.id });
    const start = addDays(monday, at % 4);
    await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/board/${board.id}`, { start, stage_id: board.stages[0].id });
    starts.set(name, start);
  }
  return { boardId: board.id, starts };
}

type Where = Map<string, string>;

async function startsOnApp(page: Page, boardId: string): Promise<Where> {
  const cards = await bridgeApi(page, 'GET', '/v1/card', undefined, {
    filter: `board_id:eq:'${boardId}'`,
    with: 'collection',
    limit: '100',
  });
  return new Map(cards.data.map((card: { collection: { name: string }; start_date: string }) => [card.collection.name, card.start_date]));
}

async function startsOnRemote(boardId: string): Promise<Where> {
  const cards = await onRemote(remote!, 'GET', '/v1/card', undefined, {
    filter: `board_id:eq:'${boardId}'`,
    with: 'collection',
    limit: '100',
  });
  return new Map(cards.data.map((card: { collection: { name: string }; start_date: string }) => [card.collection.name, card.start_date]));
}

/** Where the cards are after the first 20 moved one day later (the last two never move). */
function shifted(starts: Where): Where {
  return new Map([...starts].map(([name, start], at) => [name, at < moved ? addDays(start, 1) : start]));
}

async function commandsOnApp(page: Page): Promise<{ id: string; description: string; undoes: string | null }[]> {
  return (await bridgeApi(page, 'GET', '/v1/command', undefined, { limit: '1000' })).data;
}

/** Commands done since `before` (the list is newest first). */
async function newCommands(page: Page, before: readonly { id: string }[]) {
  const known = new Set(before.map((command) => command.id));
  return (await commandsOnApp(page)).filter((command) => !known.has(command.id));
}

/** Selects the first 20 cards: a click, then Ctrl+click on each of the others. */
async function selectTwenty(page: Page): Promise<void> {
  const cards = page.getByRole('listbox', { name: 'Cards' });
  for (const [at, name] of names.slice(0, moved).entries()) {
    await cards.getByRole('option', { name: new RegExp(`^${name},`) }).click(at === 0 ? {} : { modifiers: ['Control'] });
  }
  await expect(page.getByRole('group', { name: 'Selected cards' })).toContainText(`${moved} cards selected`);
}

/** Presses "Sync now" and waits until nothing is left to send. */
async function syncNow(page: Page): Promise<void> {
  await openScreen(page, 'Sync');
  await page.getByRole('button', { name: 'Sync now' }).click();
  await expect(page.getByTestId('sync-pending')).toHaveText('0', { timeout: 20_000 });
  await expect(page.getByTestId('sync-state')).toHaveText('Online');
}

test('20 selected cards move as one command, and undo and redo each take one step, also after a sync', async ({ page }) => {
  test.setTimeout(180_000);
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { boardId, starts } = await seedBoard(page);
  const after = shifted(starts);

  await openScreen(page, 'Planboard');
  const part01 = page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^Part 01,/ });
  await expect(part01).toHaveAccessibleName(new RegExp(longDate(starts.get('Part 01')!)));

  // Moved one day later with Alt+→: one command moved all 20, and only them.
  let before = await commandsOnApp(page);
  await selectTwenty(page);
  await page.keyboard.press('Alt+ArrowRight');
  await expect(part01).toHaveAccessibleName(new RegExp(longDate(after.get('Part 01')!)));
  await expect.poll(() => startsOnApp(page, boardId)).toEqual(after);
  const move = await newCommands(page, before);
  expect(move).toMatchObject([{ description: `Move ${moved} cards`, undoes: null }]);

  // Ctrl+Z once: all 20 back, by one undo of that command.
  before = await commandsOnApp(page);
  await page.keyboard.press('Control+z');
  await expect.poll(() => startsOnApp(page, boardId)).toEqual(starts);
  await expect(part01).toHaveAccessibleName(new RegExp(longDate(starts.get('Part 01')!)));
  await expect(page.getByRole('status').filter({ hasText: `Undone: Move ${moved} cards` })).toBeVisible();
  const undo = await newCommands(page, before);
  expect(undo).toMatchObject([{ undoes: move[0]!.id }]);

  // Ctrl+Shift+Z once: all 20 moved again, by one undo of the undo.
  before = await commandsOnApp(page);
  await page.keyboard.press('Control+Shift+z');
  await expect.poll(() => startsOnApp(page, boardId)).toEqual(after);
  await expect(page.getByRole('status').filter({ hasText: `Redone: Move ${moved} cards` })).toBeVisible();
  expect(await newCommands(page, before)).toMatchObject([{ undoes: undo[0]!.id }]);

  // Connected to a remote and synced: the remote has the cards where they are now.
  remote = await startRemote();
  await connectOnSyncScreen(page, { url: remote.url, ...remoteAccess });
  await syncNow(page);
  expect(await startsOnRemote(boardId)).toEqual(after);

  // Undo once on the planboard, sync: the remote has all 20 back.
  await openScreen(page, 'Planboard');
  before = await commandsOnApp(page);
  await expect(part01).toBeVisible();
  await page.keyboard.press('Control+z');
  await expect.poll(() => startsOnApp(page, boardId)).toEqual(starts);
  expect(await newCommands(page, before)).toHaveLength(1);
  await syncNow(page);
  expect(await startsOnRemote(boardId)).toEqual(starts);

  // A new move of the 20 after that sync, synced, undone once, synced: the remote follows each.
  await openScreen(page, 'Planboard');
  before = await commandsOnApp(page);
  await selectTwenty(page);
  await page.keyboard.press('Alt+ArrowRight');
  await expect.poll(() => startsOnApp(page, boardId)).toEqual(after);
  expect(await newCommands(page, before)).toMatchObject([{ description: `Move ${moved} cards` }]);
  await syncNow(page);
  expect(await startsOnRemote(boardId)).toEqual(after);
  await openScreen(page, 'Planboard');
  await expect(part01).toBeVisible();
  await page.keyboard.press('Control+z');
  await expect.poll(() => startsOnApp(page, boardId)).toEqual(starts);
  await syncNow(page);
  expect(await startsOnRemote(boardId)).toEqual(starts);
});

test('Ctrl+Z shows the card back at once, before the server has answered the undo, and redo the same', async ({ page }) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { boardId, starts } = await seedBoard(page);
  await openScreen(page, 'Planboard');
  const part01 = page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^Part 01,/ });
  const start = starts.get('Part 01')!;
  await part01.click();
  await page.keyboard.press('Alt+ArrowRight');
  await expect.poll(async () => (await startsOnApp(page, boardId)).get('Part 01')).toBe(addDays(start, 1));

  // The server's answer to undo and redo is held back until the screen has been looked at.
  let release!: () => void;
  const held = new Promise<void>((done) => (release = done));
  let undoAsked = 0;
  await page.route('**/bridge/request', async (route) => {
    const body = route.request().postDataJSON() as { path?: string };
    if (String(body.path).endsWith('/undo')) {
      undoAsked++;
      await held;
    }
    await route.continue();
  });

  await page.keyboard.press('Control+z');
  await expect(part01).toHaveAccessibleName(new RegExp(longDate(start)), { timeout: 2_000 });
  expect(undoAsked, 'the undo was asked of the server and not yet answered').toBe(1);
  release();
  await expect.poll(async () => (await startsOnApp(page, boardId)).get('Part 01')).toBe(start);
  await expect(page.getByRole('status').filter({ hasText: 'Undone: Move Part 01' })).toBeVisible();

  // Redo: the same, shown at once (nothing holds it back now, but the screen does not wait for it either).
  await page.keyboard.press('Control+Shift+z');
  await expect(part01).toHaveAccessibleName(new RegExp(longDate(addDays(start, 1))));
  await expect.poll(async () => (await startsOnApp(page, boardId)).get('Part 01')).toBe(addDays(start, 1));
});
