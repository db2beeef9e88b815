/**
 * A card on a board's non-workdays still counts in the board's capacity (docs/API.md
 * "Schedules and capacity"), worked out by hand over real HTTP.
 *
 * Board Weekdays (Mon–Fri), stage Line; Ivy works Mon–Fri 8 h on Line at 100 %. The week under
 * test is Mon 2026-09-28 … Sun 2026-10-04. Cards on Line, each with one activity:
 *
 *   Saturday   Sat 10-03            300 min  no workday: all 300 on Saturday
 *   Weekend    Sat 10-03 … Sun 10-04 240 min  no workday: 120 on each of its own two days
 *   Friday     Fri 10-02 … Sat 10-03 180 min  one workday (Friday): all 180 on Friday
 *   Across     Fri 09-25 … Mon 09-28 200 min  the weekend in the middle is skipped: 100 on
 *                                            Fri 09-25 (outside the range) and 100 on Monday
 *
 * Per day planned: Mon 100, Fri 180, Sat 300 + 120 = 420, Sun 120, the rest 0: 820 in the week.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, get, officeWeek } from '../helpers/base-data.js';

let api: TestApi;
let board: any;
const week = 'date_range_start=2026-09-28&date_range_end=2026-10-04';

beforeAll(async () => {
  api = await startTestApi();
  board = await create(api, '/v1/board?with=stages', { name: 'Weekdays', workdays: officeWeek, stages: [{ name: 'Line' }] });
  await create(api, `/v1/board/${board.id}/status`, { name: 'Ready', priority: 0, entry: true, exit: false });
  const line = board.stages[0].id;
  const ivy = (await create(api, '/v1/resource', { name: 'Ivy', boards: [{ id: board.id, stages: [{ id: line, percentage: 100 }] }] })).id;
  const activity = await create(api, '/v1/activity', { description: 'Assemble', resource_type: 'employee' });
  const collection = await create(api, '/v1/collection', { name: 'Weekend order', board_id: board.id });
  const cards: [string, string, number][] = [
    ['2026-10-03', '2026-10-03', 300],
    ['2026-10-03', '2026-10-04', 240],
    ['2026-10-02', '2026-10-03', 180],
    ['2026-09-25', '2026-09-28', 200],
  ];
  for (const [start_date, end_date, time] of cards) {
    await create(api, `/v1/collection/${collection.id}/card`, {
      stage_id: line,
      start_date,
      end_date,
      activities: [{ id: activity.id, time }],
      resources: [{ id: ivy }],
    });
  }
});

afterAll(async () => {
  await api.close();
});

async function capacity(view: string, query: string): Promise<any> {
  return get(api, `/v1/board/${board.id}/capacity/${view}?${query}`);
}

describe('capacity of cards on non-workdays', () => {
  it('counts a card with no workday on its own days, and a card with a workday on its workdays only', async () => {
    const body = await capacity('stage', `${week}&time_frame=day`);
    expect(body.data.map((d: any) => [d.date, d.stage[0].time_available, d.stage[0].time_planned])).toEqual([
      ['2026-09-28', 480, 100],
      ['2026-09-29', 480, 0],
      ['2026-09-30', 480, 0],
      ['2026-10-01', 480, 0],
      ['2026-10-02', 480, 180],
      ['2026-10-03', 0, 420],
      ['2026-10-04', 0, 120],
    ]);
  });

  it('keeps those minutes in the week bucket and in the resource view', async () => {
    const byStage = await capacity('stage', `${week}&time_frame=week`);
    expect([byStage.data[0].stage[0].time_available, byStage.data[0].stage[0].time_planned]).toEqual([2400, 820]);
    const byResource = await capacity('resource', `${week}&time_frame=week`);
    expect(byResource.data[0].resource.map((r: any) => [r.name, r.time_planned])).toEqual([['Ivy', 820]]);
  });
});
