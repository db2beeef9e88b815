/**
 * The first start as a new planner meets it (README "First start"): on an empty data folder a
 * checklist leads through activities, a board with stages, resources and a first order to
 * planning it, each step ticking itself off; or a sample workshop fills the app and is removed
 * again in one step (docs/API.md "Sample workshop").
 */
import { expect, test, type Locator, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { bridgeApi } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

function checklist(page: Page): Locator {
  return page.getByRole('region', { name: 'Getting started' });
}

/** One step of the checklist, by its link's words. */
function step(page: Page, name: string): Locator {
  return checklist(page)
    .getByRole('listitem')
    .filter({ has: page.getByRole('button', { name, exact: true }) });
}

async function expectDone(page: Page, name: string, done: boolean): Promise<void> {
  await expect(step(page, name)).toContainText(done ? 'done' : 'to do');
}

/** The order row's unit: a choice where the screen offers one, else typed. */
async function chooseUnit(page: Page, label: string, unit: string): Promise<void> {
  const control = page.getByLabel(label, { exact: true });
  if ((await control.evaluate((element) => element.tagName)) === 'SELECT') await control.selectOption(unit);
  else await control.fill(unit);
}

test('the first-start checklist leads from an empty folder to a planned order', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);

  const steps = ['Add activities', 'Set up a board with stages', 'Add resources', 'Enter a first order', 'Plan the order'];
  await expect(checklist(page)).toBeVisible();
  for (const name of steps) await expectDone(page, name, false);

  // Activities.
  await checklist(page).getByRole('button', { name: 'Add activities' }).click();
  await expect(page.getByRole('heading', { name: 'Activities', level: 1 })).toBeVisible();
  await page.getByLabel('Activity name').fill('Welding');
  await page.getByRole('button', { name: 'Save activity' }).click();
  await expectDone(page, 'Add activities', true);

  // A board with a stage, whose second activity is made right in the stage editor.
  await checklist(page).getByRole('button', { name: 'Set up a board with stages' }).click();
  await page.getByLabel('Board name').fill('Frames');
  await page.getByRole('button', { name: 'Add stage' }).click();
  await page.getByLabel('Stage 1 name').fill('Welding');
  const allowed = page.getByRole('group', { name: 'Stage 1 allowed activities' });
  await allowed.getByLabel('Welding').check();
  await allowed.getByRole('button', { name: 'Stage 1 New activity…' }).click();
  await page.getByLabel('Stage 1 Activity name').fill('Grinding');
  await page.getByLabel('Stage 1 Default duration (minutes)').fill('30');
  await page.getByRole('button', { name: 'Create activity' }).click();
  await expect(allowed.getByLabel('Grinding')).toBeChecked();
  await page.getByRole('button', { name: 'Add status' }).click();
  await page.getByLabel('Status 1 name').fill('To do');
  await page.getByLabel('Status 1 entry').check();
  await page.getByRole('button', { name: 'Save board' }).click();
  await expect(page.getByRole('list', { name: 'Stages' }).getByRole('listitem')).toHaveCount(1);
  await expectDone(page, 'Set up a board with stages', true);
  const grinding = (await bridgeApi(page, 'GET', '/v1/activity', undefined, { filter: "description:eq:'Grinding'" })).data[0];
  expect(grinding).toMatchObject({ default_duration: 30 });

  // A resource on that stage.
  await checklist(page).getByRole('button', { name: 'Add resources' }).click();
  await page.getByLabel('Resource name').fill('Anna');
  await page.getByRole('group', { name: 'Frames' }).getByRole('checkbox', { name: 'Welding', exact: true }).check();
  await page.getByRole('button', { name: 'Save resource' }).click();
  await expectDone(page, 'Add resources', true);

  // A first order with a row of welding.
  await checklist(page).getByRole('button', { name: 'Enter a first order' }).click();
  await page.getByLabel('Code', { exact: true }).fill('ORD-1');
  await page.getByLabel('Row 1 description').fill('Frame');
  await page.getByLabel('Row 1 activity').selectOption({ label: 'Welding' });
  await page.getByLabel('Row 1 quantity').fill('2');
  await chooseUnit(page, 'Row 1 unit', 'hours');
  await page.getByRole('button', { name: 'Create order' }).click();
  await expect(page.getByRole('heading', { name: 'Order ORD-1 was created' })).toBeVisible();
  await expectDone(page, 'Enter a first order', true);
  await expectDone(page, 'Plan the order', false);

  // Planned from the backlog: the last step ticks off and the checklist is complete, so it goes.
  await checklist(page).getByRole('button', { name: 'Plan the order' }).click();
  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  const item = backlog.getByRole('list', { name: 'Backlog collections' }).getByRole('listitem').filter({ hasText: 'ORD-1' });
  await item.hover();
  await item.getByRole('button', { name: 'Plan…' }).click();
  await backlog.getByRole('button', { name: 'Plan', exact: true }).click();
  await expect(page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^ORD-1/ })).toHaveCount(1);
  await expect(checklist(page)).toHaveCount(0);
  await expect(page.getByRole('navigation').getByRole('button', { name: 'Getting started' })).toHaveCount(0);
});

test('the sample workshop loads and is removed', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);

  // Put away and brought back from the navigation while setup is not complete.
  await checklist(page).getByRole('button', { name: 'Put the checklist away' }).click();
  await expect(checklist(page)).toHaveCount(0);
  await page.getByRole('navigation').getByRole('button', { name: 'Getting started' }).click();
  await expect(checklist(page)).toBeVisible();

  await checklist(page).getByRole('button', { name: 'Try a sample workshop' }).click();
  const banner = page.getByRole('region', { name: 'Sample workshop' });
  await expect(banner).toBeVisible();
  await expect(checklist(page)).toHaveCount(0);
  // The sample board is open, with the planned orders' cards on it and the rest in its backlog.
  await expect(
    page
      .getByRole('listbox', { name: 'Cards' })
      .getByRole('option', { name: /^SO-1001/ })
      .first(),
  ).toBeVisible();
  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  await expect(
    backlog.getByRole('list', { name: 'Backlog collections' }).getByRole('listitem').filter({ hasText: 'SO-1004' }),
  ).toBeVisible();
  // The banner stays on every screen.
  await page.getByRole('navigation').getByRole('button', { name: 'Orders', exact: true }).click();
  await expect(banner).toBeVisible();

  await banner.getByRole('button', { name: 'Remove sample workshop' }).click();
  await expect(banner).toHaveCount(0);
  await expect(checklist(page)).toBeVisible();
  await expectDone(page, 'Add activities', false);
  for (const path of ['/v1/activity', '/v1/board', '/v1/resource', '/v1/order', '/v1/time_tracking']) {
    expect((await bridgeApi(page, 'GET', path)).data, path).toEqual([]);
  }
});

test('the Orders item of the menu always opens the order list', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  await bridgeApi(page, 'POST', '/v1/order', { code: 'ORD-7', description: 'Gate' });
  const menu = page.getByRole('navigation');
  await menu.getByRole('button', { name: 'Orders', exact: true }).click();
  await page.getByRole('grid', { name: 'Orders' }).getByRole('row').filter({ hasText: 'ORD-7' }).dblclick();
  await expect(page.getByRole('heading', { name: 'Order ORD-7', level: 1 })).toBeVisible();
  await menu.getByRole('button', { name: 'Activities', exact: true }).click();
  await menu.getByRole('button', { name: 'Orders', exact: true }).click();
  await expect(page.getByRole('grid', { name: 'Orders' })).toBeVisible();
  await menu.getByRole('button', { name: 'Orders', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Order ORD-7', level: 1 })).toHaveCount(0);
});

test('the checklist is a compact strip: each screen starts near the top and fits the window, and every step still opens', async ({
  page,
}) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  await expect(checklist(page)).toBeVisible();
  const main = page.getByRole('main');

  /** How far below the top of the main area a screen's title starts. */
  async function titleOffset(title: string): Promise<number> {
    const heading = page.getByRole('heading', { name: title, level: 1 });
    await expect(heading).toBeVisible();
    return (await heading.boundingBox())!.y - (await main.boundingBox())!.y;
  }

  // The planboard and the activities screen start within about 100 px of the top (the checklist
  // used to push them down by some 270 px), and the planboard still ends inside the window.
  expect(await titleOffset('Planboard')).toBeLessThan(100);
  const planboard = page.getByRole('region', { name: 'Planboard' });
  const board = (await planboard.boundingBox())!;
  expect(board.y + board.height).toBeLessThanOrEqual(900.5);
  await checklist(page).getByRole('button', { name: 'Add activities' }).click();
  expect(await titleOffset('Activities')).toBeLessThan(100);

  // Still a checklist: every step with its state, its hint told, the next one marked, and it ticks itself off.
  for (const name of ['Add activities', 'Set up a board with stages', 'Add resources', 'Enter a first order', 'Plan the order'])
    await expectDone(page, name, false);
  await expect(checklist(page).getByRole('button', { name: 'Add resources' })).toHaveAccessibleDescription(
    'The people and machines that do the work, with their hours.',
  );
  await page.getByLabel('Activity name').fill('Welding');
  await page.getByRole('button', { name: 'Save activity' }).click();
  await expectDone(page, 'Add activities', true);
  await checklist(page).getByRole('button', { name: 'Add resources' }).click();
  await expect(page.getByRole('heading', { name: 'Resources', level: 1 })).toBeVisible();
  await expect(checklist(page).getByRole('button', { name: 'Try a sample workshop' })).toBeVisible();
  await checklist(page).getByRole('button', { name: 'Put the checklist away' }).click();
  await expect(checklist(page)).toHaveCount(0);
});
