/**
 * The planboard's grid as a mouse meets it: a day on the date bar, the centre of a day's cell
 * in a stage's row, and a drag from one point to another.
 */
import type { Locator, Page } from '@playwright/test';

/** A day's column head on the date bar's lower band (its days, at any zoom). */
export function dayOnDateBar(page: Page, date: string): Locator {
  return page.locator(`.pb-dates__band--lower [data-date="${date}"]`);
}

/** The centre of a day's column (from the date bar) at the height of a stage's row. */
export async function cellCentre(page: Page, date: string, stage: string): Promise<{ x: number; y: number }> {
  const column = await dayOnDateBar(page, date).boundingBox();
  const row = await page.getByRole('list', { name: 'Stages' }).getByRole('listitem').filter({ hasText: stage }).boundingBox();
  if (!column || !row) throw new Error(`no cell for ${date} on ${stage}`);
  return { x: column.x + column.width / 2, y: row.y + row.height / 2 };
}

/** Presses at `from`, moves to `to` in eight steps, as a hand drags rather than jumps, and lets go. */
export async function dragTo(page: Page, from: { x: number; y: number }, to: { x: number; y: number }): Promise<void> {
  await page.mouse.move(from.x, from.y);
  await page.mouse.down();
  for (let step = 1; step <= 8; step++) {
    await page.mouse.move(from.x + ((to.x - from.x) * step) / 8, from.y + ((to.y - from.y) * step) / 8);
  }
  await page.mouse.up();
}
