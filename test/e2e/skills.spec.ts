/**
 * Skills and crews (docs/API.md "Skills and crews"): the planner sees who is qualified for a
 * card, and a warning when its person lacks the skill.
 *
 * Board Shop (Mon–Fri), one stage Welding allowing Weld (skill "welding-cert-2"). Bo (no
 * skills) and Cy (welding-cert-2) work on Welding. Frame 2001 (Weld, 480 min) planned from next
 * Monday gets Cy, the only one qualified: the card panel says "Needs welding-cert-2" and
 * "Qualified: Cy", and the board does not warn. Given Bo instead, the card warns "Not
 * qualified: Bo lacks welding-cert-2", on the board and in the panel.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { nextMonday } from './dates.js';
import { bridgeApi } from './planner-page.js';
import { newActivity, seedCollection, seedShop, seedWorker } from './shop.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('the card panel names the qualified people, and a card whose person lacks the skill warns', async ({ page }) => {
  test.setTimeout(120_000);
  app = await startApp();
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(app.url);
  const monday = nextMonday();
  const weld = await newActivity(page, 'Weld', 'welding-cert-2');
  const shop = await seedShop(page, { stage: 'Welding', allows: [weld] });
  const bo = await seedWorker(page, shop, 'Bo', []);
  const cy = await seedWorker(page, shop, 'Cy', ['welding-cert-2']);
  const collection = await seedCollection(page, shop.boardId, { name: 'Frame 2001', activityId: weld, minutes: 480 });
  const planned = await bridgeApi(
    page,
    'POST',
    `/v1/collection/${collection}/board/${shop.boardId}`,
    { start: monday },
    { with: 'cards.resources' },
  );
  expect(planned.cards[0].resources.map((r: { id: string }) => r.id)).toEqual([cy]);
  await page.reload();

  const card = page.locator(`[data-card-id="${planned.cards[0].id}"]`);
  await expect(card).toBeVisible();
  await expect(card).not.toHaveClass(/has-warning/);
  await page
    .getByRole('listbox', { name: 'Cards' })
    .getByRole('option', { name: /^Frame 2001/ })
    .click();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('complementary', { name: 'Card details' });
  await expect(panel).toContainText('Needs welding-cert-2');
  await expect(panel).toContainText('Qualified: Cy');
  await expect(panel.getByRole('alert').filter({ hasText: 'Not qualified' })).toHaveCount(0);

  // Bo instead of Cy: Bo lacks the skill, and the board and the panel say so.
  await bridgeApi(page, 'PUT', `/v1/collection/${collection}/card/${planned.cards[0].id}`, { resources: [{ id: bo }] });
  await expect(card).toHaveClass(/has-warning/);
  await expect(card).toHaveAttribute('aria-label', /Not qualified: Bo lacks welding-cert-2/);
  await expect(panel.getByRole('alert').filter({ hasText: 'Not qualified: Bo lacks welding-cert-2' })).toBeVisible();
  await expect(panel).toContainText('Qualified: Cy');
});
