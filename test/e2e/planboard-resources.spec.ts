/**
 * The planboard by resource (docs/API.md "Schedules and capacity"): rows are the resources
 * active on the board, each with the cards assigned to it and its load against what it has
 * available per day, counted once however many stages the resource works on.
 *
 * The board: Workshop (Monday to Friday), stages Cutting and Welding. Pia works 8 hours a day,
 * Cutting 50 % and Welding 100 %: one person, so 8 hours a day in her row, not 4 + 8. On the
 * Tuesday of next week she has Saw (120 minutes, Cutting) and Weld (240 minutes, Welding): 6 of
 * her 8 hours. On the Wednesday, Grind (600 minutes) is more than her day: over.
 */
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, nextMonday } from './dates.js';
import { scrollToDay } from './planboard-grid.js';
import { bridgeApi, openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const tuesday = addDays(nextMonday(), 1);
const wednesday = addDays(nextMonday(), 2);

async function seedBoard(page: Page): Promise<string> {
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Workshop',
      workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false },
      stages: [
        { name: 'Cutting', priority: 0 },
        { name: 'Welding', priority: 1 },
      ],
      statuses: [{ name: 'To do', entry: true, color: 'blue' }],
    },
    { with: 'stages' },
  );
  const [cutting, welding] = board.stages.map((stage: { id: string }) => stage.id);
  const pia = await bridgeApi(page, 'POST', '/v1/resource', {
    name: 'Pia',
    type: 'employee',
    workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
    boards: [
      {
        id: board.id,
        stages: [
          { id: cutting, percentage: 50 },
          { id: welding, percentage: 100 },
        ],
      },
    ],
  });
  const activity = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Work', resource_type: 'employee' });
  for (const [name, stage, day, time] of [
    ['Saw', cutting, tuesday, 120],
    ['Weld', welding, tuesday, 240],
    ['Grind', welding, wednesday, 600],
  ] as const) {
    const collection = await bridgeApi(page, 'POST', '/v1/collection', { name, board_id: board.id });
    await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/card`, {
      stage_id: stage,
      start_date: day,
      end_date: day,
      activities: [{ id: activity.id, time }],
      resources: [{ id: pia.id }],
    });
  }
  return pia.id;
}

test('the resource view shows one person’s load across two stages once', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const piaId = await seedBoard(page);
  await openScreen(page, 'Planboard');
  await page.getByRole('group', { name: 'Zoom' }).getByRole('button', { name: 'Day' }).click();
  await page.getByRole('group', { name: 'Rows' }).getByRole('button', { name: 'Resources' }).click();
  // Day zoom shows about nine days: next week's Tuesday and Wednesday are not always among them.
  await scrollToDay(page, tuesday);

  // One row, Pia's, holding the cards of both stages.
  const rows = page.getByRole('list', { name: 'Resources' }).getByRole('listitem');
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText('Pia');
  const cards = page.getByRole('listbox', { name: 'Cards of the resources' });
  for (const name of ['Saw', 'Weld', 'Grind']) await expect(cards.getByRole('option', { name: new RegExp(`^${name},`) })).toBeVisible();

  // Her Tuesday: 2 + 4 hours of her 8, once; her Wednesday: 10 of 8, over.
  const strip = page.locator(`.pb-capacity[data-stage-id="${piaId}"]`);
  const days = strip.locator('.pb-capacity__day');
  await expect(days.filter({ hasText: '6h / 8h' })).toHaveCount(1);
  await expect(days.filter({ hasText: '6h / 8h' })).not.toHaveClass(/is-over/);
  await expect(days.filter({ hasText: '10h / 8h' })).toHaveClass(/is-over/);
  await expect(strip).not.toContainText('/ 12h');

  // A click opens the card.
  await cards.getByRole('option', { name: /^Weld,/ }).click();
  await expect(page.getByRole('complementary', { name: 'Card details' })).toBeVisible();

  // Back by stage: the stage rows again.
  await page.getByRole('group', { name: 'Rows' }).getByRole('button', { name: 'Stages' }).click();
  await expect(page.getByRole('list', { name: 'Stages' }).getByRole('listitem')).toHaveCount(2);
});
