/**
 * The planboard as a new user meets it: an activity, a board with stages and statuses, a
 * collection in the backlog planned by dragging it onto a day, a card moved by dragging and
 * the move undone, the card opened from the keyboard, and a change made by another client
 * showing up without a reload. Everything through the screens, against the real app in
 * browser-host mode with its own data folder; the API is only read (and, for "another
 * client", written) through the page's bridge.
 *
 * The sync variant (two replicas and a remote) follows once the sync screens exist.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, longDate, nextMonday } from './dates.js';
import { cellCentre, dayOnDateBar, dragTo } from './planboard-grid.js';
import { bridgeApi, cardOnServer, openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('a new user plans a collection by dragging it, moves the card, undoes the move and opens the card', async ({ page, context }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);

  // An activity, then a board whose second stage does it, with an entry and an exit status.
  await openScreen(page, 'Activities');
  await page.getByLabel('Activity name').fill('Welding');
  await page.getByRole('button', { name: 'Save activity' }).click();
  await expect(page.getByRole('list', { name: 'Activities' }).getByRole('listitem').filter({ hasText: 'Welding' })).toBeVisible();

  await openScreen(page, 'Planboard');
  await page.getByRole('button', { name: 'New board' }).click();
  await page.getByLabel('Board name').fill('Frames');
  for (const [index, name] of ['Cutting', 'Welding', 'Painting'].entries()) {
    await page.getByRole('button', { name: 'Add stage' }).click();
    await page.getByLabel(`Stage ${index + 1} name`).fill(name);
  }
  await page.getByRole('group', { name: 'Stage 2 allowed activities' }).getByLabel('Welding').check();
  await page.getByRole('button', { name: 'Add status' }).click();
  await page.getByLabel('Status 1 name').fill('To do');
  await page.getByLabel('Status 1 entry').check();
  await page.getByRole('button', { name: 'Add status' }).click();
  await page.getByLabel('Status 2 name').fill('Done');
  await page.getByLabel('Status 2 exit').check();
  await page.getByRole('button', { name: 'Save board' }).click();

  const stages = page.getByRole('list', { name: 'Stages' }).getByRole('listitem');
  await expect(stages).toHaveText([/^Cutting$/, /^Welding.*Welding/, /^Painting$/]);
  await expect(page.getByRole('status', { name: 'Sync status' })).toContainText('Local only');

  // A collection in the backlog with a day of welding.
  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  await backlog.getByRole('button', { name: 'New collection' }).click();
  await backlog.getByLabel('Collection name').fill('Frame 1001');
  await backlog.getByLabel('Due date', { exact: true }).fill(addDays(nextMonday(), 14));
  await backlog.getByRole('checkbox', { name: 'Welding' }).check();
  await backlog.getByRole('spinbutton').fill('480');
  await backlog.getByRole('button', { name: 'Add to backlog' }).click();
  const item = backlog.getByRole('list', { name: 'Backlog collections' }).getByRole('listitem').filter({ hasText: 'Frame 1001' });
  await expect(item).toBeVisible();

  // Planned by dragging it onto Monday in the Welding row: the card shows at once.
  const monday = nextMonday();
  const itemBox = (await item.boundingBox())!;
  await dragTo(page, { x: itemBox.x + 40, y: itemBox.y + 20 }, await cellCentre(page, monday, 'Welding'));
  const card = page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^Frame 1001/ });
  await expect(card).toHaveAccessibleName(new RegExp(`${longDate(monday)}, Welding`));
  await expect(item).toHaveCount(0);
  expect(await cardOnServer(page, 'Frame 1001')).toMatchObject({ start_date: monday, end_date: monday, stage: { name: 'Welding' } });

  // Moved two days later by dragging it.
  const wednesday = addDays(monday, 2);
  const from = await cellCentre(page, monday, 'Welding');
  const cardBox = (await card.boundingBox())!;
  await dragTo(
    page,
    { x: from.x, y: cardBox.y + cardBox.height / 2 },
    { x: (await cellCentre(page, wednesday, 'Welding')).x, y: cardBox.y + cardBox.height / 2 },
  );
  await expect(card).toHaveAccessibleName(new RegExp(longDate(wednesday)));
  await expect.poll(async () => (await cardOnServer(page, 'Frame 1001')).start_date).toBe(wednesday);

  // Ctrl+Z puts it back, on screen and in the data.
  await page.keyboard.press('Control+z');
  await expect(card).toHaveAccessibleName(new RegExp(longDate(monday)));
  await expect.poll(async () => (await cardOnServer(page, 'Frame 1001')).start_date).toBe(monday);
  await expect(page.getByRole('status').filter({ hasText: 'Undone: Move Frame 1001' })).toBeVisible();

  // Selected with a click, opened with Enter, closed with Esc.
  await card.click();
  await expect(card).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('Enter');
  const panel = page.getByRole('complementary', { name: 'Card details' });
  await expect(panel).toBeVisible();
  await expect(panel).toContainText('Frame 1001');
  await page.keyboard.press('Escape');
  await expect(panel).toBeHidden();

  // Another client moves the card: the planboard follows without a reload.
  const other = await context.newPage();
  await other.goto(app.url);
  const saved = await cardOnServer(other, 'Frame 1001');
  const thursday = addDays(monday, 3);
  await bridgeApi(other, 'PUT', `/v1/collection/${saved.collection_id}/card/${saved.id}`, { start_date: thursday, end_date: thursday });
  await expect(card).toHaveAccessibleName(new RegExp(longDate(thursday)));
  await other.close();
});

test('zoom keeps the days in view; keyboard: arrows select cards, Alt+arrows move one, ? lists the shortcuts; a refused move goes back with the reason', async ({
  page,
}) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const monday = nextMonday();
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Keys',
      stages: [
        { name: 'Sawing', priority: 0 },
        { name: 'Sanding', priority: 1 },
      ],
      statuses: [{ name: 'To do', entry: true, color: 'blue' }],
    },
    { with: 'stages' },
  );
  for (const [name, stage] of [
    ['Table', 0],
    ['Chair', 1],
  ] as const) {
    const collection = await bridgeApi(page, 'POST', '/v1/collection', { name, board_id: board.id });
    await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/board/${board.id}`, { start: monday, stage_id: board.stages[stage].id });
  }
  await page.reload();

  const cards = page.getByRole('listbox', { name: 'Cards' });
  await expect(cards.getByRole('option')).toHaveCount(2);

  // Zooming out and in again keeps the same days in view.
  const zoom = page.getByRole('group', { name: 'Zoom' });
  await zoom.getByRole('button', { name: 'Month' }).click();
  await expect(page.locator('.pb-scroller--month')).toBeVisible();
  await expect(cards.getByRole('option')).toHaveCount(2);
  await zoom.getByRole('button', { name: 'Week' }).click();
  await expect(page.locator('.pb-scroller--week')).toBeVisible();
  await expect(cards.getByRole('option')).toHaveCount(2);

  await cards.focus();
  await page.keyboard.press('ArrowRight');
  await expect(cards.getByRole('option', { name: /^Table/ })).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  await expect(cards.getByRole('option', { name: /^Chair/ })).toHaveAttribute('aria-selected', 'true');
  await expect(cards.getByRole('option', { name: /^Table/ })).toHaveAttribute('aria-selected', 'false');

  await page.keyboard.press('Alt+ArrowRight');
  await expect(cards.getByRole('option', { name: /^Chair/ })).toHaveAccessibleName(new RegExp(longDate(addDays(monday, 1))));
  await expect.poll(async () => (await cardOnServer(page, 'Chair')).start_date).toBe(addDays(monday, 1));
  await page.keyboard.press('Alt+ArrowUp');
  await expect.poll(async () => (await cardOnServer(page, 'Chair')).stage.name).toBe('Sawing');

  await page.keyboard.press('?');
  const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
  await expect(help).toContainText('Alt + ← / →');
  await page.keyboard.press('Escape');
  await expect(help).toBeHidden();

  // N (the File menu's New collection) opens the backlog's form with the name field ready.
  await page.getByRole('checkbox', { name: 'Backlog', exact: true }).uncheck();
  await expect(page.getByRole('complementary', { name: 'Backlog' })).toBeHidden();
  await cards.focus();
  await page.keyboard.press('n');
  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  await expect(backlog.getByLabel('Collection name')).toBeFocused();
  await page.keyboard.type('Stool');
  await backlog.getByRole('button', { name: 'Add to backlog' }).click();
  await expect(backlog.getByRole('list', { name: 'Backlog collections' }).getByRole('listitem').filter({ hasText: 'Stool' })).toBeVisible();

  // The API refuses the next move (one move_cards command): the card goes back and the planner reads why.
  await page.route('**/bridge/request', async (route) => {
    const request = route.request().postDataJSON() as { method: string; path: string };
    if (request.method !== 'POST' || request.path !== '/v1/command/move_cards') return route.continue();
    await route.fulfill({
      json: {
        status: 422,
        headers: {},
        body: {
          reference: 'e2e',
          errors: [{ code: 10422, message: 'Unprocessable Content', description: 'the card is locked', field: 'cards.0.start_date' }],
        },
      },
    });
  });
  const chair = cards.getByRole('option', { name: /^Chair/ });
  await cards.focus();
  await page.keyboard.press('Alt+ArrowRight');
  await expect(page.getByRole('alert').filter({ hasText: /Could not move Chair: .*the card is locked/ })).toBeVisible();
  await expect(chair).toHaveAccessibleName(new RegExp(longDate(addDays(monday, 1))));
  await page.unroute('**/bridge/request');
});

test('backlog and selection: plan over the stages, ignore, resize, label two cards, filter and save a view, unplan and delete with undo', async ({
  page,
}) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const monday = nextMonday();
  const cut = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Cut', resource_type: 'employee' });
  const weld = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Weld', resource_type: 'employee' });
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Gates',
      stages: [
        { name: 'Cutting', priority: 0, activities: [{ id: cut.id, priority: 0 }] },
        { name: 'Welding', priority: 1, activities: [{ id: weld.id, priority: 0 }] },
      ],
      statuses: [{ name: 'To do', entry: true, color: 'blue' }],
      labels: [{ name: 'Rush', color: 'red' }],
    },
    { with: 'stages,labels' },
  );
  for (const [name, activities] of [
    ['Gate', [cut, weld]],
    ['Fence', [cut]],
    ['Spare', []],
  ] as const) {
    await bridgeApi(page, 'POST', '/v1/collection', {
      name,
      board_id: board.id,
      due_date: addDays(monday, 20),
      activities: activities.map((a) => ({ id: a.id, time: 480 })),
    });
  }
  await page.reload();
  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  const items = backlog.getByRole('list', { name: 'Backlog collections' }).getByRole('listitem');
  const cards = page.getByRole('listbox', { name: 'Cards' });
  await expect(items).toHaveCount(3);

  // Dropped on the date bar: planned over the board's stages, a day on each.
  const gateItem = items.filter({ hasText: 'Gate' });
  const dateBar = (await dayOnDateBar(page, monday).boundingBox())!;
  const gateBox = (await gateItem.boundingBox())!;
  await dragTo(page, { x: gateBox.x + 30, y: gateBox.y + 15 }, { x: dateBar.x + dateBar.width / 2, y: dateBar.y + dateBar.height / 2 });
  await expect(cards.getByRole('option', { name: /^Gate/ })).toHaveCount(2);
  await expect(cards.getByRole('option', { name: /^Gate/ }).nth(0)).toHaveAccessibleName(new RegExp(`${longDate(monday)}, Cutting`));
  await expect(cards.getByRole('option', { name: new RegExp(`^Gate.*${longDate(addDays(monday, 1))}, Welding`) })).toBeVisible();

  // Planned without a pointer: the Plan… form, on one stage.
  const fenceItem = items.filter({ hasText: 'Fence' });
  await fenceItem.hover();
  await fenceItem.getByRole('button', { name: 'Plan…' }).click();
  await backlog.getByLabel('Start of Fence').fill(addDays(monday, 2));
  await backlog.getByLabel('Stage for Fence').selectOption({ label: 'Welding' });
  await backlog.getByRole('button', { name: 'Plan', exact: true }).click();
  const fence = cards.getByRole('option', { name: /^Fence/ });
  await expect(fence).toHaveAccessibleName(new RegExp(`${longDate(addDays(monday, 2))}, Welding`));

  // Ignored, and back with Ctrl+Z.
  const spareItem = items.filter({ hasText: 'Spare' });
  await spareItem.hover();
  await spareItem.getByRole('button', { name: 'Ignore Spare' }).click();
  await expect(spareItem).toHaveCount(0);
  await page.keyboard.press('Control+z');
  await expect(spareItem).toHaveCount(1);

  // The Cutting card made a day longer by dragging its end edge.
  // The stage follows the dates; a warning may name stages too.
  const gateCut = cards.getByRole('option', { name: /^Gate, .* \d{4}, Cutting/ });
  const cutBox = (await gateCut.boundingBox())!;
  const dayWidth = dateBar.width;
  await dragTo(
    page,
    { x: cutBox.x + cutBox.width - 2, y: cutBox.y + cutBox.height / 2 },
    { x: cutBox.x + cutBox.width - 2 + dayWidth, y: cutBox.y + cutBox.height / 2 },
  );
  await expect(gateCut).toHaveAccessibleName(new RegExp(`${longDate(monday)} to ${longDate(addDays(monday, 1))}`));
  await expect
    .poll(
      async () => (await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: `stage_id:eq:'${board.stages[0].id}'` })).data[0].end_date,
    )
    .toBe(addDays(monday, 1));

  // Both Gate cards labelled Rush in one go.
  const gateWeld = cards.getByRole('option', { name: /^Gate, .* \d{4}, Welding/ });
  await gateCut.click();
  await gateWeld.click({ modifiers: ['Control'] });
  const selectionBar = page.getByRole('group', { name: 'Selected cards' });
  await expect(selectionBar).toContainText('2 cards selected');
  await selectionBar.getByLabel('Add label').selectOption({ label: 'Rush' });
  await expect
    .poll(async () => (await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: `labels:has:'${board.labels[0].id}'` })).count)
    .toBe(2);
  await expect(gateCut).toHaveAccessibleName(/labels Rush/);

  // Filtered to Rush, saved as a view; All cards shows Fence again, the view hides it.
  await page.getByRole('group', { name: 'Filters' }).getByText('Labels').click();
  await page.getByRole('group', { name: 'Filter by labels' }).getByLabel('Rush').check();
  await expect(fence).toHaveCount(0);
  await page.getByRole('button', { name: 'Save view…' }).click();
  await page.getByLabel('View name').fill('Rush only');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page.getByLabel('Saved view')).toHaveValue(/.+/);
  await page.getByLabel('Saved view').selectOption({ label: 'All cards' });
  await expect(fence).toHaveCount(1);
  await page.getByLabel('Saved view').selectOption({ label: 'Rush only' });
  await expect(fence).toHaveCount(0);
  await page.getByLabel('Saved view').selectOption({ label: 'All cards' });

  // Fence back to the backlog, and undone.
  await fence.click();
  await selectionBar.getByRole('button', { name: 'Move to backlog' }).click();
  await expect(fence).toHaveCount(0);
  await expect(items.filter({ hasText: 'Fence' })).toHaveCount(1);
  await page.keyboard.press('Control+z');
  await expect(fence).toHaveAccessibleName(new RegExp(`${longDate(addDays(monday, 2))}, Welding`));
  await expect(items.filter({ hasText: 'Fence' })).toHaveCount(0);

  // A card deleted with the Delete key, and restored with Ctrl+Z.
  await gateWeld.click();
  await page.keyboard.press('Delete');
  await expect(gateWeld).toHaveCount(0);
  await page.keyboard.press('Control+z');
  await expect(gateWeld).toHaveCount(1);
  await expect
    .poll(
      async () =>
        (await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: `stage_id:eq:'${board.stages[1].id}',and,name:eq:'Gate'` })).count,
    )
    .toBe(1);
});
