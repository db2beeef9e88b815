/**
 * Late orders stand out (ux-walk-2, friction 9): the backlog's promise line of an order that
 * cannot finish by its due date says so and is marked; the order list shows each order's
 * planned end, marks the late ones and sorts on it; the new-order form warns when the order
 * could finish only after its promised date.
 *
 * Board Shop (Mon–Fri), one stage Work allowing Cut; Anna works 8 h a day on it. SO-LATE needs
 * 25 hours of cutting and is due today, so it cannot finish in time whatever day today is;
 * SO-EASY needs an hour and is due in two months.
 */
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, nextMonday, shortDate, testToday } from './dates.js';
import { bridgeApi, openScreen, switchToDutch } from './planner-page.js';
import { seedCutShop } from './shop.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

async function order(page: Page, boardId: string, cutId: string, code: string, hours: number, due: string): Promise<any> {
  return bridgeApi(page, 'POST', '/v1/order', {
    code,
    board_id: boardId,
    promised_date: due,
    order_rows: [{ activity_id: cutId, quantity: hours, unit: 'hours' }],
  });
}

test('a late order says so in the backlog, and the order list shows and sorts by planned end, marking the late ones', async ({ page }) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(app.url);
  const { boardId, cutId } = await seedCutShop(page);
  const late = await order(page, boardId, cutId, 'SO-LATE', 25, testToday);
  const easy = await order(page, boardId, cutId, 'SO-EASY', 1, addDays(testToday, 60));
  await page.reload();

  // The backlog: the late one's promise line says it is after the due date, and stands out.
  const promised = await bridgeApi(page, 'POST', `/v1/board/${boardId}/promise_dates`, {
    collection_ids: [late.collection_id, easy.collection_id],
    capacity: 'finite',
  });
  const endOf = (collectionId: string) => promised.data.find((date: any) => date.collection_id === collectionId).end as string;
  const items = page
    .getByRole('complementary', { name: 'Backlog' })
    .getByRole('list', { name: 'Backlog collections' })
    .getByRole('listitem');
  const lateLine = items.filter({ hasText: 'SO-LATE' }).getByTestId('backlog-promise');
  await expect(lateLine).toHaveText(`⚠ can finish by ${shortDate(endOf(late.collection_id))}, after the due date`);
  await expect(lateLine).toHaveClass(/pb-backlog__promise--late/);
  const easyLine = items.filter({ hasText: 'SO-EASY' }).getByTestId('backlog-promise');
  await expect(easyLine).toHaveText(`can finish by ${shortDate(endOf(easy.collection_id))}`);
  await expect(easyLine).not.toHaveClass(/pb-backlog__promise--late/);

  // Both planned from next Monday: SO-LATE ends on its fourth workday, after today; SO-EASY on the first.
  const monday = nextMonday();
  for (const collectionId of [late.collection_id, easy.collection_id])
    await bridgeApi(page, 'POST', `/v1/collection/${collectionId}/board/${boardId}`, { start: monday });
  const ends = new Map<string, string>();
  for (const collectionId of [late.collection_id, easy.collection_id])
    ends.set(collectionId, (await bridgeApi(page, 'GET', `/v1/collection/${collectionId}`)).end);

  await openScreen(page, 'Orders');
  const list = page.getByRole('grid', { name: 'Orders' });
  const row = (code: string) => list.getByRole('row').filter({ hasText: code });
  const medium = (date: string) =>
    new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }).format(new Date(`${date}T00:00:00Z`));
  await expect(row('SO-LATE').getByRole('gridcell').nth(7)).toHaveText(`${medium(ends.get(late.collection_id)!)}Late`);
  await expect(row('SO-LATE').getByText('Late', { exact: true })).toHaveAttribute(
    'title',
    `Ends after its due date, ${shortDate(testToday)}`,
  );
  await expect(row('SO-EASY').getByRole('gridcell').nth(7)).toHaveText(medium(ends.get(easy.collection_id)!));

  // Sorted on planned end: the latest end first on the second click.
  const header = list.getByRole('columnheader', { name: 'Planned end' });
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'ascending');
  await expect(list.getByRole('row').nth(1)).toContainText('SO-EASY');
  await header.getByRole('button').click();
  await expect(header).toHaveAttribute('aria-sort', 'descending');
  await expect(list.getByRole('row').nth(1)).toContainText('SO-LATE');

  // In Dutch too.
  await switchToDutch(page);
  await openScreen(page, 'Orders');
  await expect(page.getByRole('grid', { name: 'Orders' }).getByRole('columnheader', { name: 'Gepland einde' })).toBeVisible();
  await expect(page.getByRole('grid').getByRole('row').filter({ hasText: 'SO-LATE' })).toContainText('Te laat');
});

test('the new-order form warns when the order can finish only after its promised date', async ({ page }) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { boardId, cutId } = await seedCutShop(page);

  await openScreen(page, 'Orders');
  await page.getByRole('button', { name: 'New order' }).click();
  await page.getByLabel('Row 1 description').fill('Gate');
  await page.getByLabel('Row 1 activity').selectOption({ label: 'Cut' });
  await page.getByLabel('Row 1 quantity').fill('25');
  await page.getByLabel('Row 1 unit').selectOption('hours');
  const draft = await bridgeApi(page, 'POST', `/v1/board/${boardId}/promise_dates`, {
    drafts: [{ key: 'gate', rows: [{ activity_id: cutId, quantity: 25, unit: 'hours' }] }],
    capacity: 'finite',
  });
  const end = shortDate(draft.data[0].end);
  const promise = page.getByTestId('order-promise');
  await expect(promise).toHaveText(`Can finish by ${end} if planned now on Shop`);

  // Promised for today: the same date now reads as a warning.
  await page.getByLabel('Promised date').fill(testToday);
  await expect(promise).toHaveText(`⚠ Can finish by ${end} if planned now on Shop: after the promised date, ${shortDate(testToday)}`);
  await expect(promise).toHaveClass(/order-collection__promise--late/);

  // Saved, the order screen says the same of its collection.
  await page.getByLabel('Code', { exact: true }).fill('ORD-8');
  await page.getByRole('button', { name: 'Create order' }).click();
  const region = page.getByRole('region', { name: 'Collection' });
  await expect(region.getByTestId('order-promise')).toContainText(`after the due date, ${shortDate(testToday)}`);
});
