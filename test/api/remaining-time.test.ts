/**
 * Booked and finished work with capacity_method remaining_time (docs/API.md "Schedules and
 * capacity", "Finite-capacity planning"): capacity, a finite plan and a promise date all count a
 * card by what is left of it, and nothing once it is in an exit status; worked out by hand over
 * real HTTP on either engine. Today is Mon 2026-12-07 (the fixed clock).
 *
 * Each board (Mon–Fri) has one stage, Weld, no setup; one person works 8 h (480 min) a day on it,
 * 100 %. Statuses Ready (entry) and Done (exit). Card First, Mon 2026-12-14 … Fri 12-18, 2400
 * minutes: 480 a workday, the week full.
 *
 *   nothing booked     480 a day; a collection of 240 min from Mon 12-14 finds room on Mon 12-21
 *   60 booked          2340 left → 468 a day
 *   600 booked         1800 left → 360 a day, 120 free: 240 min fit Mon 12-14 … Tue 12-15
 *   finished (Done)    0 however little was booked: 240 min fit on Mon 12-14 alone
 *
 * The same board with capacity_method individual counts 2400 whatever is booked or finished:
 * 480 a day and Mon 12-21 throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, draftPromise, fullTime, get, officeWeek, update } from '../helpers/base-data.js';
import { fixTheClock } from '../helpers/test-clock.js';

// Remaining time counts from today on: the suite runs at a fixed day (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
let weld: string;

interface Workshop {
  board: string;
  stage: string;
  done: string;
  collection: string;
  first: string;
}

async function workshop(name: string, capacity_method: string): Promise<Workshop> {
  const board = await create(api, '/v1/board?with=stages,statuses', {
    name,
    workdays: officeWeek,
    capacity_method,
    stages: [{ name: 'Weld', activities: [{ id: weld, priority: 0 }] }],
    statuses: [
      { name: 'Ready', priority: 0, entry: true },
      { name: 'Done', priority: 1, exit: true },
    ],
  });
  const stage = board.stages[0].id as string;
  await create(api, '/v1/resource', {
    name: `${name} welder`,
    workdays: fullTime,
    boards: [{ id: board.id, active: true, stages: [{ id: stage, percentage: 100, active: true }] }],
  });
  const collection = await create(api, '/v1/collection', { name: `${name} first`, board_id: board.id });
  const first = await create(api, `/v1/collection/${collection.id}/card`, {
    stage_id: stage,
    start_date: '2026-12-14',
    end_date: '2026-12-18',
    activities: [{ id: weld, time: 2400 }],
  });
  const done = board.statuses.find((s: any) => s.name === 'Done').id as string;
  return { board: board.id, stage, done, collection: collection.id, first: first.id };
}

/** Books `minutes` on the card, in the past: what is left counts, not when it was booked. */
async function book(shop: Workshop, minutes: number): Promise<void> {
  const start = Date.parse('2026-12-04T08:00:00Z');
  await create(api, '/v1/time_tracking', {
    card_id: shop.first,
    start: new Date(start).toISOString(),
    end: new Date(start + minutes * 60_000).toISOString(),
  });
}

/** Moves the card to the exit status, as the floor's Finish does. */
async function finish(shop: Workshop): Promise<void> {
  const card = await update(api, `/v1/collection/${shop.collection}/card/${shop.first}`, { status_id: shop.done });
  expect(card.completed_at).not.toBeNull();
}

/** The stage's planned minutes Mon 12-14 … Fri 12-18. */
async function plannedWeek(shop: Workshop): Promise<number[]> {
  const body = await get(
    api,
    `/v1/board/${shop.board}/capacity/stage?date_range_start=2026-12-14&date_range_end=2026-12-18&time_frame=day`,
  );
  return body.data.map((d: any) => d.stage[0].time_planned);
}

/** A dry-run finite plan of a new collection of 240 minutes from Mon 12-14: its cards' days. */
async function secondPlan(shop: Workshop): Promise<string[][]> {
  const second = await create(api, '/v1/collection', {
    name: 'Second',
    board_id: shop.board,
    activities: [{ id: weld, time: 240 }],
  });
  const res = await api.inject('POST', `/v1/collection/${second.id}/board/${shop.board}`, {
    start: '2026-12-14',
    capacity: 'finite',
    dry_run: true,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.cards.map((c: any) => [c.start_date, c.end_date]);
}

/** The finite promise of a draft of 240 minutes from Mon 12-14. */
const promise = (shop: Workshop) => draftPromise(api, shop.board, weld, 240, '2026-12-14');

const day = (date: string) => ({ key: 'draft', start: date, end: date });

beforeAll(async () => {
  api = await startTestApi();
  weld = (await create(api, '/v1/activity', { description: 'Weld', resource_type: 'employee' })).id;
});

afterAll(async () => {
  await api.close();
});

describe('remaining_time: booked and finished work', () => {
  it('capacity: a card finished with little booked counts 0 minutes', async () => {
    const shop = await workshop('Strips', 'remaining_time');
    expect(await plannedWeek(shop)).toEqual([480, 480, 480, 480, 480]);
    await book(shop, 60);
    expect(await plannedWeek(shop)).toEqual([468, 468, 468, 468, 468]);
    await finish(shop);
    expect(await plannedWeek(shop)).toEqual([0, 0, 0, 0, 0]);
  });

  it('finite planning: a second collection lands earlier once time is booked, and earlier still once the card is finished', async () => {
    const shop = await workshop('Plans', 'remaining_time');
    expect(await secondPlan(shop)).toEqual([['2026-12-21', '2026-12-21']]);
    await book(shop, 600);
    expect(await secondPlan(shop)).toEqual([['2026-12-14', '2026-12-15']]);
    await finish(shop);
    expect(await secondPlan(shop)).toEqual([['2026-12-14', '2026-12-14']]);
  });

  it('promise dates move earlier likewise', async () => {
    const shop = await workshop('Promises', 'remaining_time');
    expect(await promise(shop)).toEqual(day('2026-12-21'));
    await book(shop, 600);
    expect(await promise(shop)).toEqual({ key: 'draft', start: '2026-12-14', end: '2026-12-15' });
    await finish(shop);
    expect(await promise(shop)).toEqual(day('2026-12-14'));
  });

  it('with the default method, booking and finishing change nothing', async () => {
    const shop = await workshop('Whole', 'individual');
    await book(shop, 600);
    await finish(shop);
    expect(await plannedWeek(shop)).toEqual([480, 480, 480, 480, 480]);
    expect(await secondPlan(shop)).toEqual([['2026-12-21', '2026-12-21']]);
    expect(await promise(shop)).toEqual(day('2026-12-21'));
  });
});
