/**
 * The app speaks the planner's language (docs/API.md "Field rules and limits", "Order row
 * units"): a refused value is named by its label on screen, in English and in Dutch, and an
 * order row counted in pieces plans real work.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, nextMonday } from './dates.js';
import { bridgeApi, openScreen, switchToDutch } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('a bad value shows the label-named message in English and Dutch', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);

  await openScreen(page, 'Activities');
  const form = page.getByRole('form', { name: 'New activity' });
  await form.getByLabel('Hourly rate').fill('-5');
  await form.getByRole('button', { name: 'Save activity' }).click();
  await expect(form.getByLabel('Activity name')).toHaveAccessibleDescription('Activity name is required');
  await expect(form.getByLabel('Hourly rate')).toHaveAccessibleDescription('Hourly rate cannot be negative');
  await expect(form.getByLabel('Hourly rate')).toHaveAttribute('aria-invalid', 'true');

  await switchToDutch(page);
  await openScreen(page, 'Activiteiten');
  const dutchForm = page.getByRole('form', { name: 'Nieuwe activiteit' });
  await dutchForm.getByLabel('Uurtarief').fill('-5');
  await dutchForm.getByLabel('Standaardduur (minuten)').fill('99999999999');
  await dutchForm.getByRole('button', { name: 'Activiteit opslaan' }).click();
  await expect(dutchForm.getByLabel('Naam van de activiteit')).toHaveAccessibleDescription('Naam van de activiteit is verplicht');
  await expect(dutchForm.getByLabel('Uurtarief')).toHaveAccessibleDescription('Uurtarief mag niet negatief zijn');
  await expect(dutchForm.getByLabel('Standaardduur (minuten)')).toHaveAccessibleDescription(
    'Standaardduur (minuten) mag hoogstens 525.600 zijn',
  );
  // Nothing was written.
  expect((await bridgeApi(page, 'GET', '/v1/activity')).count).toBe(0);
});

test('a pieces-unit order plans non-zero work', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  const assembly = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Assembly', default_duration: 30 });
  const board = await bridgeApi(page, 'POST', '/v1/board', {
    name: 'Workshop',
    statuses: [{ name: 'To do', priority: 0, entry: true, exit: false }],
    stages: [{ name: 'Assembly line', priority: 0, activities: [{ id: assembly.id, priority: 0 }] }],
  });

  await openScreen(page, 'Orders');
  await page.getByRole('button', { name: 'New order' }).click();
  await page.getByLabel('Code', { exact: true }).fill('PC-1');
  await page.getByLabel('Row 1 description').fill('Cabinet');
  await page.getByLabel('Row 1 activity').selectOption({ label: 'Assembly' });
  await page.getByLabel('Row 1 quantity').fill('5');
  // The unit is a choice; days say what a day counts for.
  await page.getByLabel('Row 1 unit').selectOption({ label: 'days' });
  await expect(page.getByText('1 day = 60 h')).toBeVisible();
  await page.getByLabel('Row 1 unit').selectOption({ label: 'pieces' });
  await expect(page.getByText('1 day = 60 h')).toBeHidden();
  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(page.getByRole('heading', { name: 'Order PC-1 was created' })).toBeVisible();

  const order = (await bridgeApi(page, 'GET', '/v1/order', undefined, { filter: "code:eq:'PC-1'" })).data[0];
  await bridgeApi(page, 'POST', `/v1/collection/${order.collection_id}/board/${board.id}`, {});
  const cards = (await bridgeApi(page, 'GET', `/v1/collection/${order.collection_id}/card`, undefined, { with: 'activities' })).data;
  const minutes = cards.flatMap((card: any) => card.activities.map((activity: any) => activity.time));
  expect(cards.length).toBeGreaterThan(0);
  expect(minutes.reduce((sum: number, time: number) => sum + time, 0)).toBe(150);
});

test('the card panel shows the card’s work and order, names comment authors and leaves the selection bar free', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1280, height: 900 });
  await page.goto(app.url);
  const assembly = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Assembly', default_duration: 30 });
  const board = await bridgeApi(page, 'POST', '/v1/board', {
    name: 'Workshop',
    statuses: [{ name: 'To do', priority: 0, entry: true, exit: false }],
    // Half an hour to set up before each job (docs/API.md "Setup times").
    stages: [{ name: 'Assembly line', priority: 0, setup_minutes: 30, activities: [{ id: assembly.id, priority: 0 }] }],
  });
  const order = await bridgeApi(page, 'POST', '/v1/order', {
    code: 'PC-2',
    description: 'Oak cabinets',
    order_rows: [{ description: 'Cabinet', activity_id: assembly.id, quantity: 5, unit: 'pieces' }],
  });
  await bridgeApi(page, 'POST', `/v1/collection/${order.collection_id}/board/${board.id}`, { start: nextMonday() });
  await page.reload();

  await page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^PC-2/ }).first().click();
  await page.keyboard.press('Enter');
  const panel = page.getByRole('complementary', { name: 'Card details' });
  await expect(panel.getByRole('list', { name: 'Activities of the card' })).toHaveText(/Assembly\s*2 h 30 min/);
  await expect(panel.getByText('Planned: 2 h 30 min + 30 min setup')).toBeVisible();
  await expect(panel).toContainText('Order PC-2 · Oak cabinets');
  await expect(panel.getByRole('list', { name: 'Rows of the order' })).toHaveText('Cabinet · 5 pieces');

  await panel.getByLabel('New comment').fill('Hinges are in');
  await panel.getByRole('button', { name: 'Add comment' }).click();
  await expect(panel.getByRole('list', { name: 'Comments' }).getByRole('listitem').first()).toContainText('Pat Planner');

  // The selection bar stays beside the panel, every button of it in view.
  const bar = page.getByRole('group', { name: 'Selected cards' });
  const barBox = (await bar.boundingBox())!;
  const panelBox = (await panel.boundingBox())!;
  expect(barBox.x + barBox.width).toBeLessThanOrEqual(panelBox.x);
  for (const button of await bar.getByRole('button').all()) {
    const box = (await button.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(panelBox.x);
  }
});

test('the resource and absence forms name their problems in the planner’s words, in English and Dutch', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  const monday = nextMonday();

  await openScreen(page, 'Resources');
  const form = page.getByRole('form', { name: 'New resource' });
  await form.getByLabel('Resource name').fill('Cees');
  await form.getByLabel('Start date').fill(addDays(monday, 9));
  await form.getByLabel('End date').fill(monday);
  await form.getByLabel('Monday hours').fill('30');
  await form.getByRole('button', { name: 'Save resource' }).click();
  await expect(form.getByLabel('End date')).toHaveAccessibleDescription('End date cannot be before the start date');
  await expect(form).toContainText('Hours on a day can be at most 24');
  // The day that is wrong is marked, the others not.
  await expect(form.getByLabel('Monday hours')).toHaveAttribute('aria-invalid', 'true');
  await expect(form.getByLabel('Monday hours')).toHaveAccessibleDescription('Hours on a day can be at most 24');
  await expect(form.getByLabel('Tuesday hours')).not.toHaveAttribute('aria-invalid', 'true');
  await expect(form).not.toContainText('end_date');
  await expect(form).not.toContainText('workdays');

  // An absence that ends before it starts, and more hours off than a day has.
  const ivy = await bridgeApi(page, 'POST', '/v1/resource', { name: 'Ivy' });
  await page.getByRole('button', { name: 'Edit Ivy' }).click();
  const absence = page.getByRole('form', { name: 'New absence' });
  await absence.getByLabel('From').fill(addDays(monday, 2));
  await absence.getByLabel('Until').fill(monday);
  await absence.getByLabel('Hours off per day').fill('30');
  await absence.getByRole('button', { name: 'Save absence' }).click();
  await expect(absence.getByLabel('Hours off per day')).toHaveAccessibleDescription('Hours off per day can be at most 24');
  await absence.getByLabel('Hours off per day').fill('');
  await absence.getByRole('button', { name: 'Save absence' }).click();
  await expect(absence.getByLabel('Until')).toHaveAccessibleDescription('Until cannot be before the start date');

  await switchToDutch(page);
  await openScreen(page, 'Resources');
  const dutch = page.getByRole('form', { name: 'Nieuwe resource' });
  await dutch.getByLabel('Naam van de resource').fill('Cees');
  await dutch.getByLabel('Begindatum').fill(addDays(monday, 9));
  await dutch.getByLabel('Einddatum').fill(monday);
  await dutch.getByLabel('Maandag uren').fill('-2');
  await dutch.getByRole('button', { name: 'Resource opslaan' }).click();
  await expect(dutch.getByLabel('Einddatum')).toHaveAccessibleDescription('Einddatum mag niet vóór de begindatum liggen');
  await expect(dutch.getByLabel('Maandag uren')).toHaveAccessibleDescription('Uren op een dag mag niet negatief zijn');
  // Nothing was written.
  expect((await bridgeApi(page, 'GET', '/v1/resource')).data.map((r: { id: string }) => r.id)).toEqual([ivy.id]);
});
