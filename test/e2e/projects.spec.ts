import { expect, test } from './fixtures.js';
import { newDataDir, startApp, type RunningApp } from './app.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

test('a new user creates a project, and it is still there after a reload and a restart', async ({ page }) => {
  const dataDir = newDataDir();
  app = await startApp(dataDir);
  expect(app.output()).toContain('Not a desktop window');

  await page.goto(app.url);
  await page
    .getByRole('button', { name: /projects/i })
    .first()
    .click();
  const projects = page.getByRole('list', { name: 'Projects' });
  await expect(page.getByText('No projects yet')).toBeVisible();

  await page.getByLabel('New project name').fill('Kitchen');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(projects.getByRole('listitem').filter({ hasText: 'Kitchen' })).toBeVisible();
  await expect(page.getByLabel('New project name')).toHaveValue('');

  await page.reload();
  await page
    .getByRole('button', { name: /projects/i })
    .first()
    .click();
  await expect(projects.getByRole('listitem').filter({ hasText: 'Kitchen' })).toBeVisible();

  // A restart of the app reads the same SQLite file.
  await app.stop();
  app = await startApp(dataDir);
  await page.goto(app.url);
  await page
    .getByRole('button', { name: /projects/i })
    .first()
    .click();
  await expect(projects.getByRole('listitem').filter({ hasText: 'Kitchen' })).toBeVisible();
});

test('a project can be renamed and deleted', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  await page
    .getByRole('button', { name: /projects/i })
    .first()
    .click();
  const projects = page.getByRole('list', { name: 'Projects' });

  await page.getByLabel('New project name').fill('Kitchen');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(projects.getByRole('listitem')).toHaveCount(1);

  await page.getByRole('button', { name: 'Rename Kitchen' }).click();
  await page.getByLabel('Project name').fill('Bathroom');
  await page.getByLabel('Project name').press('Enter');
  await expect(projects.getByRole('listitem').filter({ hasText: 'Bathroom' })).toBeVisible();

  await page.getByRole('button', { name: 'Delete Bathroom' }).click();
  await page.getByRole('button', { name: 'Confirm delete' }).click();
  await expect(page.getByText('No projects yet')).toBeVisible();
});

test('the bridge refuses callers that are not the app page', async ({ request }) => {
  app = await startApp();
  const port = new URL(app.url).port;
  // No session cookie: refused.
  const anonymous = await request.post(new URL('/bridge/request', app.url).href, {
    headers: { 'x-planner-bridge': '1' },
    data: { method: 'GET', path: '/v1/project' },
  });
  expect(anonymous.status()).toBe(401);
  // A DNS-rebinding page reaches us under another host name: refused before anything else.
  const rebound = await request.get(app.url, { headers: { host: `evil.example:${port}` } });
  expect(rebound.status()).toBe(421);
});
