/**
 * Accessibility of every main screen, in the light and the dark theme: axe-core finds no
 * serious or critical violation (labels on every control, contrast, names of buttons, roles).
 * The screens are filled with the sample workshop (docs/API.md "Sample workshop"), so lists,
 * cards, forms and their rows are on screen, not only empty states.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { bridgeApi, mainMenu, openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

/** The serious and critical violations on the page as it is, one readable line each. */
async function seriousViolations(page: Page, disabled: readonly string[] = []): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).disableRules([...disabled]).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) =>
      violation.nodes.map(
        (node) => `${violation.id} (${violation.impact}): ${node.target.join(' ')} ${node.html} — ${node.failureSummary ?? ''}`,
      ),
    );
}

/** Each main screen, opened the way a planner opens it. */
const screens: { name: string; open: (page: Page) => Promise<void>; disabled?: readonly string[] }[] = [
  {
    name: 'planboard',
    open: async (page) => {
      await openScreen(page, 'Planboard');
      await expect(page.getByRole('listbox', { name: 'Cards' }).getByRole('option').first()).toBeVisible();
    },
  },
  {
    name: 'board setup',
    open: async (page) => {
      await openScreen(page, 'Planboard');
      await page.getByRole('button', { name: 'Board setup', exact: true }).click();
      await expect(page.getByLabel('Board name')).toBeVisible();
    },
  },
  {
    name: 'orders list',
    open: async (page) => {
      await openScreen(page, 'Orders');
      await expect(page.getByRole('grid', { name: 'Orders' }).getByRole('row').filter({ hasText: 'SO-1001' })).toBeVisible();
    },
  },
  {
    name: 'order detail',
    open: async (page) => {
      await openScreen(page, 'Orders');
      await page.getByRole('grid', { name: 'Orders' }).getByRole('row').filter({ hasText: 'SO-1001' }).dblclick();
      await expect(page.getByRole('grid', { name: 'Order rows' })).toBeVisible();
    },
  },
  { name: 'exceptions', open: (page) => openScreen(page, 'Exceptions') },
  {
    name: 'kpi',
    open: async (page) => {
      await openScreen(page, 'KPIs');
      // One chart's table shown, so that the table is checked as well as the charts' labels.
      const onTime = page.getByTestId('kpi-onTime');
      await onTime.getByRole('button', { name: 'Show as table' }).click();
      await expect(onTime.getByRole('table')).toBeVisible();
    },
  },
  { name: 'time', open: (page) => openScreen(page, 'Time') },
  { name: 'activities', open: (page) => openScreen(page, 'Activities') },
  { name: 'resources', open: (page) => openScreen(page, 'Resources') },
  { name: 'projects', open: (page) => openScreen(page, 'Projects') },
  { name: 'settings', open: (page) => openScreen(page, 'Settings') },
  { name: 'sync', open: (page) => openScreen(page, 'Sync') },
];

for (const theme of ['light', 'dark'] as const) {
  test(`every main screen has no serious or critical accessibility violation in the ${theme} theme`, async ({ page }) => {
    test.setTimeout(180_000);
    app = await startApp();
    await page.setViewportSize({ width: 1400, height: 900 });
    await page.goto(app.url);
    await bridgeApi(page, 'POST', '/v1/sample_workshop');
    await mainMenu(page).getByRole('button', { name: 'Settings', exact: true }).click();
    await page
      .getByRole('radiogroup', { name: 'Theme' })
      .getByLabel(theme === 'light' ? 'Light' : 'Dark')
      .check();
    await expect(page.locator('html')).toHaveAttribute('data-theme', theme);

    const found: string[] = [];
    for (const screen of screens) {
      await screen.open(page);
      found.push(...(await seriousViolations(page, screen.disabled)).map((line) => `${screen.name}: ${line}`));
    }
    expect(found, found.join('\n')).toEqual([]);
  });
}
