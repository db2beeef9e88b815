/**
 * A planner whose data folder has a damaged file (security audit, finding 9) opens the address
 * the app printed and finds the recovery page instead of nothing: they restore a backup file
 * through the browser, or start fresh, and land in the app.
 */
import { expect, test, type Page } from './fixtures.js';
import { join } from 'node:path';
import { writeBackup } from '../../electron/store/backup/backup-file.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { damagePages, environmentFileIn, keptFolders } from '../helpers/broken-data.js';
import { newDataDir, startApp, type RunningApp } from './app.js';
import { bridgeApi } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** A data folder with project Kitchen, a backup of it, and then its environment file damaged. */
async function brokenDataFolder(page: Page): Promise<{ dataDir: string; backup: string }> {
  const dataDir = newDataDir();
  app = await startApp(dataDir);
  await page.goto(app.url);
  await bridgeApi(page, 'POST', '/v1/project', { name: 'Kitchen' });
  await app.stop();
  const backup = join(dataDir, '..', `${dataDir.split('/').pop()}-backup.sqlite`);
  const folder = DataDir.open(dataDir);
  try {
    await writeBackup(folder, backup, { appVersion: '0.1.0' });
  } finally {
    folder.close();
  }
  damagePages(environmentFileIn(dataDir));
  return { dataDir, backup };
}

async function projectsListed(page: Page): Promise<void> {
  await page
    .getByRole('button', { name: /projects/i })
    .first()
    .click();
}

test('the recovery page restores a backup file chosen in the browser, and the app opens with its data', async ({ page }) => {
  const { dataDir, backup } = await brokenDataFolder(page);
  app = await startApp(dataDir);
  expect(app.output()).toContain('Planner cannot open');
  await page.goto(app.url);
  await expect(page.getByRole('heading', { name: 'Planner cannot open its data' })).toBeVisible();
  await expect(page.getByText(environmentFileIn(dataDir).split('/').pop()!).first()).toBeVisible();

  await page.getByLabel('or choose the file').setInputFiles(backup);
  await page.getByRole('button', { name: 'Restore this backup' }).click();
  await projectsListed(page);
  await expect(page.getByRole('list', { name: 'Projects' }).getByRole('listitem').filter({ hasText: 'Kitchen' })).toBeVisible();
  expect(keptFolders(dataDir, 'before-restore-')).toHaveLength(1);
});

test('the recovery page starts fresh, keeping the damaged file aside, and the app opens empty', async ({ page }) => {
  const { dataDir } = await brokenDataFolder(page);
  app = await startApp(dataDir);
  await page.goto(app.url);
  await page.getByRole('button', { name: 'Start fresh' }).click();
  await projectsListed(page);
  await expect(page.getByText('No projects yet')).toBeVisible();
  // A reload keeps working: the page kept its key when the address lost it.
  await page.reload();
  await projectsListed(page);
  await expect(page.getByText('No projects yet')).toBeVisible();
  expect(keptFolders(dataDir, 'broken-')).toHaveLength(1);
});
