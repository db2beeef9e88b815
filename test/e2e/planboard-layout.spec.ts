/**
 * The planboard's floating and crowded parts stay readable (ux-walk-2): a message (toast) never
 * covers the bar of the selected cards, and the backlog's "Replan late…" is whole at a 1,440 px
 * wide window, in English and Dutch.
 */
import { expect, test, type Locator, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { seedFramesBoard } from './card-setup.js';
import { nextMonday } from './dates.js';
import { openScreen, switchToDutch } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

type Box = { x: number; y: number; width: number; height: number };

async function boxOf(locator: Locator): Promise<Box> {
  const box = await locator.boundingBox();
  expect(box, 'on screen').not.toBeNull();
  return box!;
}

function overlap(a: Box, b: Box): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

function inside(inner: Box, outer: Box): boolean {
  // Half a pixel for sub-pixel layout.
  return (
    inner.x >= outer.x - 0.5 &&
    inner.y >= outer.y - 0.5 &&
    inner.x + inner.width <= outer.x + outer.width + 0.5 &&
    inner.y + inner.height <= outer.y + outer.height + 0.5
  );
}

/**
 * Whether the element itself is what shows at the middle of each edge of its box and at its
 * centre: nothing clips or covers it. (Its corners are rounded, so they show what is behind.)
 */
async function wholeOnScreen(locator: Locator): Promise<boolean> {
  return locator.evaluate((element) => {
    const box = element.getBoundingClientRect();
    const [midX, midY] = [(box.left + box.right) / 2, (box.top + box.bottom) / 2];
    const points = [
      [box.left + 3, midY],
      [box.right - 3, midY],
      [midX, box.top + 3],
      [midX, box.bottom - 3],
      [midX, midY],
    ] as const;
    return points.every(([x, y]) => {
      const hit = document.elementFromPoint(x, y);
      return hit !== null && element.contains(hit);
    });
  });
}

async function openBoard(page: Page, width: number, height: number): Promise<void> {
  app = await startApp();
  await page.setViewportSize({ width, height });
  await page.goto(app.url);
  await seedFramesBoard(page, nextMonday());
  // Setup is not complete, so the first-start checklist shows; put away, the board has the window.
  await page.getByRole('button', { name: 'Put the checklist away' }).click();
  await openScreen(page, 'Planboard');
}

test('a message stands clear of the selected cards’ bar, so both can be read and used', async ({ page }) => {
  await openBoard(page, 1280, 800);
  const cards = page.getByRole('listbox', { name: 'Cards' });
  await cards.getByRole('option', { name: /^Frame 1001,/ }).click();
  await cards.getByRole('option', { name: /^Frame 1002,/ }).click({ modifiers: ['Control'] });
  const bar = page.getByRole('group', { name: 'Selected cards' });
  await expect(bar).toContainText('2 cards selected');

  // Moved a day later and back: the undo's message shows while both cards stay selected.
  await page.keyboard.press('Alt+ArrowRight');
  await expect(page.getByRole('button', { name: 'Undo', exact: true })).toBeEnabled();
  await page.keyboard.press('Control+z');
  const message = page.getByRole('status').filter({ hasText: 'Undone: Move 2 cards' });
  await expect(message).toBeVisible();
  await expect(bar).toBeVisible();

  expect(overlap(await boxOf(message), await boxOf(bar)), 'the message covers the bar').toBe(false);
  for (const name of ['Delete', 'Clear selection'])
    expect(await wholeOnScreen(bar.getByRole('button', { name, exact: true })), `${name} is not covered`).toBe(true);
  expect(await wholeOnScreen(message), 'the message is not covered').toBe(true);
});

test('“Replan late…” is whole at a 1,440 px wide window, inside the backlog and the window', async ({ page }) => {
  await openBoard(page, 1440, 900);
  const backlog = page.getByRole('complementary', { name: 'Backlog' });
  const viewport = { x: 0, y: 0, width: 1440, height: 900 };

  for (const [language, name] of [
    ['English', 'Replan late…'],
    ['Dutch', 'Te laat herplannen…'],
  ] as const) {
    if (language === 'Dutch') {
      await switchToDutch(page);
      await openScreen(page, 'Planbord');
    }
    const replan = backlog.getByRole('button', { name, exact: true });
    await expect(replan, language).toBeVisible();
    const box = await boxOf(replan);
    expect(inside(box, viewport), `${language}: inside the window`).toBe(true);
    expect(inside(box, await boxOf(backlog)), `${language}: inside the backlog`).toBe(true);
    expect(await wholeOnScreen(replan), `${language}: not clipped or covered`).toBe(true);
    // Its words are whole too: the button is as wide as its text needs.
    expect(await replan.evaluate((element) => element.scrollWidth <= element.clientWidth), `${language}: its words fit`).toBe(true);
  }
});
