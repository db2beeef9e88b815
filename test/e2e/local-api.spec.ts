/**
 * The local API as a planner and a program on the same computer meet it: the planner switches
 * it on in Settings (a port another program holds is refused plainly), sees the key once and
 * copies it; a program (Node's fetch on 127.0.0.1) reads the project made in the app with
 * it; a new key locks the old one out; switching off closes the port.
 */
import { expect, test, type Locator } from './fixtures.js';
import { connectTo, freePort, occupiedPort } from '../helpers/ports.js';
import { startApp, type RunningApp } from './app.js';
import { mainMenu } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** What a program on this computer gets for `GET /v1/project` with the key. */
async function programReadsProjects(port: number, key: string): Promise<{ status: number; names?: string[] }> {
  const response = await fetch(`http://127.0.0.1:${port}/v1/project`, { headers: { 'x-api-env': 'local', 'x-api-key': key } });
  if (response.status !== 200) return { status: response.status };
  return { status: 200, names: ((await response.json()) as { data: { name: string }[] }).data.map((project) => project.name) };
}

async function choosePort(section: Locator, port: number): Promise<void> {
  await section.getByLabel('Port', { exact: true }).fill(String(port));
  await section.getByRole('button', { name: 'Use this port' }).click();
  await expect(section.getByText(`http://127.0.0.1:${port}/v1`)).toBeVisible();
}

test('a planner switches the local API on, a program reads the planning with the key shown once, a new key replaces it, and off closes it', async ({
  page,
  context,
}) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  app = await startApp();
  await page.goto(app.url);

  // Something for the program to read: a project made in the app.
  await mainMenu(page).getByRole('button', { name: 'Projects', exact: true }).click();
  await page.getByLabel('New project name').fill('Kitchen');
  await page.getByRole('button', { name: 'Create project' }).click();
  await expect(page.getByRole('list', { name: 'Projects' }).getByRole('listitem').filter({ hasText: 'Kitchen' })).toBeVisible();

  await mainMenu(page).getByRole('button', { name: 'Settings', exact: true }).click();
  const section = page.getByRole('region', { name: 'Local API' });
  const toggle = section.getByRole('checkbox', { name: 'Let other programs on this computer use the Planning API' });
  await expect(toggle).not.toBeChecked();
  await expect(section).toContainText('Off: no program can reach it.');
  await expect(section).toContainText('No key yet');
  await expect(section).toContainText('http://127.0.0.1:4317/v1');

  // A port held by another program: switching on fails plainly and stays off.
  const busy = await occupiedPort();
  try {
    await choosePort(section, busy.port);
    // click, not check(): the switch may already be back off when Playwright looks.
    await toggle.click();
    await expect(section.getByRole('alert')).toHaveText(`Port ${busy.port} is in use by another program. Choose another port.`);
    await expect(toggle).not.toBeChecked();
    await expect(section).toContainText('No key yet');
  } finally {
    await busy.release();
  }

  // A port that is free: on, and the key is shown this once.
  const port = await freePort();
  await choosePort(section, port);
  await toggle.check();
  await expect(toggle).toBeChecked();
  await expect(section).toContainText('On: programs on this computer can reach it.');
  const shown = section.getByRole('group', { name: 'Your new API key' });
  await expect(shown).toContainText('it will not be shown again');
  const key = await shown.getByLabel('API key').inputValue();
  expect(key).toMatch(/^pk_[0-9a-f]{32}_[\w-]{32}$/);
  await shown.getByRole('button', { name: 'Copy' }).click();
  await expect(shown.getByRole('status')).toHaveText('Copied.');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);

  // A program on this computer reads the planning with it; a wrong key is refused.
  expect(await programReadsProjects(port, key)).toEqual({ status: 200, names: ['Kitchen'] });
  expect(await programReadsProjects(port, `${key}-wrong`)).toEqual({ status: 401 });

  // Once noted, the key is gone from the page for good, also after a reload; the facts stay.
  await shown.getByRole('button', { name: 'I have copied it' }).click();
  await expect(shown).toBeHidden();
  await page.reload();
  await mainMenu(page).getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(toggle).toBeChecked();
  await expect(section).toContainText(`http://127.0.0.1:${port}/v1`);
  await expect(section.getByRole('definition').filter({ hasText: /^local$/ })).toBeVisible();
  await expect(section).not.toContainText('No key yet');
  expect(await page.content()).not.toContain(key);

  // A new key, after a confirmation: the old one is refused at once.
  await section.getByRole('button', { name: 'Make a new key' }).click();
  await expect(section).toContainText('The current key stops working at once.');
  await section.getByRole('button', { name: 'Yes, make a new key' }).click();
  const renewed = await shown.getByLabel('API key').inputValue();
  expect(renewed).not.toBe(key);
  expect(await programReadsProjects(port, key)).toEqual({ status: 401 });
  expect(await programReadsProjects(port, renewed)).toEqual({ status: 200, names: ['Kitchen'] });
  await shown.getByRole('button', { name: 'I have copied it' }).click();

  // Off: nothing listens on the port any more.
  await toggle.uncheck();
  await expect(section).toContainText('Off: no program can reach it.');
  expect(await connectTo(port)).toBe('refused');
});

test('the local API stays on across a restart of the app, on its port and with its key', async ({ page }) => {
  app = await startApp();
  const { dataDir } = app;
  await page.goto(app.url);
  await mainMenu(page).getByRole('button', { name: 'Settings', exact: true }).click();
  const section = page.getByRole('region', { name: 'Local API' });
  const port = await freePort();
  await choosePort(section, port);
  await section.getByRole('checkbox').check();
  const key = await section.getByRole('group', { name: 'Your new API key' }).getByLabel('API key').inputValue();

  await app.stop();
  expect(await connectTo(port)).toBe('refused');
  app = await startApp(dataDir);
  expect(app.output()).toContain(`Local API for other programs: http://127.0.0.1:${port}/v1`);
  expect(await programReadsProjects(port, key)).toEqual({ status: 200, names: [] });
  await page.goto(app.url);
  await mainMenu(page).getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(section.getByRole('checkbox')).toBeChecked();
  await expect(section.getByRole('group', { name: 'Your new API key' })).toHaveCount(0);
});
