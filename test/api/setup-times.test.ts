/**
 * Setup times (docs/API.md "Setup times"): a stage's setup_minutes count once per card with
 * work, on its first workday, in capacity, finite planning and promise dates; worked out by
 * hand over real HTTP on either engine. Today is Mon 2026-12-07 (the fixed clock).
 *
 * Board Press (Mon–Fri), stage Print with 30 setup minutes allowing Print; Pia works 8 h
 * (480 min) a day, 100 % on Print. Cards made directly, all assigned to Pia:
 *
 *   Alpha  Mon 2027-03-01            120 min → Mon 120 + 30
 *   Beta   Mon 2027-03-01            90 min  → Mon  90 + 30
 *   Gamma  Tue 03-02 … Thu 03-04     300 min → Tue 100 + 30, Wed 100, Thu 100
 *
 *   Mon 120 + 30 + 90 + 30 = 270 of 480; Tue 130, Wed 100, Thu 100, Fri 0; the week 600.
 *
 * Board Finite (Mon–Fri), stage Print with 30 setup minutes; Finn 480 a day. Old, 300 min on
 * Mon 03-01, takes 330 of it: 150 free on Monday, 480 on the other days.
 *
 *   130 min: 130 + 30 = 160 > 150 on Monday; Tuesday alone holds 130 + 30 → Tue 03-02.
 *   100 min: 100 + 30 = 130 ≤ 150 → Mon 03-01.
 *   Without setup (0): Old takes 300, 180 free; 130 ≤ 180 → Mon 03-01.
 *   Reverse, 130 min to end by Mon 03-01 (not before it): 160 > 150 → 422, earliest end Tue 03-02.
 *
 * Board Reverse (Mon–Fri), stage Print with 30 setup minutes; Rex 480 a day. A card of 100 min on
 * Fri 03-05 takes 130: 350 free on Friday. Reverse, 700 min ending Fri 03-05: Thu–Fri is 350 a
 * day, the setup on Thursday (its first day): Thu 380 ≤ 480, Fri 350 ≤ 350 → Thu 03-04 … Fri
 * 03-05. (Had the setup gone on Friday, 380 > 350, it would have needed Wednesday too.)
 *
 * Board Remaining (remaining_time, Mon–Fri), stage Print with 30 setup minutes:
 *
 *   Early  Thu 2026-12-03 … Tue 12-08  200 min, nothing tracked: from today Mon 12-07 and
 *          Tue 12-08 → 100 each, and the setup on Monday: Mon 130, Tue 100
 *   Late   Mon 2027-03-08               300 min, 60 tracked: 240, set up already → 240
 *   Fresh  Mon 2027-03-08               100 min, nothing tracked → 100 + 30 = 130; Mon 370
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, draftPromise, get, oneStageShop } from '../helpers/base-data.js';
import { fixTheClock } from '../helpers/test-clock.js';

// Remaining time and finite plans depend on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
const ids: Record<string, string> = {};

async function boardWithPress(name: string, person: string, extra: Record<string, unknown> = {}): Promise<void> {
  const shop = await oneStageShop(api, ids.print!, {
    board: { name, ...extra },
    stage: { name: 'Print', setup_minutes: 30 },
    resource: { name: person },
  });
  ids[name] = shop.boardId;
  ids[`${name}.Print`] = shop.stageId;
  ids[person] = shop.resourceId;
}

async function card(board: string, person: string | null, start_date: string, end_date: string, time: number): Promise<string> {
  const collection = await create(api, '/v1/collection', { name: `${board} ${start_date} ${time}`, board_id: ids[board] });
  return (
    await create(api, `/v1/collection/${collection.id}/card`, {
      stage_id: ids[`${board}.Print`],
      start_date,
      end_date,
      activities: [{ id: ids.print, time }],
      ...(person ? { resources: [{ id: ids[person] }] } : {}),
    })
  ).id;
}

async function planned(board: string, view: string, start: string, end: string, frame = 'day'): Promise<any[]> {
  const body = await get(
    api,
    `/v1/board/${ids[board]}/capacity/${view}?date_range_start=${start}&date_range_end=${end}&time_frame=${frame}`,
  );
  return body.data;
}

const promise = (board: string, minutes: number) => draftPromise(api, ids[board]!, ids.print!, minutes, '2027-03-01');

beforeAll(async () => {
  api = await startTestApi();
  ids.print = (await create(api, '/v1/activity', { description: 'Print', resource_type: 'employee' })).id;
  await boardWithPress('Press', 'Pia');
  await card('Press', 'Pia', '2027-03-01', '2027-03-01', 120);
  await card('Press', 'Pia', '2027-03-01', '2027-03-01', 90);
  await card('Press', 'Pia', '2027-03-02', '2027-03-04', 300);
  await boardWithPress('Finite', 'Finn');
  await card('Finite', 'Finn', '2027-03-01', '2027-03-01', 300);
  await boardWithPress('Reverse', 'Rex');
  await card('Reverse', 'Rex', '2027-03-05', '2027-03-05', 100);
  await boardWithPress('Remaining', 'Rita', { capacity_method: 'remaining_time' });
  await card('Remaining', null, '2026-12-03', '2026-12-08', 200);
  const late = await card('Remaining', null, '2027-03-08', '2027-03-08', 300);
  await card('Remaining', null, '2027-03-08', '2027-03-08', 100);
  await create(api, '/v1/time_tracking', { card_id: late, start: '2026-12-01T08:00:00Z', end: '2026-12-01T09:00:00Z' });
});

afterAll(async () => {
  await api.close();
});

describe('setup in capacity', () => {
  it('counts 30 setup minutes once per card, on its first workday', async () => {
    const days = await planned('Press', 'stage', '2027-03-01', '2027-03-05');
    expect(days.map((d) => [d.date, d.stage[0].time_available, d.stage[0].time_planned])).toEqual([
      ['2027-03-01', 480, 270],
      ['2027-03-02', 480, 130],
      ['2027-03-03', 480, 100],
      ['2027-03-04', 480, 100],
      ['2027-03-05', 480, 0],
    ]);
    const week = await planned('Press', 'stage', '2027-03-01', '2027-03-07', 'week');
    expect(week[0].stage[0].time_planned).toBe(600);
  });

  it('counts the setup for the people on the card, and under the first activity’s resource type', async () => {
    const byResource = await planned('Press', 'resource', '2027-03-01', '2027-03-02');
    expect(byResource.map((d) => [d.resource[0].name, d.resource[0].time_planned, d.no_resource.time_planned])).toEqual([
      ['Pia', 270, 0],
      ['Pia', 130, 0],
    ]);
    const byType = await planned('Press', 'resource_type/stage', '2027-03-01', '2027-03-01');
    expect(byType[0].stage[0].resource_type.map((t: any) => [t.type, t.time_planned])).toEqual([
      ['machine', 0],
      ['cell', 0],
      ['employee', 270],
    ]);
  });

  it('with remaining_time, counts setup from today on and only while nothing is tracked', async () => {
    const now = await planned('Remaining', 'stage', '2026-12-07', '2026-12-08');
    expect(now.map((d) => d.stage[0].time_planned)).toEqual([130, 100]);
    const later = await planned('Remaining', 'stage', '2027-03-08', '2027-03-08');
    expect(later[0].stage[0].time_planned).toBe(240 + 130);
  });
});

describe('setup in finite planning and promise dates', () => {
  it('starts from Old with its setup: 330 of 480 on Monday', async () => {
    const days = await planned('Finite', 'stage', '2027-03-01', '2027-03-02');
    expect(days.map((d) => d.stage[0].time_planned)).toEqual([330, 0]);
  });

  it('promises the day where work and setup fit', async () => {
    expect(await promise('Finite', 130)).toEqual({ key: 'draft', start: '2027-03-02', end: '2027-03-02' });
    expect(await promise('Finite', 100)).toEqual({ key: 'draft', start: '2027-03-01', end: '2027-03-01' });
    await api.inject('PUT', `/v1/stage/${ids['Finite.Print']}`, { setup_minutes: 0 });
    try {
      expect(await promise('Finite', 130)).toEqual({ key: 'draft', start: '2027-03-01', end: '2027-03-01' });
    } finally {
      expect((await api.inject('PUT', `/v1/stage/${ids['Finite.Print']}`, { setup_minutes: 30 })).status).toBe(200);
    }
  });

  it('moves a card to the next day when work and setup do not fit, and counts both there', async () => {
    const collection = await create(api, '/v1/collection', {
      name: 'New',
      board_id: ids.Finite,
      activities: [{ id: ids.print, time: 130 }],
    });
    const url = `/v1/collection/${collection.id}/board/${ids.Finite}`;
    const dry = await api.inject('POST', url, { start: '2027-03-01', capacity: 'finite', dry_run: true });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.cards.map((c: any) => [c.start_date, c.end_date])).toEqual([['2027-03-02', '2027-03-02']]);
    expect(dry.body.added_load).toEqual([{ stage_id: ids['Finite.Print'], date: '2027-03-02', minutes: 160 }]);

    const res = await api.inject('POST', url, { start: '2027-03-01', capacity: 'finite' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const days = await planned('Finite', 'stage', '2027-03-01', '2027-03-02');
    expect(days.map((d) => d.stage[0].time_planned)).toEqual([330, 160]);
  });

  it('planning in reverse, needs room for the setup on the first day', async () => {
    const late = await create(api, '/v1/collection', { name: 'Late', board_id: ids.Finite, activities: [{ id: ids.print, time: 130 }] });
    const res = await api.inject('POST', `/v1/collection/${late.id}/board/${ids.Finite}`, {
      start: '2027-03-01',
      end: '2027-03-01',
      reverse: true,
      capacity: 'finite',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ field: 'end', earliest_end: '2027-03-02' });

    const collection = await create(api, '/v1/collection', {
      name: 'Back',
      board_id: ids.Reverse,
      activities: [{ id: ids.print, time: 700 }],
    });
    const dry = await api.inject('POST', `/v1/collection/${collection.id}/board/${ids.Reverse}`, {
      start: '2027-03-01',
      end: '2027-03-05',
      reverse: true,
      capacity: 'finite',
      dry_run: true,
    });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body.cards.map((c: any) => [c.start_date, c.end_date])).toEqual([['2027-03-04', '2027-03-05']]);
    expect(dry.body.added_load).toEqual([
      { stage_id: ids['Reverse.Print'], date: '2027-03-04', minutes: 380 },
      { stage_id: ids['Reverse.Print'], date: '2027-03-05', minutes: 350 },
    ]);
  });
});

describe('setup_minutes as a field', () => {
  it('refuses a negative or fractional number with a 422 and writes nothing', async () => {
    const stagePath = `/v1/stage/${ids['Press.Print']}`;
    for (const bad of [-5, 12.5, '30']) {
      const res = await api.inject('PUT', stagePath, { setup_minutes: bad, name: 'Renamed' });
      expect(res.status, JSON.stringify(res.body)).toBe(422);
      expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['setup_minutes']);
    }
    const stage = await get(api, stagePath);
    expect([stage.name, stage.setup_minutes]).toEqual(['Print', 30]);

    const counts = async () => [(await get(api, '/v1/board?limit=0')).count, (await get(api, '/v1/stage?limit=0')).count];
    const before = await counts();
    const res = await api.inject('POST', '/v1/board', {
      name: 'Bad',
      stages: [
        { name: 'Fold', priority: 0 },
        { name: 'Print', priority: 1, setup_minutes: -1 },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(['stages.1.setup_minutes']);
    expect(await counts()).toEqual(before);
  });

  it('keeps setup_minutes of stages written inline with their board, 0 when not given', async () => {
    const board = await create(api, '/v1/board?with=stages', {
      name: 'Inline',
      stages: [
        { name: 'Print', priority: 0, setup_minutes: 45 },
        { name: 'Fold', priority: 1 },
      ],
    });
    expect(board.stages.map((s: any) => [s.name, s.setup_minutes])).toEqual([
      ['Print', 45],
      ['Fold', 0],
    ]);
    const put = await api.inject('PUT', `/v1/board/${board.id}?with=stages`, {
      name: 'Inline',
      stages: board.stages.map((s: any) => ({ id: s.id, name: s.name, priority: s.priority, setup_minutes: s.name === 'Fold' ? 15 : 45 })),
    });
    expect(put.status, JSON.stringify(put.body)).toBe(200);
    const read = await get(api, `/v1/board/${board.id}?with=stages`);
    expect(read.stages.map((s: any) => [s.name, s.setup_minutes]).sort()).toEqual([
      ['Fold', 15],
      ['Print', 45],
    ]);
  });
});
