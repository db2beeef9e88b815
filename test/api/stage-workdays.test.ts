/**
 * A stage's workdays (docs/API.md "A stage's workdays", docs/decisions/shifts.md): on a board
 * that does not work Saturdays, a stage whose press works Saturdays (a second shift) plans, counts
 * and shows its cards on Saturday; the board's other stages do not. Overtime on a Saturday adds
 * that one Saturday for its stage. Worked out by hand over real HTTP on either engine. Today is
 * Mon 2026-12-07 (the fixed clock); the plans are in the week of Mon 2027-01-04.
 *
 * Board Shop (Mon–Fri), independent stages Cut (the saw Saw, 8 h Mon–Fri), Press (the press
 * Duo, 8 h Mon–Fri and a second shift of 6 h on Saturday) and Pack (Hans, 8 h Mon–Fri, with
 * 240 min of overtime on Sat 2027-01-16).
 *
 *   capacity Mon 01-04 … Sun 01-10   Cut 480 × 5, 0, 0   Press 480 × 5, 360, 0
 *   capacity Sat 01-16               Pack 240 (its overtime), Cut 0, Press 360
 *   1,000 min finite from Thu 01-07  Press: Thu–Sat (3 days of 333⅓ ≤ 360 on Saturday)
 *                                    Cut: Thu, Fri, Mon 01-11 (Saturday is not Cut's)
 *   1,000 min infinite from Thu      Press: 480 + 480 + 360 → Thu–Sat; Cut: Thu–Mon
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, fullTime, get, officeWeek } from '../helpers/base-data.js';
import { fixTheClock } from '../helpers/test-clock.js';

// Promise dates and plans count from today when not told a start: a fixed day all the same.
fixTheClock();

let api: TestApi;
const ids: Record<string, string> = {};
const saturdayShift = { '1': null, '2': null, '3': null, '4': null, '5': null, '6': 6, '7': null };

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await api.http(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

async function resource(name: string, stage: string, extra: Record<string, unknown> = {}): Promise<void> {
  ids[name] = (
    await create(api, '/v1/resource', {
      name,
      type: 'machine',
      workdays: fullTime,
      ...extra,
      boards: [{ id: ids.Shop, active: true, stages: [{ id: ids[stage], percentage: 100, active: true }] }],
    })
  ).id;
}

async function collection(name: string, activity: string): Promise<string> {
  return (await create(api, '/v1/collection', { name, board_id: ids.Shop, activities: [{ id: ids[activity], time: 1000 }] })).id;
}

/** The dates of the cards a plan of the collection makes (dry run or not). */
async function plan(collectionId: string, body: Record<string, unknown>): Promise<any> {
  return ok('POST', `/v1/collection/${collectionId}/board/${ids.Shop}`, { start: '2027-01-07', ...body });
}

const spans = (cards: any[]) => cards.map((c) => [c.start_date, c.end_date]);

async function stageCapacity(from: string, to: string): Promise<Record<string, number[]>> {
  const body = await get(api, `/v1/board/${ids.Shop}/capacity/stage?date_range_start=${from}&date_range_end=${to}&time_frame=day`);
  const out: Record<string, number[]> = {};
  for (const day of body.data) for (const s of day.stage) (out[s.name] ??= []).push(s.time_available);
  return out;
}

beforeAll(async () => {
  api = await startTestApi();
  for (const name of ['Cut', 'Press', 'Pack']) {
    ids[`act.${name}`] = (await create(api, '/v1/activity', { description: name, resource_type: 'machine' })).id;
  }
  const board = await create(api, '/v1/board?with=stages', {
    name: 'Shop',
    workdays: officeWeek,
    stages: ['Cut', 'Press', 'Pack'].map((name, i) => ({
      name,
      independent: true,
      activities: [{ id: ids[`act.${name}`], priority: 0 }],
      priority: i,
    })),
  });
  ids.Shop = board.id;
  for (const stage of board.stages) ids[stage.name] = stage.id;
  await create(api, `/v1/board/${ids.Shop}/status`, { name: 'Ready', priority: 0, entry: true, exit: false });
  await resource('Saw', 'Cut');
  await resource('Duo', 'Press', { second_shift: saturdayShift });
  await resource('Hans', 'Pack');
  await ok('POST', `/v1/resource/${ids.Hans}/schedule_deviation`, {
    type: 'overtime',
    start_date: '2027-01-16',
    end_date: '2027-01-16',
    time: 240,
  });
});

afterAll(async () => {
  await api.close();
});

describe("a stage's workdays", () => {
  it('count the Saturday in the capacity of the stage whose press works it, and of no other', async () => {
    expect(await stageCapacity('2027-01-04', '2027-01-10')).toEqual({
      Cut: [480, 480, 480, 480, 480, 0, 0],
      Press: [480, 480, 480, 480, 480, 360, 0],
      Pack: [480, 480, 480, 480, 480, 0, 0],
    });
  });

  it('count a Saturday of overtime for its stage only, that Saturday only', async () => {
    expect(await stageCapacity('2027-01-16', '2027-01-16')).toEqual({ Cut: [0], Press: [360], Pack: [240] });
    expect((await stageCapacity('2027-01-23', '2027-01-23')).Pack).toEqual([0]);
  });

  it('plan a finite card onto the Saturday for that stage, and past it for the others', async () => {
    const press = await plan(await collection('Press run', 'act.Press'), { capacity: 'finite' });
    expect(spans(press.cards)).toEqual([['2027-01-07', '2027-01-09']]);
    const cut = await plan(await collection('Cut run', 'act.Cut'), { capacity: 'finite' });
    expect(spans(cut.cards)).toEqual([['2027-01-07', '2027-01-11']]);
    // Card lengths count the stage's own workdays: three each, the Saturday for Press only.
    const cards = await get(api, `/v1/card?filter=board_id:eq:${ids.Shop}&limit=100`);
    const activeDays = Object.fromEntries(cards.data.map((c: any) => [c.end_date, c.days_active]));
    expect(activeDays).toEqual({ '2027-01-09': 3, '2027-01-11': 3 });
  });

  it('plan infinite cards and dry runs by the same days, the added load on the Saturday too', async () => {
    const press = await plan(await collection('Press dry', 'act.Press'), { dry_run: true, resources: [ids.Duo] });
    expect(spans(press.cards)).toEqual([['2027-01-07', '2027-01-09']]);
    expect(press.added_load.map((l: any) => [l.date, Math.round(l.minutes)])).toEqual([
      ['2027-01-07', 333],
      ['2027-01-08', 333],
      ['2027-01-09', 333],
    ]);
    const cut = await plan(await collection('Cut dry', 'act.Cut'), { dry_run: true, resources: [ids.Saw] });
    expect(spans(cut.cards)).toEqual([['2027-01-07', '2027-01-11']]);
  });

  it('make promise dates on the Saturday for that stage', async () => {
    const body = await ok('POST', `/v1/board/${ids.Shop}/promise_dates`, {
      start: '2027-01-14',
      capacity: 'infinite',
      drafts: [
        { key: 'press', rows: [{ activity_id: ids['act.Press'], duration: 1000 }] },
        { key: 'cut', rows: [{ activity_id: ids['act.Cut'], duration: 1000 }] },
      ],
    });
    // Without resources a workday gives 480: 1,000 min take three of the stage's workdays.
    expect(body.data).toEqual([
      { key: 'press', start: '2027-01-14', end: '2027-01-16' },
      { key: 'cut', start: '2027-01-14', end: '2027-01-18' },
    ]);
  });

  it('count a card moved onto the Saturday as a workday for that stage only', async () => {
    const press = await get(api, `/v1/card?filter=stage_id:eq:${ids.Press}&limit=10`);
    const moved = await ok('PUT', `/v1/collection/${press.data[0].collection_id}/card/${press.data[0].id}`, {
      start_date: '2027-01-09',
      end_date: '2027-01-09',
    });
    expect(moved.days_active).toBe(1);
    const cut = await get(api, `/v1/card?filter=stage_id:eq:${ids.Cut}&limit=10`);
    const stays = await ok('PUT', `/v1/collection/${cut.data[0].collection_id}/card/${cut.data[0].id}`, {
      start_date: '2027-01-09',
      end_date: '2027-01-09',
    });
    expect(stays.days_active).toBe(0);
  });

  it('are listed per stage for the planboard, only the days the board does not work', async () => {
    const body = await get(api, `/v1/board/${ids.Shop}/stage_workdays?date_range_start=2027-01-04&date_range_end=2027-01-17`);
    expect(body.data).toEqual([
      { stage_id: ids.Press, dates: ['2027-01-09', '2027-01-16'] },
      { stage_id: ids.Pack, dates: ['2027-01-16'] },
    ]);
    const bad = await api.http('GET', `/v1/board/${ids.Shop}/stage_workdays?date_range_start=2027-1-4`);
    expect(bad.status).toBe(400);
    expect(JSON.stringify(bad.body)).toContain('date_range_start');
  });
});
