/**
 * A board's automation rules in its setup (docs/API.md "Automation rules"): the planner adds a
 * rule, sees it described in their words, pauses it and removes it; each is saved at once and
 * is there after a reload. Against the real app in browser-host mode with its own data folder.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('a planner adds a rule that sets the next stage, pauses it after a reload, and removes it', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  await openScreen(page, 'Planboard');
  await page.getByRole('button', { name: 'New board' }).click();
  await page.getByLabel('Board name').fill('Kitchen line');
  for (const [index, stage] of ['Sawing', 'Painting'].entries()) {
    await page.getByRole('button', { name: 'Add stage' }).click();
    await page.getByLabel(`Stage ${index + 1} name`).fill(stage);
  }
  await page.getByRole('button', { name: 'Add status' }).click();
  await page.getByLabel('Status 1 name').fill('To do');
  await page.getByLabel('Status 1 entry').check();
  await page.getByRole('button', { name: 'Add status' }).click();
  await page.getByLabel('Status 2 name').fill('Done');
  await page.getByLabel('Status 2 exit').check();
  await page.getByRole('button', { name: 'Save board' }).click();
  await expect(page.getByRole('list', { name: 'Stages' }).getByRole('listitem')).toHaveCount(2);

  await page.getByRole('button', { name: 'Board setup' }).click();
  const rules = page.getByTestId('automation-rules');
  await expect(rules.getByText('No rules yet.')).toBeVisible();
  await rules.getByLabel('Rule', { exact: true }).selectOption('set_next_status');
  await rules.getByLabel('Set the next stage to').selectOption({ label: 'Done' });
  await rules.getByRole('button', { name: 'Add rule' }).click();
  const described = 'When a card enters a done status, the next stage’s card becomes Done';
  await expect(rules.getByRole('listitem')).toHaveText([new RegExp(described)]);

  // A rule with nothing to tell is refused, and nothing is added.
  await rules.getByLabel('Rule', { exact: true }).selectOption('notify');
  await rules.getByRole('button', { name: 'Add rule' }).click();
  await expect(rules.getByRole('alert')).toBeVisible();
  await expect(rules.getByRole('listitem')).toHaveCount(1);

  await page.reload();
  await page.getByRole('button', { name: 'Board setup' }).click();
  await expect(rules.getByRole('listitem')).toHaveText([new RegExp(described)]);
  // The box shows the pause at once, while it is saved: the reload waits for the save, or it
  // could come before the write and show the rule active again.
  // The page calls the API through the host's bridge: one POST carrying the method and path.
  const saved = page.waitForResponse((answer) => {
    const sent = answer.request().postData() ?? '';
    return sent.includes('"method":"PUT"') && sent.includes('/v1/automation_rule/');
  });
  await rules.getByLabel('Active').click();
  await expect(rules.getByLabel('Active')).not.toBeChecked();
  expect((await saved).ok()).toBe(true);
  await page.reload();
  await page.getByRole('button', { name: 'Board setup' }).click();
  await expect(rules.getByLabel('Active')).not.toBeChecked();
  await rules.getByRole('button', { name: 'Remove' }).click();
  await expect(rules.getByText('No rules yet.')).toBeVisible();
});
