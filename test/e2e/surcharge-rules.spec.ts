/**
 * Surcharge rules in Settings (docs/API.md "Surcharge rules"): a planner adds a night rule, sees
 * it in words in the list, is told beside the input that a percentage of 0 will not do (and
 * nothing is added), changes the rule and deletes it.
 */
import { expect, test } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { bridgeApi, openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('a night rule is added, refused at 0 %, changed and deleted in Settings', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  await openScreen(page, 'Settings');
  const section = page.getByRole('region', { name: 'Surcharge rules' });
  await expect(section.getByText('No surcharge rules yet')).toBeVisible();

  const form = section.getByRole('form', { name: 'New surcharge rule' });
  await form.getByLabel('Rule name').fill('Night');
  for (const day of ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday']) await form.getByLabel(day, { exact: true }).check();
  await form.getByLabel('From').fill('22:00');
  await form.getByLabel('Until').fill('06:00');
  await form.getByLabel('Percentage').fill('125');
  await form.getByLabel('Payroll hour code').fill('NIGHT');
  await form.getByRole('button', { name: 'Save rule' }).click();
  const rules = section.getByRole('list', { name: 'Surcharge rules' });
  await expect(rules.getByRole('listitem')).toHaveCount(1);
  await expect(rules.getByRole('listitem')).toContainText('Mon, Tue, Wed, Thu, Fri · 22:00–06:00');
  await expect(rules.getByRole('listitem')).toContainText('125 %');

  // 0 % is refused beside its input, and nothing is added.
  await form.getByLabel('Rule name').fill('Free');
  await form.getByLabel('Saturday', { exact: true }).check();
  await form.getByLabel('Percentage').fill('0');
  await form.getByRole('button', { name: 'Save rule' }).click();
  await expect(form.getByText('Percentage must be more than 0')).toBeVisible();
  await expect(rules.getByRole('listitem')).toHaveCount(1);

  await rules.getByRole('button', { name: 'Edit Night' }).click();
  const edit = section.getByRole('form', { name: 'Edit Night' });
  await edit.getByLabel('Percentage').fill('130');
  await edit.getByRole('button', { name: 'Save rule' }).click();
  await expect(rules.getByRole('listitem')).toContainText('130 %');
  expect((await bridgeApi(page, 'GET', '/v1/surcharge_rule')).data.map((r: any) => [r.name, r.percentage, r.hour_code])).toEqual([
    ['Night', 130, 'NIGHT'],
  ]);

  await rules.getByRole('button', { name: 'Delete Night' }).click();
  await rules.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(section.getByText('No surcharge rules yet')).toBeVisible();
});
