/**
 * Material gates the plan (docs/API.md "Material"): the planner sees what an order waits for.
 *
 * Board Shop (Mon–Fri), one stage Work allowing Cut. Sales order SO-MAT (one 480-minute Cut row)
 * waits in Shop's backlog for purchase order PO-123, promised the Tuesday eight days after next
 * Monday: the backlog says "Waiting for PO-123, expected …". Planned from next Monday, its card
 * starts on that Tuesday; when PO-123 then moves a day later, the card starts before its
 * material and the board warns on it, as on a broken dependency.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, nextMonday, shortDate } from './dates.js';
import { bridgeApi } from './planner-page.js';
import { newActivity, seedShop } from './shop.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('the backlog shows what an order waits for, and the board warns on a card that starts before its material', async ({ page }) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const monday = nextMonday();
  const promised = addDays(monday, 8);
  const cut = await newActivity(page, 'Cut');
  const { boardId } = await seedShop(page, { allows: [cut] });
  const sales = await bridgeApi(
    page,
    'POST',
    '/v1/order',
    { code: 'SO-MAT', type: 'Sales', board_id: boardId, order_rows: [{ activity_id: cut, unit: 'minutes', quantity: 480 }] },
    { with: 'order_rows' },
  );
  const purchase = await bridgeApi(page, 'POST', '/v1/order', {
    code: 'PO-123',
    type: 'Purchase',
    promised_date: promised,
    order_rows: [{ code: 'steel', supplies_order_rows: [{ id: sales.order_rows[0].id }] }],
  });
  await page.reload();

  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  const item = backlog.getByRole('list', { name: 'Backlog collections' }).getByRole('listitem').filter({ hasText: 'SO-MAT' });
  await expect(item.getByTestId('material-waiting')).toHaveText(`⏳ Waiting for PO-123, expected ${shortDate(promised)}`);

  // Planned from next Monday, the card waits for the material: it starts on the promised day.
  const planned = await bridgeApi(
    page,
    'POST',
    `/v1/collection/${sales.collection_id}/board/${boardId}`,
    { start: monday },
    { with: 'cards' },
  );
  expect(planned.cards.map((c: { start_date: string }) => c.start_date)).toEqual([promised]);
  const card = page.locator(`[data-card-id="${planned.cards[0].id}"]`);
  await expect(card).toBeVisible();
  await expect(card).not.toHaveClass(/has-warning/);

  // The purchase order moves a day: the card now starts before its material, and says so.
  const later = addDays(promised, 1);
  await bridgeApi(page, 'PUT', `/v1/order/${purchase.id}`, { promised_date: later });
  await expect(card).toHaveClass(/has-warning/);
  await expect(card).toHaveAttribute(
    'aria-label',
    new RegExp(`Starts before its material: waiting for PO-123, expected ${shortDate(later)}`),
  );
});
