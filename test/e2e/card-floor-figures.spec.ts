/**
 * The planner sees in the card panel what the floor reported (docs/API.md "The floor"): hours
 * booked against planned, pieces made and scrapped against ordered for the order row of the
 * card's activity (not the other activity's row), over plan marked once the plan shrinks below
 * what was booked, and who has a timer running on the card. The order, the card, a finished
 * time entry and the floor's quantities (written on the row as the floor writes them) are made
 * through the page's bridge; the timer is started in the panel.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, nextMonday, testToday } from './dates.js';
import { bridgeApi } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('the card panel shows booked hours, pieces made and who is on the card', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1600, height: 1000 });
  await page.goto(app.url);
  const monday = nextMonday();

  const welding = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Welding', default_duration: 30 });
  const painting = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Painting', default_duration: 30 });
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Workshop',
      stages: [{ name: 'Welding', priority: 0 }],
      statuses: [
        { name: 'To do', entry: true, priority: 0 },
        { name: 'Done', exit: true, priority: 1 },
      ],
    },
    { with: 'stages' },
  );
  const order = await bridgeApi(
    page,
    'POST',
    '/v1/order',
    {
      code: 'SO-2001',
      description: 'Frames for the Jansen hall',
      board_id: board.id,
      order_rows: [
        { code: 'F1', description: 'Frame', activity_id: welding.id, unit: 'pieces', quantity: 10, position: 0 },
        { code: 'P1', description: 'Coat', activity_id: painting.id, unit: 'pieces', quantity: 4, position: 1 },
      ],
    },
    { with: 'order_rows' },
  );
  const frameRow = order.order_rows.find((row: { code: string }) => row.code === 'F1');
  const card = await bridgeApi(page, 'POST', `/v1/collection/${order.collection_id}/card`, {
    stage_id: board.stages[0].id,
    start_date: monday,
    end_date: addDays(monday, 1),
    activities: [{ id: welding.id, time: 480 }],
  });
  // 5.5 hours booked yesterday, finished; then the floor's report: 8 made, 1 scrapped.
  const yesterday = addDays(testToday, -1);
  await bridgeApi(page, 'POST', '/v1/time_tracking', { card_id: card.id, start: `${yesterday}T07:00:00Z`, duration: 330 });
  await bridgeApi(page, 'PUT', `/v1/order/${order.id}/row/${frameRow.id}`, { quantity_delivered: 8, quantity_scrapped: 1 });
  await page.reload();

  await page
    .getByRole('listbox', { name: 'Cards' })
    .getByRole('option', { name: /^SO-2001/ })
    .click();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('complementary', { name: 'Card details' });
  const floor = panel.getByRole('group', { name: 'On the floor' });

  await expect(floor).toContainText('Booked 5.5 h of 8 h planned');
  await expect(floor).not.toContainText('over plan');
  const made = floor.getByRole('list', { name: 'Made per order row' }).getByRole('listitem');
  await expect(made).toHaveText(['F1 Frame: Made 8 of 10 · 1 scrapped']);
  await expect(floor).not.toContainText('Started by');

  // The plan shrinks below what was booked: over plan, in words as well as in colour.
  await bridgeApi(page, 'PUT', `/v1/collection/${order.collection_id}/card/${card.id}`, { activities: [{ id: welding.id, time: 300 }] });
  await expect(floor).toContainText('Booked 5.5 h of 5 h planned · over plan (110 %)');

  // A timer started on the card: who is on it, and since when.
  await panel.getByRole('button', { name: 'Start timer' }).click();
  await expect(floor).toContainText(/Started by Pat Planner at .+/);
  await panel.getByRole('button', { name: 'Stop timer' }).click();
  await expect(floor).not.toContainText('Started by');
});
