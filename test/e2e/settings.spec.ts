/**
 * Settings as a planner uses them: the app in Dutch (navigation, top bar, screens) and back,
 * kept over a reload; the theme light, dark or following the system; and the sections that
 * say plainly what only the desktop app can do.
 *
 * With PLANNER_SCREENSHOTS=1 it also (re)takes docs/screenshots/settings*.png.
 */
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { mainMenu } from './planner-page.js';
import { retakeScreenshot, screenshotsWanted } from './readme-screenshots.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** The page's background colour as the browser draws it. */
function background(page: Page): Promise<string> {
  return page.evaluate(() => getComputedStyle(document.body).backgroundColor);
}

test('switching to Dutch translates the navigation, the top bar and the screens, and lasts', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  await mainMenu(page).getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page.locator('html')).toHaveAttribute('lang', 'en');

  await page.getByLabel('Language of the app').selectOption({ label: 'Nederlands' });
  await expect(page.getByRole('heading', { name: 'Instellingen', level: 1 })).toBeVisible();
  await expect(mainMenu(page).getByRole('button')).toHaveText([
    'Planbord',
    'Uitzonderingen',
    'KPI’s',
    'Orders',
    'Projecten',
    'Activiteiten',
    'Resources',
    'Tijd',
    'Synchronisatie',
    'Instellingen',
  ]);
  await expect(page.getByRole('navigation', { name: 'Hoofdmenu' })).toBeVisible();
  await expect(page.getByRole('group', { name: 'Mijn timer' }).getByRole('button', { name: 'Timer starten' })).toBeVisible();
  await expect(page.getByRole('status', { name: 'Synchronisatiestatus' })).toContainText('Alleen lokaal');
  await expect(page.locator('html')).toHaveAttribute('lang', 'nl');

  // The choice is kept in this browser.
  await page.reload();
  await mainMenu(page).getByRole('button', { name: 'Tijd', exact: true }).click();
  await expect(page.getByRole('heading', { name: 'Tijd', level: 1 })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Registraties' })).toBeVisible();
  await expect(page.getByRole('table', { name: /^Urenstaat van week/ })).toBeVisible();

  // And back to English.
  await mainMenu(page).getByRole('button', { name: 'Instellingen', exact: true }).click();
  await page.getByLabel('Taal van de app').selectOption({ label: 'English' });
  await expect(mainMenu(page).getByRole('button', { name: 'Time', exact: true })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
});

test('the theme is light or dark by choice, and follows the system by default', async ({ page }) => {
  app = await startApp();
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto(app.url);
  await mainMenu(page).getByRole('button', { name: 'Settings', exact: true }).click();
  const html = page.locator('html');
  await expect(page.getByRole('radio', { name: 'Same as the system' })).toBeChecked();
  await expect(html).toHaveAttribute('data-theme', 'light');
  const light = await background(page);

  // The system goes dark: the app follows.
  await page.emulateMedia({ colorScheme: 'dark' });
  await expect(html).toHaveAttribute('data-theme', 'dark');
  const dark = await background(page);
  expect(dark).not.toBe(light);

  // A chosen theme stays whatever the system does, also after a reload.
  await page.getByRole('radio', { name: 'Light' }).check();
  await expect(html).toHaveAttribute('data-theme', 'light');
  expect(await background(page)).toBe(light);
  await page.emulateMedia({ colorScheme: 'light' });
  await page.getByRole('radio', { name: 'Dark' }).check();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  expect(await background(page)).toBe(dark);
  await page.reload();
  await expect(html).toHaveAttribute('data-theme', 'dark');
  await mainMenu(page).getByRole('button', { name: 'Settings', exact: true }).click();
  await expect(page.getByRole('radio', { name: 'Dark' })).toBeChecked();
  if (screenshotsWanted) await page.setViewportSize({ width: 1400, height: 900 });
  await retakeScreenshot(page, 'settings-dark.png');

  await page.getByRole('radio', { name: 'Same as the system' }).check();
  await expect(html).toHaveAttribute('data-theme', 'light');
  await retakeScreenshot(page, 'settings.png');
});

test('the browser host shows the data folder, says what only the desktop app does, and offers the local API too', async ({ page }) => {
  app = await startApp();
  await page.goto(app.url);
  await mainMenu(page).getByRole('button', { name: 'Settings', exact: true }).click();
  const data = page.getByRole('region', { name: 'Data folder and backups' });
  // Where the data is, so it can be found and copied; opening it is the desktop app's.
  await expect(data.getByLabel('Data folder')).toHaveText(app.dataDir);
  await expect(data).toContainText('Backups are made by the desktop app');
  await expect(data.getByRole('button')).toHaveCount(0);
  // Closing the page stops nothing, so there is nothing to choose here.
  const closing = page.getByRole('region', { name: 'Closing the app' });
  await expect(closing).toContainText('closing this page stops nothing');
  await expect(closing.getByRole('radio')).toHaveCount(0);
  // Workshop mode serves the workshop network from the desktop app only (docs/decisions/workshop-mode.md).
  const workshop = page.getByRole('region', { name: 'Workshop mode' });
  await expect(workshop).toContainText('Workshop mode is part of the desktop app.');
  await expect(workshop.getByRole('checkbox')).toHaveCount(0);
  // The local API works in both hosts (test/e2e/local-api.spec.ts drives it).
  const localApi = page.getByRole('region', { name: 'Local API' });
  await expect(localApi.getByRole('checkbox')).toBeEnabled();
  await expect(localApi.getByRole('checkbox')).not.toBeChecked();
});
