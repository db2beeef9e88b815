/**
 * Non-workdays and load on the planboard (docs/API.md "Cards on non-workdays" and "Schedules
 * and capacity"): a keyboard move from Friday onto Saturday is refused with a message that
 * offers "Move anyway", and a drop there too unless Shift is held; a card on a Saturday is
 * flagged and still counts in the capacity strip, which prints each week's hours in week zoom.
 *
 * The board: Workshop (Monday to Friday), stage Assembly, where Ivy works 8 hours Monday to
 * Friday, so each week has 40 hours available. Frame (240 minutes) sits on the Friday of next
 * week, Stool (300 minutes) on the Saturday of the week after. For the dense month, six more
 * cards of an hour each (Bolt 1 … 6) share the Wednesday two weeks later.
 */
import { expect, test, type Page } from './fixtures.js';
import { startApp, type RunningApp } from './app.js';
import { addDays, longDate, nextMonday } from './dates.js';
import { cellCentre, dragTo, scrollToDay } from './planboard-grid.js';
import { bridgeApi, openScreen } from './planner-page.js';

let app: RunningApp | undefined;

test.afterEach(async () => {
  await app?.stop();
  app = undefined;
});

const monday = nextMonday();
const friday = addDays(monday, 4);
const saturday = addDays(monday, 5);
const stoolDay = addDays(monday, 12);

async function seedBoard(page: Page): Promise<string> {
  const board = await bridgeApi(
    page,
    'POST',
    '/v1/board',
    {
      name: 'Workshop',
      workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false },
      stages: [{ name: 'Assembly', priority: 0 }],
      statuses: [{ name: 'To do', entry: true, color: 'blue' }],
    },
    { with: 'stages' },
  );
  const stage = board.stages[0].id;
  await bridgeApi(page, 'POST', '/v1/resource', {
    name: 'Ivy',
    type: 'employee',
    workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
    boards: [{ id: board.id, stages: [{ id: stage, percentage: 100 }] }],
  });
  const activity = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Assemble', resource_type: 'employee' });
  for (const [name, day, time] of [
    ['Frame', friday, 240],
    ['Stool', stoolDay, 300],
  ] as const) {
    const collection = await bridgeApi(page, 'POST', '/v1/collection', { name, board_id: board.id });
    await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/card`, {
      stage_id: stage,
      start_date: day,
      end_date: day,
      activities: [{ id: activity.id, time }],
    });
  }
  return board.id;
}

async function startOnServer(page: Page, boardId: string, name: string): Promise<string> {
  const cards = await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: `board_id:eq:'${boardId}'`, with: 'collection' });
  return cards.data.find((card: { collection: { name: string } }) => card.collection.name === name).start_date;
}

async function openBoard(page: Page): Promise<string> {
  app = await startApp();
  await page.setViewportSize({ width: 1400, height: 900 });
  await page.goto(app.url);
  const boardId = await seedBoard(page);
  await openScreen(page, 'Planboard');
  return boardId;
}

test('Alt+→ onto a Saturday is refused with a readable message, and "Move anyway" moves it', async ({ page }) => {
  const boardId = await openBoard(page);
  const frame = page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^Frame,/ });
  await expect(frame).toHaveAccessibleName(new RegExp(longDate(friday)));
  await frame.click();
  await page.keyboard.press('Alt+ArrowRight');

  const refusal = page.getByRole('alert').filter({ hasText: `${longDate(saturday)} is not a workday on this board.` });
  await expect(refusal).toContainText('Hold Shift while dropping (or use “Move anyway”)');
  await expect(frame).toHaveAccessibleName(new RegExp(longDate(friday)));
  expect(await startOnServer(page, boardId, 'Frame')).toBe(friday);

  await refusal.getByRole('button', { name: 'Move anyway' }).click();
  await expect(refusal).toBeHidden();
  await expect.poll(() => startOnServer(page, boardId, 'Frame')).toBe(saturday);
  await expect(frame).toHaveAccessibleName(new RegExp(`${longDate(saturday)}.*On a non-workday`));
});

test('a drop onto a Saturday is refused, and goes through with Shift held', async ({ page }) => {
  const boardId = await openBoard(page);
  const frame = page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^Frame,/ });
  await expect(frame).toBeVisible();
  const from = await cellCentre(page, friday, 'Assembly');
  const to = await cellCentre(page, saturday, 'Assembly');
  await dragTo(page, from, to);
  await expect(page.getByRole('alert').filter({ hasText: `${longDate(saturday)} is not a workday on this board.` })).toBeVisible();
  expect(await startOnServer(page, boardId, 'Frame')).toBe(friday);

  await page.keyboard.down('Shift');
  await dragTo(page, from, to);
  await page.keyboard.up('Shift');
  await expect.poll(() => startOnServer(page, boardId, 'Frame')).toBe(saturday);
});

test('week zoom prints each week in hours, and a card on a Saturday is flagged and counts', async ({ page }) => {
  await openBoard(page);
  await page.getByRole('group', { name: 'Zoom' }).getByRole('button', { name: 'Week' }).click();
  // Next week and the week after in view, whatever weekday today is.
  await scrollToDay(page, monday);

  const stool = page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^Stool,/ });
  await expect(stool).toHaveAccessibleName(/On a non-workday/);
  await expect(stool.locator('.pb-card__off-day')).toHaveAttribute('title', 'On a non-workday');
  const frame = page.getByRole('listbox', { name: 'Cards' }).getByRole('option', { name: /^Frame,/ });
  await expect(frame).not.toHaveAccessibleName(/On a non-workday/);

  // Frame's 4 hours in next week, Stool's 5 in the week after: both against Ivy's 40.
  const week = (start: string) => page.locator(`.pb-capacity__week[data-week-start="${start}"]`);
  await expect(week(monday)).toHaveText('4 / 40 h');
  await expect(week(addDays(monday, 7))).toHaveText('5 / 40 h');
  // Stool's Saturday has nothing available: the week reads as over, and says which day.
  await expect(week(addDays(monday, 7))).toHaveClass(/is-over/);
  await expect(week(addDays(monday, 7))).toHaveAttribute(
    'title',
    new RegExp(`5 h of 40 h planned, over capacity on ${longDate(stoolDay)}`),
  );
});

test('scrolling keeps the week figures it still shows instead of drawing them anew', async ({ page }) => {
  await openBoard(page);
  await page.getByRole('group', { name: 'Zoom' }).getByRole('button', { name: 'Week' }).click();
  await scrollToDay(page, monday);
  const week = page.locator(`.pb-capacity__week[data-week-start="${monday}"]`);
  await expect(week).toHaveText('4 / 40 h');
  // A mark on the element itself: a week drawn anew (a remount) would not carry it.
  await week.evaluate((element) => Object.assign(element, { keptMark: true }));
  // Back two weeks, a day a frame: the strip renders again on the way (it renders whole
  // two-week blocks of days), and next week stays in view.
  await page.locator('.pb-scroller').evaluate(async (scroller) => {
    const dayWidth = parseFloat(getComputedStyle(scroller).getPropertyValue('--day-width'));
    for (let day = 0; day < 14; day++) {
      scroller.scrollLeft -= dayWidth;
      await new Promise((next) => requestAnimationFrame(() => setTimeout(next, 0)));
    }
  });
  await expect(week).toHaveText('4 / 40 h');
  expect(await week.evaluate((element) => (element as HTMLElement & { keptMark?: boolean }).keptMark)).toBe(true);
});

test('at month zoom a stage-week with more than four cards on a day shows "6 cards · 6 h", which lists them and opens one', async ({
  page,
}) => {
  const boardId = await openBoard(page);
  const board = await bridgeApi(page, 'GET', `/v1/board/${boardId}`, undefined, { with: 'stages' });
  const activity = await bridgeApi(page, 'POST', '/v1/activity', { description: 'Fasten', resource_type: 'employee' });
  const wednesday = addDays(monday, 16);
  for (let at = 1; at <= 6; at++) {
    const collection = await bridgeApi(page, 'POST', '/v1/collection', { name: `Bolt ${at}`, board_id: boardId });
    await bridgeApi(page, 'POST', `/v1/collection/${collection.id}/card`, {
      stage_id: board.stages[0].id,
      start_date: wednesday,
      end_date: wednesday,
      activities: [{ id: activity.id, time: 60 }],
    });
  }
  await page.reload();
  const zoom = page.getByRole('group', { name: 'Zoom' });
  await zoom.getByRole('button', { name: 'Month' }).click();

  const aggregate = page.getByRole('button', { name: /^6 cards · 6 h, Assembly/ });
  await expect(aggregate).toHaveText('6 cards · 6 h');
  // Frame's and Stool's weeks have one card each: no aggregate there.
  await expect(page.locator('.pb-dense')).toHaveCount(1);
  await aggregate.click();
  const list = page.getByRole('dialog', { name: /^Assembly/ });
  await expect(list.getByRole('button')).toHaveCount(6);
  await list.getByRole('button', { name: /^Bolt 3/ }).click();
  await expect(list).toBeHidden();
  const panel = page.getByRole('complementary', { name: 'Card details' });
  await expect(panel).toContainText('Collection Bolt 3');

  // Week zoom has room for the cards: no aggregate.
  await zoom.getByRole('button', { name: 'Week' }).click();
  await expect(page.locator('.pb-dense')).toHaveCount(0);
});
