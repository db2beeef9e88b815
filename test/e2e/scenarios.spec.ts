/**
 * Plan scenarios on the desktop (docs/API.md "Scenarios"): a planner makes a scenario from the
 * planboard's "Scenarios" menu, moves a card in it, sees that the live plan did not move,
 * compares the two side by side, promotes the scenario onto the live plan as a colleague left
 * it meanwhile, and undoes the promote in one step.
 *
 * Board Frames, one stage Assembly; Frame and Door each one card on their own collection,
 * from the next Monday (the first workday a new board shows). The app runs in browser-host
 * mode with its own data folder; the board is seeded through the page's bridge.
 */
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, longDate, nextMonday } from './dates.js';
import { bridgeApi, openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const monday = nextMonday();

async function seedBoard(page: Page): Promise<{ boardId: string }> {
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    { name: 'Frames', stages: [{ name: 'Assembly', priority: 0 }], statuses: [{ name: 'To do', entry: true, color: 'blue' }] },
    { with: 'stages' },
  );
  for (const [at, name] of ['Frame', 'Door'].entries()) {
    const collection = await bridgeApi(page, 'POST', '/v1/collection', { name, board_id: board.id });
    await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/board/${board.id}`, {
      start: addDays(monday, at),
      stage_id: board.stages[0].id,
    });
  }
  return { boardId: board.id };
}

/** Where each card starts, by its collection's name, in the live plan or in a scenario. */
async function starts(page: Page, boardId: string, scenario?: string): Promise<Record<string, string>> {
  const cards = await bridgeApi(
    page,
    'GET',
    '/v1/card',
    undefined,
    { filter: `board_id:eq:'${boardId}'`, with: 'collection', limit: '100' },
    scenario,
  );
  return Object.fromEntries(
    cards.data.map((card: { collection: { name: string }; start_date: string }) => [card.collection.name, card.start_date]),
  );
}

test('a planner makes a scenario, moves a card in it, compares, promotes onto the live plan a colleague changed, and undoes', async ({
  page,
}) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { boardId } = await seedBoard(page);
  const live = { Frame: monday, Door: addDays(monday, 1) };
  expect(await starts(page, boardId)).toEqual(live);

  // The Scenarios menu makes one from the plan as it is, and every screen says it is open.
  await openScreen(page, 'Planboard');
  await page.getByRole('button', { name: 'Scenarios', exact: true }).click();
  const menu = page.getByRole('dialog', { name: 'Scenarios' });
  await expect(menu.getByText('No scenarios yet.')).toBeVisible();
  await menu.getByLabel('Name').fill('Rush order');
  await menu.getByRole('button', { name: 'Make scenario' }).click();
  await expect(menu).toBeHidden();
  const banner = page.getByRole('region', { name: 'Scenario' });
  await expect(banner).toContainText('Rush order');
  const [scenario] = (await bridgeApi(page, 'GET', '/v1/scenario')).data;
  expect(scenario).toMatchObject({ name: 'Rush order' });

  // Frame moved a day later with Alt+→ moves in the scenario only.
  const frame = page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^Frame,/ });
  await expect(frame).toHaveAccessibleName(new RegExp(longDate(monday)));
  await frame.click();
  await page.keyboard.press('Alt+ArrowRight');
  await expect(frame).toHaveAccessibleName(new RegExp(longDate(addDays(monday, 1))));
  await expect.poll(() => starts(page, boardId, scenario.id)).toEqual({ ...live, Frame: addDays(monday, 1) });
  expect(await starts(page, boardId)).toEqual(live);

  // Meanwhile a colleague moves Door in the live plan: the promote keeps it.
  const [door] = (await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: `name:eq:'Door'` })).data;
  await bridgeApi(page, 'PUT', `/v1/collection/${door.collection_id}/card/${door.id}`, {
    start_date: addDays(monday, 3),
    end_date: addDays(monday, 3),
  });

  // Compare: Frame's two places side by side.
  await banner.getByRole('button', { name: 'Compare with the live plan' }).click();
  const compare = page.getByRole('dialog', { name: 'Scenario Rush order against the live plan' });
  const moved = compare.getByRole('region', { name: 'Cards moved' });
  await expect(moved.getByRole('row', { name: /Frame/ })).toContainText(/Assembly.*Assembly/);
  await expect(moved.getByRole('row')).toHaveCount(3); // the head, Frame, and Door (moved live, so not where the scenario has it)

  // Promote: the live plan has both changes, the banner is gone, and it is one command.
  await compare.getByRole('button', { name: 'Promote onto the live plan' }).click();
  await expect(compare).toBeHidden();
  await expect(banner).toBeHidden();
  await expect(page.getByRole('status').filter({ hasText: 'Scenario Rush order is on the live plan' })).toBeVisible();
  await expect.poll(() => starts(page, boardId)).toEqual({ Frame: addDays(monday, 1), Door: addDays(monday, 3) });
  const [promote] = (await bridgeApi(page, 'GET', '/v1/command', undefined, { limit: '1' })).data;
  expect(promote).toMatchObject({ description: 'Promote scenario Rush order', undoes: null });

  // Ctrl+Z on the planboard undoes the promote in one step; the colleague's move stays.
  await expect(frame).toHaveAccessibleName(new RegExp(longDate(addDays(monday, 1))));
  await page.keyboard.press('Control+z');
  await expect.poll(() => starts(page, boardId)).toEqual({ Frame: monday, Door: addDays(monday, 3) });
  await expect(frame).toHaveAccessibleName(new RegExp(longDate(monday)));
  const [undo] = (await bridgeApi(page, 'GET', '/v1/command', undefined, { limit: '1' })).data;
  expect(undo).toMatchObject({ undoes: promote.id });
});
