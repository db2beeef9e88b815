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
import { addDays, longDate, nextMonday } from './dates.js';
import { dayOnDateBar, dragTo, scrollToDay } from './planboard-grid.js';
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

/**
 * Workshop (Monday to Friday), stage Saw, where Anna and Bram work 8 hours each. Two orders are
 * planned finite from next Monday with nobody named: SO-1001, 480 minutes, goes to Anna (both
 * are free; Anna by name), SO-1002, 240 minutes, to Bram, the one with room left. Loose, 180
 * minutes on the Tuesday, was put on the board by hand for nobody.
 */
async function seedPlannedSaw(page: Page): Promise<{ people: Record<string, string> }> {
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Workshop',
      workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false },
      stages: [{ name: 'Saw', priority: 0 }],
      statuses: [{ name: 'To do', entry: true, color: 'blue' }],
    },
    { with: 'stages' },
  );
  const saw = board.stages[0].id;
  const activity = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Sawing', resource_type: 'employee' });
  await bridgeApi(page, 'PUT', `/v1/stage/${saw}`, { activities: [{ id: activity.id, priority: 0 }] });
  const people: Record<string, string> = {};
  for (const name of ['Anna', 'Bram']) {
    people[name] = (
      await bridgeApi(page, 'POST', '/v1/resource', {
        name,
        type: 'employee',
        workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
        boards: [{ id: board.id, stages: [{ id: saw, percentage: 100 }] }],
      })
    ).id;
  }
  for (const [name, time] of [
    ['SO-1001', 480],
    ['SO-1002', 240],
  ] as const) {
    const order = await bridgeApi(page, 'POST', '/v1/collection', { name, board_id: board.id, activities: [{ id: activity.id, time }] });
    await bridgeApi(page, 'POST', `/v1/collection/${order.id}/board/${board.id}`, { start: monday, capacity: 'finite' });
  }
  const loose = await bridgeApi(page, 'POST', '/v1/collection', { name: 'Loose', board_id: board.id });
  await bridgeApi(page, 'POST', `/v1/collection/${loose.id}/card`, {
    stage_id: saw,
    start_date: tuesday,
    end_date: tuesday,
    activities: [{ id: activity.id, time: 180 }],
  });
  return { people };
}

const monday = nextMonday();

async function openByResourceAt(page: Page, date: string): Promise<void> {
  await openScreen(page, 'Planboard');
  await page.getByRole('group', { name: 'Zoom' }).getByRole('button', { name: 'Day' }).click();
  await page.getByRole('group', { name: 'Rows' }).getByRole('button', { name: 'Resources' }).click();
  await scrollToDay(page, date);
}

/** A resource's row header, for where to drop on its row. */
function rowOf(page: Page, name: string) {
  return page.getByRole('list', { name: 'Resources' }).getByRole('listitem').filter({ hasText: name });
}

test('after a plan, the person view shows who does what, and the work of no one with its hours', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { people } = await seedPlannedSaw(page);
  await openByResourceAt(page, monday);

  const cards = page.getByRole('listbox', { name: 'Cards of the resources' });
  await expect(page.getByRole('list', { name: 'Resources' }).getByRole('listitem')).toHaveText([/^Anna/, /^Bram/, /^No resource/]);
  // Monday: Anna 8 of 8 hours, Bram 4 of 8, as the Saw stage has 12 of 16.
  const strip = (id: string) => page.locator(`.pb-capacity[data-stage-id="${id}"] .pb-capacity__day`);
  await expect(strip(people.Anna!).filter({ hasText: '8h / 8h' })).toHaveCount(1);
  await expect(strip(people.Bram!).filter({ hasText: '4h / 8h' })).toHaveCount(1);
  for (const name of ['SO-1001', 'SO-1002', 'Loose'])
    await expect(cards.getByRole('option', { name: new RegExp(`^${name},`) })).toHaveCount(1);
  // Loose is nobody's: its 3 hours in the "No resource" row, and said above the names.
  await expect(strip('').filter({ hasText: /^3h$/ })).toHaveAttribute(
    'title',
    `No resource, ${longDate(tuesday)}: 3 h planned with no one assigned`,
  );
  await expect(page.getByRole('status').filter({ hasText: 'no one assigned' })).toHaveText(
    '3 hours planned on the days shown have no one assigned',
  );

  // The stage view says the same: 12 of 16 hours on Monday.
  await page.getByRole('group', { name: 'Rows' }).getByRole('button', { name: 'Stages' }).click();
  await expect(page.locator('.pb-capacity .pb-capacity__day').filter({ hasText: '12h / 16h' })).toHaveCount(1);
});

test('a card dragged onto another person is theirs on the day it lands, and Ctrl+Z gives it back', async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const { people } = await seedPlannedSaw(page);
  await openByResourceAt(page, monday);
  const wednesday = addDays(monday, 2);
  const onServer = async () => {
    const card = (await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: "name:eq:'SO-1002'", with: 'resources' })).data[0];
    return [card.start_date, card.resources.map((r: { id: string }) => r.id)];
  };
  expect(await onServer()).toEqual([monday, [people.Bram]]);

  // SO-1002 from Bram's Monday onto Anna's Wednesday.
  const card = page.getByRole('listbox', { name: 'Cards of the resources' }).getByRole('option', { name: /^SO-1002,/ });
  const from = (await card.boundingBox())!;
  const column = (await dayOnDateBar(page, wednesday).boundingBox())!;
  const anna = (await rowOf(page, 'Anna').boundingBox())!;
  await dragTo(page, { x: from.x + 20, y: from.y + from.height / 2 }, { x: column.x + 20, y: anna.y + anna.height - 20 });
  await expect.poll(onServer).toEqual([wednesday, [people.Anna]]);
  const moved = (await card.boundingBox())!;
  expect(moved.y).toBeLessThan((await rowOf(page, 'Bram').boundingBox())!.y);
  await expect(card).toHaveAccessibleName(new RegExp(longDate(wednesday)));

  // One undo step: back to Bram, on Monday.
  await page.keyboard.press('Control+z');
  await expect.poll(onServer).toEqual([monday, [people.Bram]]);
  await expect(page.getByRole('status').filter({ hasText: 'Undone: Give SO-1002' })).toBeVisible();
  const back = (await card.boundingBox())!;
  expect(back.y).toBeGreaterThanOrEqual((await rowOf(page, 'Bram').boundingBox())!.y);
});
