/**
 * A stage's own workdays on the planboard (docs/API.md "A stage's workdays"): on a board that
 * does not work Saturdays, the press Duo of stage Press has a second shift on Saturday, so a
 * finite plan puts Press's card on the Saturday, Press's row is open that day (not shaded), its
 * card there is not flagged, and a move of a Press card onto the Saturday goes through while
 * one of Cut's is still refused.
 *
 * The board: Shop (Monday to Friday), independent stages Cut (the saw Saw, 8 h Monday to
 * Friday) and Press (Duo, the same and 6 h on Saturday). Press run (1,000 minutes) is planned
 * finite from next week's Thursday: Thursday to Saturday. Press job and Cut job (60 minutes
 * each) sit on next week's Friday.
 */
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, longDate, nextMonday } from './dates.js';
import { scrollToDay } from './planboard-grid.js';
import { bridgeApi, openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const monday = nextMonday();
const thursday = addDays(monday, 3);
const friday = addDays(monday, 4);
const saturday = addDays(monday, 5);
const eightHours = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null };

async function seedBoard(page: Page): Promise<string> {
  const press = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Press', resource_type: 'machine' });
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Shop',
      workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false },
      stages: [
        { name: 'Cut', priority: 0, independent: true },
        { name: 'Press', priority: 1, independent: true, activities: [{ id: press.id, priority: 0 }] },
      ],
      statuses: [{ name: 'To do', entry: true, color: 'blue' }],
    },
    { with: 'stages' },
  );
  const stageId = (name: string) => board.stages.find((s: { name: string }) => s.name === name).id;
  for (const [name, stage, second_shift] of [
    ['Saw', 'Cut', null],
    ['Duo', 'Press', { '1': null, '2': null, '3': null, '4': null, '5': null, '6': 6, '7': null }],
  ] as const) {
    await bridgeApi(page, 'POST', '/v1/resource', {
      name,
      type: 'machine',
      workdays: eightHours,
      second_shift,
      boards: [{ id: board.id, stages: [{ id: stageId(stage), percentage: 100 }] }],
    });
  }
  const run = await bridgeApi(page, 'POST', '/v1/collection', {
    name: 'Press run',
    board_id: board.id,
    activities: [{ id: press.id, time: 1000 }],
  });
  await bridgeApi(page, 'POST', `/v1/collection/${run.id}/board/${board.id}`, { start: thursday, capacity: 'finite' });
  for (const [name, stage] of [
    ['Press job', 'Press'],
    ['Cut job', 'Cut'],
  ] as const) {
    const collection = await bridgeApi(page, 'POST', '/v1/collection', { name, board_id: board.id });
    await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/card`, {
      stage_id: stageId(stage),
      start_date: friday,
      end_date: friday,
      activities: [{ id: press.id, time: 60 }],
    });
  }
  return board.id;
}

async function startOnServer(page: Page, boardId: string, name: string): Promise<string> {
  const cards = await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: `board_id:eq:'${boardId}'`, with: 'collection' });
  return cards.data.find((card: { collection: { name: string } }) => card.collection.name === name).start_date;
}

test("a stage's Saturday shift: its card is planned on the Saturday, its row is open there, its moves go through", async ({ page }) => {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const boardId = await seedBoard(page);
  await openScreen(page, 'Planboard');
  await scrollToDay(page, monday);

  const cards = page.getByRole('listbox', { name: 'Cards' });
  const run = cards.getByRole('option', { name: /^Press run,/ });
  await expect(run).toHaveAccessibleName(new RegExp(longDate(thursday)));
  await expect(run).not.toHaveAccessibleName(/On a non-workday/);
  expect(
    (await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: `board_id:eq:'${boardId}'`, with: 'collection' })).data.find(
      (card: { collection: { name: string } }) => card.collection.name === 'Press run',
    ).end_date,
  ).toBe(saturday);
  // The Saturday is open in Press's row only: the rest of its column stays shaded.
  await expect(page.locator(`.pb-day.is-stage-workday[data-stage-workday="${saturday}"]`)).toHaveCount(1);

  // Press job moves onto the Saturday without a word; Cut job is refused.
  const pressJob = cards.getByRole('option', { name: /^Press job,/ });
  await pressJob.click();
  await page.keyboard.press('Alt+ArrowRight');
  await expect.poll(() => startOnServer(page, boardId, 'Press job')).toBe(saturday);
  await expect(pressJob).not.toHaveAccessibleName(/On a non-workday/);

  const cutJob = cards.getByRole('option', { name: /^Cut job,/ });
  await cutJob.click();
  await page.keyboard.press('Alt+ArrowRight');
  await expect(page.getByRole('alert').filter({ hasText: `${longDate(saturday)} is not a workday on this board.` })).toBeVisible();
  expect(await startOnServer(page, boardId, 'Cut job')).toBe(friday);
});
