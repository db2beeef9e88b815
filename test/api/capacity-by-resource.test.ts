/**
 * Capacity by resource counts a person once, however many stages they work on (docs/API.md
 * "Schedules and capacity"), over real HTTP, worked out by hand.
 *
 * Board Shop (Mon–Fri), stages Saw and Drill (efficiency 100). Mon 2026-09-28:
 *
 *   Pia    8 h Mon–Fri (480 a day); Saw 50 %, Drill 100 %: 150 % of her, scaled to 100 %
 *          (Saw 1/3, Drill 2/3), so she counts 480 once, not 240 + 480 = 720
 *   Quinn  8 h Mon–Fri; Drill 100 %
 *   a card on Saw,   Mon, 120 minutes, Pia            → Pia 120
 *   a card on Drill, Mon, 300 minutes, Pia and Quinn  → Pia 150, Quinn 150
 *
 * By resource on Monday: Pia 480 available, 270 planned; Quinn 480, 150.
 * By stage the links keep their own percentages: Saw 240; Drill 480 + 480 = 960. The cards'
 * activity is a machine's, so by resource type their minutes count for machines.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, fullTime, get, officeWeek } from '../helpers/base-data.js';

let api: TestApi;
let board: any;
let saw: string;
let drill: string;
let pia: string;
let quinn: string;
const monday = 'date_range_start=2026-09-28&date_range_end=2026-09-28&time_frame=day';

beforeAll(async () => {
  api = await startTestApi();
  board = await create(api, '/v1/board?with=stages', {
    name: 'Shop',
    workdays: officeWeek,
    stages: [
      { name: 'Saw', priority: 0, efficiency: 100 },
      { name: 'Drill', priority: 1, efficiency: 100 },
    ],
  });
  [saw, drill] = board.stages.map((s: any) => s.id);
  await create(api, `/v1/board/${board.id}/status`, { name: 'Ready', priority: 0, entry: true, exit: false });
  pia = (
    await create(api, '/v1/resource', {
      name: 'Pia',
      workdays: fullTime,
      boards: [
        {
          id: board.id,
          stages: [
            { id: saw, percentage: 50 },
            { id: drill, percentage: 100 },
          ],
        },
      ],
    })
  ).id;
  quinn = (
    await create(api, '/v1/resource', {
      name: 'Quinn',
      workdays: fullTime,
      boards: [{ id: board.id, stages: [{ id: drill, percentage: 100 }] }],
    })
  ).id;
  const activity = await create(api, '/v1/activity', { description: 'Machining', resource_type: 'machine' });
  const collection = await create(api, '/v1/collection', { name: 'Shop order', board_id: board.id });
  const card = (stage: string, minutes: number, resources: string[]) =>
    create(api, `/v1/collection/${collection.id}/card`, {
      stage_id: stage,
      start_date: '2026-09-28',
      end_date: '2026-09-28',
      activities: [{ id: activity.id, time: minutes }],
      resources: resources.map((id) => ({ id })),
    });
  await card(saw, 120, [pia]);
  await card(drill, 300, [pia, quinn]);
});
afterAll(async () => {
  await api.close();
});

function figures(body: any, list: 'resource' | 'stage' | 'group'): Record<string, [number, number]> {
  return Object.fromEntries(body.data[0][list].map((r: any) => [r.name, [r.time_available, r.time_planned]]));
}

describe('capacity by resource (GET /v1/board/{id}/capacity/resource)', () => {
  it("counts a person on two stages once: her day's minutes, and every card's share of her", async () => {
    const body = await get(api, `/v1/board/${board.id}/capacity/resource?${monday}`);
    expect(figures(body, 'resource')).toEqual({ Pia: [480, 270 /* 120 + 300 / 2 */], Quinn: [480, 150] });
  });

  it('keeps the percentages per stage in the stage view', async () => {
    const body = await get(api, `/v1/board/${board.id}/capacity/stage?${monday}`);
    expect(figures(body, 'stage')).toEqual({ Saw: [240, 120], Drill: [960, 300] });
  });

  it("counts the cards' minutes by their activity's resource type", async () => {
    const body = await get(api, `/v1/board/${board.id}/capacity/resource_type/stage?${monday}`);
    const planned = Object.fromEntries(
      body.data[0].stage.map((s: any) => [s.name, Object.fromEntries(s.resource_type.map((t: any) => [t.type, t.time_planned]))]),
    );
    expect(planned).toEqual({ Saw: { machine: 120, cell: 0, employee: 0 }, Drill: { machine: 300, cell: 0, employee: 0 } });
  });

  it("with stage_id counts the stage's part of her once-counted day", async () => {
    // Saw is 50 of Pia's 150 %: 480 × 1/3 = 160.
    const body = await get(api, `/v1/board/${board.id}/capacity/resource?${monday}&stage_id=${saw}`);
    expect(figures(body, 'resource').Pia![0]).toBe(160);
  });

  it('counts her once in a group too', async () => {
    await create(api, '/v1/group', { name: 'Shop floor', resources: [{ id: pia }, { id: quinn }] });
    const body = await get(api, `/v1/board/${board.id}/capacity/group?${monday}`);
    expect(figures(body, 'group')['Shop floor']).toEqual([960, 420]);
  });

  it('answers the minutes nobody is assigned to apart, so people and no one add up to the stages', async () => {
    // A third card, on Drill, 90 minutes, with nobody: no person's figure moves.
    const activity = await create(api, '/v1/activity', { description: 'Deburring', resource_type: 'employee' });
    const collection = await create(api, '/v1/collection', { name: 'Loose work', board_id: board.id });
    await create(api, `/v1/collection/${collection.id}/card`, {
      stage_id: drill,
      start_date: '2026-09-28',
      end_date: '2026-09-28',
      activities: [{ id: activity.id, time: 90 }],
    });
    const body = await get(api, `/v1/board/${board.id}/capacity/resource?${monday}`);
    expect(figures(body, 'resource')).toEqual({ Pia: [480, 270], Quinn: [480, 150] });
    expect(body.data[0].no_resource).toEqual({ time_planned: 90 });
    const stages = await get(api, `/v1/board/${board.id}/capacity/stage?${monday}`);
    const byStage = stages.data[0].stage.reduce((sum: number, s: any) => sum + s.time_planned, 0);
    expect(270 + 150 + 90).toBe(byStage);
  });
});
