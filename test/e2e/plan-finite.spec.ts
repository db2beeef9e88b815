/**
 * Finite planning from the backlog (issue 22, docs/API.md "Finite-capacity planning"): the plan
 * dialog shows the promise date of a dry run before the planner commits, and Plan makes the
 * very plan it showed.
 *
 * Board Shop (Mon–Fri), one stage Work allowing Cut; Anna works 8 h a day, 100 % on Work.
 * Existing load: Old, 1,080 min, planned from Monday without resources: Mon–Wed at 360 min a
 * day, which leaves 120 min free on each of those days. Gate (300 min) planned finite from
 * Monday needs Mon–Wed (3 × 120 ≥ 300); planned as before (infinite), Monday alone.
 */
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, nextMonday, shortDate, testToday } from './dates.js';
import { bridgeApi, bridgeCall, openScreen } from './planner-page.js';
import { seedCollection, seedCutShop, seedPlanned } from './shop.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** The cut shop (shop.ts) with its load: Old planned from Monday, and Gate in the backlog. */
async function seedLoadedShop(page: Page, monday: string): Promise<{ boardId: string; cutId: string; gateId: string }> {
  const { boardId, cutId } = await seedCutShop(page);
  await seedPlanned(page, boardId, { name: 'Old', activityId: cutId, minutes: 1080 }, monday);
  const gateId = await seedCollection(page, boardId, { name: 'Gate', activityId: cutId, minutes: 300, due: addDays(monday, 14) });
  return { boardId, cutId, gateId };
}

/** The app opened at 1,400 × 900 on the loaded shop, counted from next Monday. */
async function openLoadedShop(page: Page): Promise<{ monday: string; boardId: string; cutId: string; gateId: string }> {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const monday = nextMonday();
  return { monday, ...(await seedLoadedShop(page, monday)) };
}

async function cardsOf(page: Page, collectionId: string): Promise<{ start_date: string; end_date: string }[]> {
  return (await bridgeApi(page, 'GET', `/v1/collection/${collectionId}/card`)).data;
}

test('plan a backlog collection with finite and see its promise date before committing', async ({ page }) => {
  test.setTimeout(120_000);
  const { monday, boardId, gateId } = await openLoadedShop(page);
  await page.reload();

  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  const gateItem = backlog.getByRole('list', { name: 'Backlog collections' }).getByRole('listitem').filter({ hasText: 'Gate' });
  // The backlog says when Gate could finish if planned now, as the API's promise date has it.
  const promised = await bridgeApi(page, 'POST', `/v1/board/${boardId}/promise_dates`, { collection_ids: [gateId], capacity: 'finite' });
  await expect(gateItem).toContainText(`can finish by ${shortDate(promised.data[0].end)}`);
  await gateItem.hover();
  await gateItem.getByRole('button', { name: 'Plan…' }).click();
  await backlog.getByRole('button', { name: 'More options…' }).click();

  const dialog = page.getByRole('dialog', { name: 'Plan Gate' });
  // One promise date, whatever screen shows it: the dialog says what the backlog says.
  await expect(dialog.getByTestId('plan-promise')).toHaveText(`Can finish by ${shortDate(promised.data[0].end)}`);
  await dialog.getByLabel('Start date', { exact: true }).fill(monday);
  const promise = dialog.getByTestId('plan-end');
  // This plan, not finite, from Monday: Monday alone; the promise date stays as it was.
  await expect(promise).toHaveText(`This plan ends on ${shortDate(monday)}`);
  await expect(dialog.getByTestId('plan-promise')).toHaveText(`Can finish by ${shortDate(promised.data[0].end)}`);

  await dialog.getByLabel('Only where there is free capacity (finite)').check();
  const dryRun = await bridgeApi(page, 'POST', `/v1/collection/${gateId}/board/${boardId}`, {
    start: monday,
    capacity: 'finite',
    dry_run: true,
  });
  expect(dryRun.end).toBe(addDays(monday, 2));
  await expect(promise).toHaveText(`This plan ends on ${shortDate(dryRun.end)}`);
  await expect(dialog).toContainText(`First day ${shortDate(monday)}, last day ${shortDate(dryRun.end)}`);
  await expect(dialog.getByRole('list', { name: 'Per stage' })).toContainText(`Work ${shortDate(monday)} – ${shortDate(dryRun.end)}`);

  // Nothing is planned before the planner commits.
  expect(await cardsOf(page, gateId)).toEqual([]);

  await dialog.getByRole('button', { name: 'Plan', exact: true }).click();
  await expect(dialog).toBeHidden();
  await expect
    .poll(async () => (await cardsOf(page, gateId)).map((card) => [card.start_date, card.end_date]))
    .toEqual(dryRun.cards.map((card: { start_date: string; end_date: string }) => [card.start_date, card.end_date]));
  await expect(page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^Gate/ })).toHaveCount(1);
});

test('a new order shows when it can finish from its rows, before it is saved', async ({ page }) => {
  test.setTimeout(120_000);
  const { boardId, cutId } = await openLoadedShop(page);

  await openScreen(page, 'Orders');
  await page.getByRole('button', { name: 'New order' }).click();
  await page.getByLabel('Row 1 description').fill('Gate');
  await page.getByLabel('Row 1 activity').selectOption({ label: 'Cut' });
  await page.getByLabel('Row 1 quantity').fill('1500');
  await page.getByLabel('Row 1 unit').selectOption('minutes');

  const rows = [{ activity_id: cutId, quantity: 1500, unit: 'minutes' }];
  const draft = await bridgeApi(page, 'POST', `/v1/board/${boardId}/promise_dates`, {
    drafts: [{ key: 'gate', rows }],
    capacity: 'finite',
  });
  expect(draft.data[0].end).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  await expect(page.getByTestId('order-promise')).toHaveText(`Can finish by ${shortDate(draft.data[0].end)} if planned now on Shop`);
  // Nothing was saved to work that out.
  expect((await bridgeApi(page, 'GET', '/v1/order')).count).toBe(0);

  // Saved, its collection waits in the backlog, and the order screen still says when it can finish.
  await page.getByLabel('Code', { exact: true }).fill('ORD-7');
  await page.getByRole('button', { name: 'Create order' }).click();
  const region = page.getByRole('region', { name: 'Collection' });
  await expect(region).toBeVisible();
  const order = (await bridgeApi(page, 'GET', '/v1/order')).data[0];
  const saved = await bridgeApi(page, 'POST', `/v1/board/${boardId}/promise_dates`, { collection_ids: [order.collection_id] });
  await expect(region.getByTestId('order-promise')).toHaveText(`Can finish by ${shortDate(saved.data[0].end)} if planned now on Shop`);
});

test('planning backward finite where nothing fits names the earliest end, and that end can be used', async ({ page }) => {
  test.setTimeout(120_000);
  const { boardId, cutId } = await openLoadedShop(page);
  // 2,000 min: more than one day of Anna's, so it cannot end today.
  const big = await seedCollection(page, boardId, { name: 'Big', activityId: cutId, minutes: 2000 });
  const today = testToday;
  const refusal = await bridgeCall(page, 'POST', `/v1/collection/${big}/board/${boardId}`, {
    reverse: true,
    end: today,
    capacity: 'finite',
    dry_run: true,
  });
  expect(refusal.status).toBe(422);
  const earliest: string = refusal.body.errors[0].earliest_end;
  await page.reload();

  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  const bigItem = backlog.getByRole('list', { name: 'Backlog collections' }).getByRole('listitem').filter({ hasText: 'Big' });
  await bigItem.hover();
  await bigItem.getByRole('button', { name: 'Plan…' }).click();
  await backlog.getByRole('button', { name: 'More options…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Plan Big' });
  await dialog.getByLabel('Backward to an end date').check();
  await dialog.getByLabel('End date', { exact: true }).fill(today);
  await dialog.getByLabel('Only where there is free capacity (finite)').check();
  await expect(dialog.getByRole('alert')).toHaveText(
    `Nothing fits before ${shortDate(today)}. Earliest possible end: ${shortDate(earliest)}.Use ${shortDate(earliest)}`,
  );
  await expect(dialog.getByRole('button', { name: 'Plan', exact: true })).toBeDisabled();

  await dialog.getByRole('button', { name: `Use ${shortDate(earliest)}` }).click();
  await expect(dialog.getByTestId('plan-end')).toHaveText(`This plan ends on ${shortDate(earliest)}`);
  await dialog.getByRole('button', { name: 'Plan', exact: true }).click();
  await expect
    .poll(async () => (await cardsOf(page, big)).reduce((end, card) => (card.end_date > end ? card.end_date : end), ''))
    .toBe(earliest);
});

test('late orders are replanned finite in one step, and one undo puts them back', async ({ page }) => {
  test.setTimeout(120_000);
  const { monday, boardId, cutId } = await openLoadedShop(page);
  // Three planned two weeks out but due in one (late), and one due after it ends (on time).
  const planned = new Map<string, string>();
  for (const [name, due] of [
    ['Late A', addDays(monday, 4)],
    ['Late B', addDays(monday, 3)],
    ['Late C', addDays(monday, 2)],
    ['On time', addDays(monday, 30)],
  ] as const) {
    planned.set(name, await seedPlanned(page, boardId, { name, activityId: cutId, minutes: 240, due }, addDays(monday, 14)));
  }
  const endsOf = async () =>
    Object.fromEntries(
      await Promise.all(
        [...planned].map(async ([name, id]) => [name, (await bridgeApi(page, 'GET', `/v1/collection/${id}`)).end as string] as const),
      ),
    );
  const before = await endsOf();
  await page.reload();

  await page.getByRole('complementary', { name: 'Backlog' }).getByRole('button', { name: 'Replan late…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replan late orders' });
  const late = dialog.getByRole('list', { name: 'Late collections' }).getByRole('listitem');
  await expect(late).toHaveCount(3);
  await expect(late.filter({ hasText: 'On time' })).toHaveCount(0);
  // Before anything is written, each says where it would end: sooner than now.
  for (const name of ['Late A', 'Late B', 'Late C']) await expect(late.filter({ hasText: name })).toContainText(/would end .*days sooner/);
  expect(await endsOf()).toEqual(before);
  await dialog.getByRole('button', { name: 'Replan 3 orders' }).click();
  await expect(dialog).toBeHidden();

  // Planned again against free capacity from today: each ends long before it did.
  await expect.poll(async () => Object.values(await endsOf()).filter((end, at) => end < Object.values(before)[at]!).length).toBe(3);
  expect((await endsOf())['On time']).toBe(before['On time']);
  const undo = page.getByRole('button', { name: 'Undo', exact: true });
  await expect(undo).toHaveAttribute('title', 'Undo: Replan 3 late orders (Ctrl+Z)');

  await undo.click();
  await expect.poll(endsOf).toEqual(before);
});

test('"Replan late…" leaves out an order it would make later, and says so before it writes', async ({ page }) => {
  test.setTimeout(120_000);
  const { monday, boardId, cutId } = await openLoadedShop(page);
  // Anna's days are full for two weeks from today: a blocker of ten days' work, not finite.
  await seedPlanned(page, boardId, { name: 'Blocker', activityId: cutId, minutes: 4800 }, testToday);
  // Crowded is a day late where it is; against free capacity it could only start after the blocker.
  const crowded = await seedPlanned(
    page,
    boardId,
    { name: 'Crowded', activityId: cutId, minutes: 480, due: addDays(monday, 1) },
    addDays(monday, 2),
  );
  const endBefore = (await bridgeApi(page, 'GET', `/v1/collection/${crowded}`)).end as string;
  await page.reload();

  await page.getByRole('complementary', { name: 'Backlog' }).getByRole('button', { name: 'Replan late…' }).click();
  const dialog = page.getByRole('dialog', { name: 'Replan late orders' });
  const row = dialog.getByRole('list', { name: 'Late collections' }).getByRole('listitem').filter({ hasText: 'Crowded' });
  await expect(row.getByTestId('replan-later')).toContainText('would end later');
  await expect(row.getByRole('checkbox')).not.toBeChecked();
  await expect(dialog.getByRole('button', { name: /^Replan 0 orders$/ })).toBeDisabled();
  expect((await bridgeApi(page, 'GET', `/v1/collection/${crowded}`)).end).toBe(endBefore);

  // Ticked on purpose, it is replanned later, as shown.
  await row.getByRole('checkbox').check();
  await dialog.getByRole('button', { name: 'Replan 1 order' }).click();
  await expect(dialog).toBeHidden();
  await expect.poll(async () => (await bridgeApi(page, 'GET', `/v1/collection/${crowded}`)).end > endBefore).toBe(true);
});
