/**
 * Board setup as a new user does it: activities first, then a board with its stages, statuses
 * and labels, then resources that work on its stages. Everything through the screens, against
 * the real app in browser-host mode with its own data folder.
 */
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { openScreen } from './planner-page.js';
import { retakeScreenshot } from './readme-screenshots.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

async function createActivity(page: Page, name: string) {
  await openScreen(page, 'Activities');
  await page.getByLabel('Activity name').fill(name);
  await page.getByRole('button', { name: 'Save activity' }).click();
  await expect(page.getByRole('list', { name: 'Activities' }).getByRole('listitem').filter({ hasText: name })).toBeVisible();
}

/** A board with named stages and nothing else, through the setup form. */
async function createBoard(page: Page, name: string, stages: string[]) {
  await openScreen(page, 'Planboard');
  await page.getByRole('button', { name: 'New board' }).click();
  await page.getByLabel('Board name').fill(name);
  for (const [index, stage] of stages.entries()) {
    await page.getByRole('button', { name: 'Add stage' }).click();
    await page.getByLabel(`Stage ${index + 1} name`).fill(stage);
  }
  await page.getByRole('button', { name: 'Save board' }).click();
  await expect(page.getByRole('list', { name: 'Stages' }).getByRole('listitem')).toHaveCount(stages.length);
}

test('a new user sets up a board with stages, statuses and a label, and it is all there after a reload', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  await createActivity(page, 'Painting');

  await openScreen(page, 'Planboard');
  await expect(page.getByText('No boards yet')).toBeVisible();
  await page.getByRole('button', { name: 'New board' }).click();
  await page.getByLabel('Board name').fill('Kitchen line');
  await page.getByLabel('Board color').selectOption('teal');
  await page.getByLabel('Saturday').check();
  await page.getByLabel('Dependency behaviour').selectOption('push');

  // Added in the wrong order, then moved: the saved order is the order on screen.
  for (const [index, name] of ['Cutting', 'Assembly', 'Painting'].entries()) {
    await page.getByRole('button', { name: 'Add stage' }).click();
    await expect(page.getByLabel(`Stage ${index + 1} name`)).toBeFocused();
    await page.getByLabel(`Stage ${index + 1} name`).fill(name);
  }
  await page.getByRole('button', { name: 'Move stage 3 up' }).click();
  await expect(page.getByLabel('Stage 2 name')).toHaveValue('Painting');
  await page.getByLabel('Stage 2 delay days').fill('1');
  await page.getByLabel('Stage 2 setup (min)').fill('30');
  await page.getByRole('group', { name: 'Stage 2 allowed activities' }).getByLabel('Painting').check();
  await page.getByLabel('Stage 3 independent').check();

  await page.getByRole('button', { name: 'Add status' }).click();
  await page.getByLabel('Status 1 name').fill('To do');
  await expect(page.getByText('No status is marked as entry')).toBeVisible();
  await page.getByLabel('Status 1 entry').check();
  await expect(page.getByText('No status is marked as entry')).toBeHidden();
  await page.getByRole('button', { name: 'Add status' }).click();
  await page.getByLabel('Status 2 name').fill('Done');
  await page.getByLabel('Status 2 exit').check();
  await retakeScreenshot(page, 'board-setup.png', { fullPage: true });

  await page.getByRole('button', { name: 'Add label' }).click();
  await page.getByLabel('Label 1 name').fill('Rush');
  await page.getByLabel('Label 1 color').selectOption('red');

  await page.getByRole('button', { name: 'Save board' }).click();
  const stages = page.getByRole('list', { name: 'Stages' }).getByRole('listitem');
  await expect(stages).toHaveText([/^Cutting$/, /^Painting.*1 day delay.*Painting/, /^Assembly.*independent/]);
  await expect(page.getByLabel('Board', { exact: true })).toHaveText('Kitchen line');

  await page.reload();
  await expect(stages).toHaveText([/^Cutting$/, /^Painting/, /^Assembly/]);
  await page.getByRole('button', { name: 'Board setup' }).click();
  await expect(page.getByLabel('Board name')).toHaveValue('Kitchen line');
  await expect(page.getByLabel('Board color')).toHaveValue('teal');
  await expect(page.getByLabel('Saturday')).toBeChecked();
  await expect(page.getByLabel('Sunday')).not.toBeChecked();
  await expect(page.getByLabel('Dependency behaviour')).toHaveValue('push');
  await expect(page.getByLabel('Stage 1 name')).toHaveValue('Cutting');
  await expect(page.getByLabel('Stage 2 name')).toHaveValue('Painting');
  await expect(page.getByLabel('Stage 3 name')).toHaveValue('Assembly');
  await expect(page.getByLabel('Stage 1 delay days')).toHaveValue('0');
  await expect(page.getByLabel('Stage 2 delay days')).toHaveValue('1');
  await expect(page.getByLabel('Stage 1 setup (min)')).toHaveValue('0');
  await expect(page.getByLabel('Stage 2 setup (min)')).toHaveValue('30');
  await expect(page.getByLabel('Stage 3 independent')).toBeChecked();
  await expect(page.getByLabel('Stage 1 independent')).not.toBeChecked();
  await expect(page.getByRole('group', { name: 'Stage 2 allowed activities' }).getByLabel('Painting')).toBeChecked();
  await expect(page.getByRole('group', { name: 'Stage 1 allowed activities' }).getByLabel('Painting')).not.toBeChecked();
  await expect(page.getByLabel('Status 1 name')).toHaveValue('To do');
  await expect(page.getByLabel('Status 1 entry')).toBeChecked();
  await expect(page.getByLabel('Status 2 name')).toHaveValue('Done');
  await expect(page.getByLabel('Status 2 exit')).toBeChecked();
  await expect(page.getByLabel('Status 2 entry')).not.toBeChecked();
  await expect(page.getByLabel('Label 1 name')).toHaveValue('Rush');
  await expect(page.getByLabel('Label 1 color')).toHaveValue('red');

  // Editing: rename one stage, remove another; the rest keeps its settings.
  await page.getByLabel('Stage 1 name').fill('Sawing');
  await page.getByRole('button', { name: 'Remove stage 3' }).click();
  await page.getByRole('button', { name: 'Save board' }).click();
  await expect(stages).toHaveText([/^Sawing$/, /^Painting.*1 day delay/]);

  await page.reload();
  await page.getByRole('button', { name: 'Board setup' }).click();
  await expect(page.getByLabel('Stage 1 name')).toHaveValue('Sawing');
  await expect(page.getByLabel('Stage 2 name')).toHaveValue('Painting');
  await expect(page.getByLabel('Stage 3 name')).toHaveCount(0);
  await expect(page.getByRole('group', { name: 'Stage 2 allowed activities' }).getByLabel('Painting')).toBeChecked();
  await expect(page.getByLabel('Status 1 name')).toHaveValue('To do');

  // Escape leaves the setup without saving.
  await page.getByLabel('Stage 1 name').fill('Not saved');
  await page.getByLabel('Stage 1 name').press('Escape');
  await expect(stages).toHaveText([/^Sawing$/, /^Painting/]);
});

test('a resource works on two stages of a board at 50% each', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  await createBoard(page, 'Kitchen line', ['Sawing', 'Painting', 'Assembly']);

  await openScreen(page, 'Resources');
  await expect(page.getByText('No resources yet')).toBeVisible();
  await page.getByLabel('Resource name').fill('Anna');
  await page.getByLabel('Type').selectOption('employee');
  await page.getByLabel('Color').fill('#3366cc');
  await page.getByLabel('Saturday hours').fill('4');
  await page.getByLabel('Start date').fill('2026-01-05');
  const board = page.getByRole('group', { name: 'Kitchen line' });
  await board.getByRole('checkbox', { name: 'Sawing', exact: true }).check();
  await board.getByRole('checkbox', { name: 'Painting', exact: true }).check();
  await board.getByLabel('Sawing percentage').fill('50');
  await board.getByLabel('Painting percentage').fill('50');
  await page.getByRole('button', { name: 'Save resource' }).click();

  const anna = page.getByRole('list', { name: 'Resources' }).getByRole('listitem').filter({ hasText: 'Anna' });
  await expect(anna).toContainText('Kitchen line: Sawing 50%, Painting 50%');
  await expect(page.getByLabel('Resource name')).toHaveValue('');

  await page.reload();
  await openScreen(page, 'Resources');
  await expect(anna).toContainText('Kitchen line: Sawing 50%, Painting 50%');
  await page.getByRole('button', { name: 'Edit Anna' }).click();
  await expect(page.getByLabel('Resource name')).toHaveValue('Anna');
  await expect(page.getByLabel('Color')).toHaveValue('#3366cc');
  await expect(page.getByLabel('Monday hours')).toHaveValue('8');
  await expect(page.getByLabel('Saturday hours')).toHaveValue('4');
  await expect(page.getByLabel('Sunday hours')).toHaveValue('');
  await expect(page.getByLabel('Start date')).toHaveValue('2026-01-05');
  await expect(board.getByRole('checkbox', { name: 'Sawing', exact: true })).toBeChecked();
  await expect(board.getByRole('checkbox', { name: 'Assembly', exact: true })).not.toBeChecked();
  await expect(board.getByLabel('Painting percentage')).toHaveValue('50');

  // Escape leaves the edit; the form goes back to adding a resource.
  await page.getByLabel('Resource name').press('Escape');
  await expect(page.getByRole('form', { name: 'New resource' })).toBeVisible();
});

test('saving a board without names shows what the API says beside the inputs', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);

  await page.getByRole('button', { name: 'New board' }).click();
  await page.getByRole('button', { name: 'Add stage' }).click();
  await page.getByRole('button', { name: 'Save board' }).click();

  const boardName = page.getByLabel('Board name');
  await expect(boardName).toHaveAttribute('aria-invalid', 'true');
  await expect(boardName).toHaveAccessibleDescription('Board name is required');
  await expect(boardName).toBeFocused();
  await expect(page.getByLabel('Stage 1 name')).toHaveAccessibleDescription('Stage name is required');

  await boardName.fill('Kitchen line');
  await page.getByLabel('Stage 1 name').fill('Sawing');
  await page.getByRole('button', { name: 'Save board' }).click();
  await expect(page.getByRole('list', { name: 'Stages' }).getByRole('listitem')).toHaveText([/^Sawing$/]);

  // Emptying the name of a saved board is refused too, not stored as an empty name.
  await page.getByRole('button', { name: 'Board setup' }).click();
  await page.getByLabel('Board name').fill('');
  await page.getByRole('button', { name: 'Save board' }).click();
  await expect(page.getByLabel('Board name')).toHaveAccessibleDescription(/Board name is required/);
  await page.getByRole('button', { name: 'Cancel' }).click();
  await expect(page.getByLabel('Board', { exact: true })).toHaveText('Kitchen line');
});

test('an activity without a name is refused beside its input', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  await openScreen(page, 'Activities');
  await page.getByRole('button', { name: 'Save activity' }).click();
  await expect(page.getByLabel('Activity name')).toHaveAccessibleDescription('Activity name is required');
});
