/**
 * Second shifts (docs/API.md "Schedules and capacity", docs/decisions/shifts.md): a resource's
 * `second_shift`, hours per weekday added to its workdays, counts in its schedule, the board's
 * capacity, finite planning and promise dates; worked out by hand over real HTTP on either
 * engine. Today is Mon 2026-12-07 (the fixed clock); the plans are in the week of Mon 2027-03-01.
 *
 * Board Press (Mon–Fri), stage Print allowing Print. The press Duo runs 8 h (480 min) Mon–Fri
 * and a second shift of 8 h Mon–Fri and 6 h on Saturday: 960 a workday, 360 on Saturday, 0 on
 * Sunday. Board Single (Mon–Fri), the same stage, its press Uno without a second shift: 480.
 *
 *   schedule Mon 03-01 … Sun 03-07   Duo: 960 × 5, 360, 0 (scheduled = available)
 *   capacity Press, Mon … Fri        960 a day
 *   a draft of 1,440 min, finite     Press: Mon–Tue (720 ≤ 960 a day); Single: Mon–Wed (480 a day)
 *   a collection of 1,920 min        Press: planned Mon–Tue (960 a day)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, draftPromise, get, oneStageShop } from '../helpers/base-data.js';
import { fixTheClock } from '../helpers/test-clock.js';

// Promise dates count from today: they run at a fixed day (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
const ids: Record<string, string> = {};
const eightAndSaturday = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': 6, '7': null };

async function board(name: string, press: string, second_shift: Record<string, number | null> | null): Promise<void> {
  const shop = await oneStageShop(api, ids.print!, {
    board: { name },
    stage: { name: 'Print' },
    resource: { name: press, type: 'machine', ...(second_shift ? { second_shift } : {}) },
  });
  ids[name] = shop.boardId;
  ids[press] = shop.resourceId;
}

const promise = (name: string, minutes: number) => draftPromise(api, ids[name]!, ids.print!, minutes, '2027-03-01');

beforeAll(async () => {
  api = await startTestApi();
  ids.print = (await create(api, '/v1/activity', { description: 'Print', resource_type: 'machine' })).id;
  await board('Press', 'Duo', eightAndSaturday);
  await board('Single', 'Uno', null);
});

afterAll(async () => {
  await api.close();
});

describe('a second shift', () => {
  it('is stored, read back and null without one', async () => {
    expect((await get(api, `/v1/resource/${ids.Duo}`)).second_shift).toEqual(eightAndSaturday);
    expect((await get(api, `/v1/resource/${ids.Uno}`)).second_shift).toBeNull();
  });

  it('adds its hours to the schedule, on a Saturday the resource does not otherwise work too', async () => {
    const res = await get(api, `/v1/resource/${ids.Duo}/schedule?filter=date:gte:2027-03-01,and,date:lte:2027-03-07`);
    expect(res.data.map((d: any) => [d.date, d.scheduled, d.deviation, d.overtime, d.available])).toEqual([
      ['2027-03-01', 960, 0, 0, 960],
      ['2027-03-02', 960, 0, 0, 960],
      ['2027-03-03', 960, 0, 0, 960],
      ['2027-03-04', 960, 0, 0, 960],
      ['2027-03-05', 960, 0, 0, 960],
      ['2027-03-06', 360, 0, 0, 360],
      ['2027-03-07', 0, 0, 0, 0],
    ]);
  });

  it('counts in the board capacity', async () => {
    const body = await get(
      api,
      `/v1/board/${ids.Press}/capacity/stage?date_range_start=2027-03-01&date_range_end=2027-03-05&time_frame=day`,
    );
    expect(body.data.map((d: any) => d.stage[0].time_available)).toEqual([960, 960, 960, 960, 960]);
  });

  it('makes promise dates and finite plans earlier', async () => {
    expect(await promise('Press', 1440)).toEqual({ key: 'draft', start: '2027-03-01', end: '2027-03-02' });
    expect(await promise('Single', 1440)).toEqual({ key: 'draft', start: '2027-03-01', end: '2027-03-03' });
    const collection = await create(api, '/v1/collection', {
      name: 'Run',
      board_id: ids.Press,
      activities: [{ id: ids.print, time: 1920 }],
    });
    const res = await api.http('POST', `/v1/collection/${collection.id}/board/${ids.Press}`, { start: '2027-03-01', capacity: 'finite' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.cards.map((c: any) => [c.start_date, c.end_date])).toEqual([['2027-03-01', '2027-03-02']]);
  });

  it('counts a day at most 24 hours, and goes back to one shift with null', async () => {
    const both = { '1': 16, '2': 16, '3': 16, '4': 16, '5': 16, '6': null, '7': null };
    const made = await create(api, '/v1/resource', { name: 'Long', workdays: both, second_shift: both });
    const days = async () =>
      (await get(api, `/v1/resource/${made.id}/schedule?filter=date:gte:2027-03-01,and,date:lte:2027-03-01`)).data.map(
        (d: any) => d.scheduled,
      );
    expect(await days()).toEqual([1440]);
    const res = await api.http('PUT', `/v1/resource/${made.id}`, { second_shift: null });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await days()).toEqual([960]);
  });

  it('refuses hours that are not a day’s with a 422 naming second_shift, and writes nothing', async () => {
    for (const second_shift of [{ ...eightAndSaturday, '6': 25 }, { '1': 8 }, [8, 8]]) {
      const res = await api.http('PUT', `/v1/resource/${ids.Duo}`, { second_shift });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.errors.map((e: any) => e.field)).toEqual(['second_shift']);
    }
    expect((await get(api, `/v1/resource/${ids.Duo}`)).second_shift).toEqual(eightAndSaturday);
  });
});
