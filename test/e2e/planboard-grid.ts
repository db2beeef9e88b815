/**
 * The planboard's grid as a mouse meets it: a day on the date bar, the centre of a day's cell
 * in a stage's row, a drag from one point to another, and a scroll to a day.
 */
import { expect, type Locator, type Page } from '@playwright/test';

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

/**
 * Scrolls the grid sideways until `date` stands where today stood on the first screen, as a
 * planner scrolling there would; the board loads and draws the days around it. A spec that
 * looks at a day further than a few days ahead goes there first: how far the first screen
 * reaches depends on the weekday of today and on the zoom.
 */
export async function scrollToDay(page: Page, date: string): Promise<void> {
  await page.locator('.pb-scroller').evaluate((scroller, target) => {
    const dayWidth = parseFloat(getComputedStyle(scroller).getPropertyValue('--day-width'));
    const today =
      scroller.querySelector('.pb-dates__band--lower .is-today') ?? scroller.querySelector('.pb-dates__band--lower [data-date]');
    const known = scroller.querySelector<HTMLElement>('.pb-dates__band--lower [data-date]');
    if (!today || !known) throw new Error('the date bar shows no days');
    const days = (Date.parse(target) - Date.parse(known.dataset.date!)) / 86_400_000;
    scroller.scrollLeft += known.getBoundingClientRect().left + days * dayWidth - today.getBoundingClientRect().left;
  }, date);
  await expect(dayOnDateBar(page, date)).toBeInViewport();
}
