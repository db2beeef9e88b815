/**
 * Schedules and board capacity over real HTTP, worked out by hand.
 *
 * A resource's schedule (electron/api/planning/schedule.ts), minutes per day:
 *   scheduled = workdays[weekday] hours × 60, 0 outside start_date…end_date or when null
 *   deviation = scheduled for a whole-day deviation (time null), else the sum of the
 *               deviations' minutes, never more than scheduled
 *   available = scheduled − deviation
 *
 * A board's capacity (electron/api/planning/capacity.ts), minutes per bucket:
 *   Σ over the bucket's board workdays of available × percentage/100 × efficiency/100,
 *   for active board entries and active stage links, rounded at the end of the bucket;
 *   0 for capacity_method none. Planned minutes are 0: there are no cards.
 *
 * The fixture — the week under test is Mon 2026-09-28 … Sun 2026-10-04, across a month end:
 *
 *   board Workshop  Mon–Fri; stages Cutting (efficiency 100), Welding (80), Painting (100)
 *   board Weekend   Mon–Sat; stage Shift (100)
 *   board Idle      capacity_method none; stage Idle (100)
 *   board Rounding  Mon–Fri; stage Only (100)
 *
 *   Anna  employee  Mon 8 Tue 8 Wed 8 Thu 4 Fri – Sat 3 Sun –   (part-time, works Saturday)
 *                   Workshop: Cutting 50 %, Welding 50 %; Weekend: Shift 100 %; Idle: Idle 100 %
 *                   holiday Wed 09-30 (whole day), partial Thu 10-01 (120 min)
 *   Ben   machine   Mon–Fri 8, in service 2026-09-30 … 2026-10-02
 *                   Workshop: Cutting 100 %
 *   Cara  cell      Mon–Fri 7.5
 *                   Workshop: Welding 100 %, Painting 100 % but that link inactive
 *                   Tue 09-29: 60 + 30 min; Fri 10-02: 600 min (more than her 450)
 *   Dan   employee  Mon–Fri 8; Workshop entry inactive (Cutting 100 %)
 *   Eve   employee  Mon–Fri 8; Workshop Cutting 100 %; archived
 *   Hugo  employee  Mon–Fri 7.3 (438 min); Rounding: Only 33 %
 *
 *   groups: Team A = Anna, Ben; Team B = Cara; Both = Anna, Cara; Empty = nobody
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addDays, bucketStart, today } from '../../shared/dates.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest } from '../helpers/api-errors.js';
import { create, expectNotFound, get, ids, officeWeek, unknownId, update } from '../helpers/base-data.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
const board: Record<'workshop' | 'weekend' | 'idle' | 'rounding', any> = {} as never;
const stage: Record<'cutting' | 'welding' | 'painting' | 'shift' | 'idle' | 'only', string> = {} as never;
const res: Record<'anna' | 'ben' | 'cara' | 'dan' | 'eve' | 'hugo', string> = {} as never;
const dev: Record<'annaHoliday' | 'annaPartial' | 'caraLeave' | 'caraOther' | 'caraLong', string> = {} as never;
const group: Record<'teamA' | 'teamB' | 'both' | 'empty', string> = {} as never;

beforeAll(async () => {
  api = await startTestApi();
  board.workshop = await create(api, '/v1/board?with=stages', {
    name: 'Workshop',
    workdays: officeWeek,
    stages: [
      { name: 'Cutting', priority: 0, efficiency: 100 },
      { name: 'Welding', priority: 1, efficiency: 80 },
      { name: 'Painting', priority: 2, efficiency: 100 },
    ],
  });
  [stage.cutting, stage.welding, stage.painting] = ids(board.workshop.stages) as [string, string, string];
  board.weekend = await create(api, '/v1/board?with=stages', {
    name: 'Weekend',
    workdays: { ...officeWeek, '6': true },
    stages: [{ name: 'Shift' }],
  });
  stage.shift = board.weekend.stages[0].id;
  board.idle = await create(api, '/v1/board?with=stages', { name: 'Idle', capacity_method: 'none', stages: [{ name: 'Idle' }] });
  stage.idle = board.idle.stages[0].id;
  board.rounding = await create(api, '/v1/board?with=stages', { name: 'Rounding', stages: [{ name: 'Only' }] });
  stage.only = board.rounding.stages[0].id;

  res.anna = (
    await create(api, '/v1/resource', {
      name: 'Anna',
      type: 'employee',
      workdays: { '1': 8, '2': 8, '3': 8, '4': 4, '5': null, '6': 3, '7': null },
      boards: [
        {
          id: board.workshop.id,
          stages: [
            { id: stage.cutting, percentage: 50 },
            { id: stage.welding, percentage: 50 },
          ],
        },
        { id: board.weekend.id, stages: [{ id: stage.shift, percentage: 100 }] },
        { id: board.idle.id, stages: [{ id: stage.idle, percentage: 100 }] },
      ],
    })
  ).id;
  res.ben = (
    await create(api, '/v1/resource', {
      name: 'Ben',
      type: 'machine',
      start_date: '2026-09-30',
      end_date: '2026-10-02',
      boards: [{ id: board.workshop.id, stages: [{ id: stage.cutting, percentage: 100 }] }],
    })
  ).id;
  res.cara = (
    await create(api, '/v1/resource', {
      name: 'Cara',
      type: 'cell',
      workdays: { '1': 7.5, '2': 7.5, '3': 7.5, '4': 7.5, '5': 7.5, '6': null, '7': null },
      boards: [
        {
          id: board.workshop.id,
          stages: [
            { id: stage.welding, percentage: 100 },
            { id: stage.painting, percentage: 100, active: false },
          ],
        },
      ],
    })
  ).id;
  res.dan = (
    await create(api, '/v1/resource', {
      name: 'Dan',
      boards: [{ id: board.workshop.id, active: false, stages: [{ id: stage.cutting, percentage: 100 }] }],
    })
  ).id;
  res.eve = (
    await create(api, '/v1/resource', {
      name: 'Eve',
      boards: [{ id: board.workshop.id, stages: [{ id: stage.cutting, percentage: 100 }] }],
    })
  ).id;
  await update(api, `/v1/resource/${res.eve}`, { archived_at: '2026-01-01T00:00:00Z' });
  res.hugo = (
    await create(api, '/v1/resource', {
      name: 'Hugo',
      workdays: { '1': 7.3, '2': 7.3, '3': 7.3, '4': 7.3, '5': 7.3, '6': null, '7': null },
      boards: [{ id: board.rounding.id, stages: [{ id: stage.only, percentage: 33 }] }],
    })
  ).id;

  const deviation = async (resource: string, body: Record<string, unknown>) =>
    (await create(api, `/v1/resource/${resource}/schedule_deviation`, body)).id as string;
  dev.annaHoliday = await deviation(res.anna, { type: 'holiday', start_date: '2026-09-30', end_date: '2026-09-30', time: null });
  dev.annaPartial = await deviation(res.anna, { type: 'leave', start_date: '2026-10-01', end_date: '2026-10-01', time: 120 });
  dev.caraLeave = await deviation(res.cara, { type: 'leave', start_date: '2026-09-29', end_date: '2026-09-29', time: 60 });
  dev.caraOther = await deviation(res.cara, { type: 'other', start_date: '2026-09-28', end_date: '2026-09-29', time: 30 });
  dev.caraLong = await deviation(res.cara, { type: 'maintenance', start_date: '2026-10-02', end_date: '2026-10-02', time: 600 });
  // A deleted deviation does not count: Cara's first "other" deviation (Mon–Tue) is deleted and
  // replaced by one for Tuesday only.
  const deleted = await api.http('DELETE', `/v1/resource/${res.cara}/schedule_deviation/${dev.caraOther}`);
  expect(deleted.status).toBe(204);
  dev.caraOther = await deviation(res.cara, { type: 'other', start_date: '2026-09-29', end_date: '2026-09-29', time: 30 });

  group.teamA = (await create(api, '/v1/group', { name: 'Team A', resources: [{ id: res.anna }, { id: res.ben }] })).id;
  group.teamB = (await create(api, '/v1/group', { name: 'Team B', resources: [{ id: res.cara }] })).id;
  group.both = (await create(api, '/v1/group', { name: 'Both', resources: [{ id: res.anna }, { id: res.cara }] })).id;
  group.empty = (await create(api, '/v1/group', { name: 'Empty' })).id;
});
afterAll(async () => {
  await api.close();
});

const week = 'date_range_start=2026-09-28&date_range_end=2026-10-04';

async function capacity(boardId: string, view: string, query: string): Promise<any> {
  return get(api, `/v1/board/${boardId}/capacity/${view}?${query}`);
}

/** Bucket → {row id: time_available} for the view's list (`stage`, `resource`, `group`). */
function availableBy(body: any, list: 'stage' | 'resource' | 'group'): Record<string, Record<string, number>> {
  return Object.fromEntries(
    body.data.map((row: any) => [`${row.date}…${row.end_date}`, Object.fromEntries(row[list].map((r: any) => [r.id, r.time_available]))]),
  );
}

/** Every time_planned in a capacity answer. */
function planned(body: any): number[] {
  const out: number[] = [];
  for (const row of body.data) {
    for (const list of ['stage', 'resource', 'group'] as const) {
      for (const entry of row[list] ?? []) {
        if (entry.resource_type) for (const t of entry.resource_type) out.push(t.time_planned);
        else out.push(entry.time_planned);
      }
    }
  }
  return out;
}

describe('resource schedule (GET /v1/resource/{id}/schedule)', () => {
  const range = 'filter=date:gte:2026-09-28,and,date:lte:2026-10-04';

  it('gives Anna (part-time, a holiday and a partial deviation) a row per day', async () => {
    const body = await get(api, `/v1/resource/${res.anna}/schedule?${range}`);
    expect(body).toMatchObject({ count: 7, limit: 100, offset: 0 });
    const rows = body.data.map((d: any) => [d.date, d.weekday, d.scheduled, d.deviation, d.available, d.deviations]);
    expect(rows).toEqual([
      // date        wd  scheduled        deviation           available  deviations
      ['2026-09-28', 1, 480 /* 8 h */, 0, 480, []],
      ['2026-09-29', 2, 480, 0, 480, []],
      ['2026-09-30', 3, 480, 480 /* holiday: whole day */, 0, [dev.annaHoliday]],
      ['2026-10-01', 4, 240 /* 4 h */, 120 /* partial */, 120, [dev.annaPartial]],
      ['2026-10-02', 5, 0 /* null: day off */, 0, 0, []],
      // Saturday: the Workshop board does not work, but Anna's own schedule shows it.
      ['2026-10-03', 6, 180 /* 3 h */, 0, 180, []],
      ['2026-10-04', 7, 0, 0, 0, []],
    ]);
    for (const row of body.data) expect(row.resource_id).toBe(res.anna);
  });

  it('gives Ben nothing outside start_date … end_date', async () => {
    const body = await get(api, `/v1/resource/${res.ben}/schedule?${range}`);
    expect(body.data.map((d: any) => [d.date, d.scheduled, d.available])).toEqual([
      ['2026-09-28', 0, 0], // before start_date 09-30
      ['2026-09-29', 0, 0],
      ['2026-09-30', 480, 480], // start_date itself counts
      ['2026-10-01', 480, 480],
      ['2026-10-02', 480, 480], // end_date itself counts
      ['2026-10-03', 0, 0], // Saturday null anyway
      ['2026-10-04', 0, 0],
    ]);
  });

  it("sums Cara's partial deviations of one day and never takes more than was scheduled", async () => {
    const body = await get(api, `/v1/resource/${res.cara}/schedule?${range}`);
    expect(body.data.map((d: any) => [d.date, d.scheduled, d.deviation, d.available])).toEqual([
      ['2026-09-28', 450 /* 7.5 h */, 0, 450], // the deleted deviation does not count
      ['2026-09-29', 450, 90 /* 60 + 30 */, 360],
      ['2026-09-30', 450, 0, 450],
      ['2026-10-01', 450, 0, 450],
      ['2026-10-02', 450, 450 /* 600 capped at 450 */, 0],
      ['2026-10-03', 0, 0, 0],
      ['2026-10-04', 0, 0, 0],
    ]);
    expect(body.data[1].deviations.sort()).toEqual([dev.caraLeave, dev.caraOther].sort());
    expect(body.data[4].deviations).toEqual([dev.caraLong]);
  });

  it('accepts quoted dates, sorts by date:desc and pages (count stays the total)', async () => {
    const body = await get(
      api,
      `/v1/resource/${res.anna}/schedule?filter=date:gte:'2026-09-28',and,date:lte:'2026-10-04'&sort=date:desc&limit=3&offset=2`,
    );
    expect(body).toMatchObject({ count: 7, limit: 3, offset: 2 });
    expect(body.data.map((d: any) => d.date)).toEqual(['2026-10-02', '2026-10-01', '2026-09-30']);
  });

  it('filters on the computed fields and shapes rows with show', async () => {
    const body = await get(api, `/v1/resource/${res.anna}/schedule?${range},and,available:gt:0&show=date,available`);
    expect(body.data).toEqual([
      { date: '2026-09-28', available: 480 },
      { date: '2026-09-29', available: 480 },
      { date: '2026-10-01', available: 120 },
      { date: '2026-10-03', available: 180 },
    ]);
    expect(body.count).toBe(4);
  });

  it('reflects a deviation as soon as it is written (a whole week of sick leave)', async () => {
    const sick = await create(api, `/v1/resource/${res.dan}/schedule_deviation`, {
      type: 'sick',
      start_date: '2026-11-02',
      end_date: '2026-11-06',
    });
    const body = await get(api, `/v1/resource/${res.dan}/schedule?filter=date:gte:2026-11-01,and,date:lte:2026-11-07`);
    expect(body.data.map((d: any) => d.available)).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(body.data.map((d: any) => d.deviation)).toEqual([0, 480, 480, 480, 480, 480, 0]);
    await api.http('DELETE', `/v1/resource/${res.dan}/schedule_deviation/${sick.id}`);
    const after = await get(api, `/v1/resource/${res.dan}/schedule?filter=date:gte:2026-11-01,and,date:lte:2026-11-07`);
    expect(after.data.map((d: any) => d.available)).toEqual([0, 480, 480, 480, 480, 480, 0]);
  });

  it('defaults to today and the 27 days after it', async () => {
    const body = await get(api, `/v1/resource/${res.anna}/schedule`);
    expect(body.count).toBe(28);
    expect(body.data[0].date).toBe(today());
    expect(body.data[27].date).toBe(addDays(today(), 27));
  });

  it('covers at most 3,660 days', async () => {
    // 2026-01-01 … 2036-01-08 is 3,660 days (both ends included); one more is too many.
    const most = await get(api, `/v1/resource/${res.anna}/schedule?filter=date:gte:2026-01-01,and,date:lte:2036-01-08&limit=0`);
    expect(most.count).toBe(3660);
    const tooMany = await api.http('GET', `/v1/resource/${res.anna}/schedule?filter=date:gte:2026-01-01,and,date:lte:2036-01-09`);
    expectBadRequest(tooMany, '3660');
  });

  it.each([
    ['a day that does not exist', 'filter=date:gte:2026-02-30', ['2026-02-30']],
    ['a word for a date', 'filter=date:gte:tomorrow', ['tomorrow']],
    ['an unknown filter field', 'filter=hours:gt:1', ['hours']],
    ['an unknown sort field', 'sort=hours', ['hours']],
    ['a relation', 'with=resource', ['Relation not found']],
    ['a limit over 1000', 'limit=1001', ['limit']],
  ])('answers %s with 400', async (_label, query, mentions) => {
    expectBadRequest(await api.http('GET', `/v1/resource/${res.anna}/schedule?${query}`), ...mentions);
  });

  it('is an empty list for a resource that does not exist, as every list under a missing parent', async () => {
    const res = await api.http('GET', `/v1/resource/${unknownId}/schedule`);
    expect(res).toMatchObject({ status: 200, body: { count: 0, data: [] } });
  });
});

describe('schedule of every resource (GET /v1/schedule …)', () => {
  it('lists a row per resource and day, leaving out archived resources', async () => {
    const body = await get(api, '/v1/schedule?filter=date:eq:2026-10-01&limit=1000');
    const byResource = Object.fromEntries(body.data.map((d: any) => [d.resource_id, [d.scheduled, d.deviation, d.available]]));
    expect(byResource).toEqual({
      [res.anna]: [240, 120, 120],
      [res.ben]: [480, 0, 480],
      [res.cara]: [450, 0, 450],
      [res.dan]: [480, 0, 480],
      [res.hugo]: [438 /* 7.3 h */, 0, 438],
      // Eve is archived.
    });
    expect(body.count).toBe(5);
  });

  it('filters by resource and pages over many days', async () => {
    const body = await get(
      api,
      `/v1/schedule?filter=resource_id:eq:${res.anna},and,date:gte:2026-09-28,and,date:lte:2026-10-04&sort=date:desc&limit=2`,
    );
    expect(body.count).toBe(7);
    expect(body.data.map((d: any) => [d.date, d.available])).toEqual([
      ['2026-10-04', 0],
      ['2026-10-03', 180],
    ]);
  });

  it("/v1/schedule/{year}: per resource the year's total and its months", async () => {
    const body = await get(api, '/v1/schedule/2026?limit=1000');
    const anna = body.data.find((r: any) => r.resource_id === res.anna);
    // 2026 has 52 weeks and one day (it starts and ends on a Thursday): 53 Thursdays.
    // Anna: 52 × (480 + 480 + 480) + 53 × 240 + 52 × 180 = 74,880 + 12,720 + 9,360 = 96,960;
    // deviations 480 (holiday) + 120 = 600.
    expect(anna).toMatchObject({ start: '2026-01-01', end: '2026-12-31', scheduled: 96960, deviation: 600, available: 96360 });
    expect(anna.months).toHaveLength(12);
    expect(anna.months[8]).toEqual({ month: '2026-09', scheduled: 8400, deviation: 480, overtime: 0, available: 7920 });
    expect(anna.months[9]).toEqual({ month: '2026-10', scheduled: 7860, deviation: 120, overtime: 0, available: 7740 });
    const ben = body.data.find((r: any) => r.resource_id === res.ben);
    // Ben is in service Wed 09-30 … Fri 10-02 only.
    expect(ben).toMatchObject({ scheduled: 1440, deviation: 0, available: 1440 });
    expect(ben.months.map((m: any) => m.scheduled)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 480, 960, 0, 0]);
    const cara = body.data.find((r: any) => r.resource_id === res.cara);
    // 261 weekdays (52 × 5 + one Thursday) × 450 = 117,450; deviations 90 + 450 = 540.
    expect(cara).toMatchObject({ scheduled: 117450, deviation: 540, available: 116910 });
    expect(body.data.map((r: any) => r.resource_id)).not.toContain(res.eve);
  });

  it("/v1/schedule/{year}/{month}: per resource the month's total and its days", async () => {
    const body = await get(api, `/v1/schedule/2026/9?filter=resource_id:eq:${res.anna}`);
    expect(body.count).toBe(1);
    const [anna] = body.data;
    // September 2026 starts on a Tuesday: 4 Mondays, 5 Tuesdays, 5 Wednesdays, 4 Thursdays,
    // 4 Saturdays. 4×480 + 5×480 + 5×480 + 4×240 + 4×180 = 1,920 + 2,400 + 2,400 + 960 + 720.
    expect(anna).toMatchObject({ start: '2026-09-01', end: '2026-09-30', scheduled: 8400, deviation: 480, available: 7920 });
    expect(anna.days).toHaveLength(30);
    expect(anna.days[29]).toMatchObject({
      date: '2026-09-30',
      scheduled: 480,
      deviation: 480,
      available: 0,
      deviations: [dev.annaHoliday],
    });
    // A two-digit month works too.
    const october = await get(api, `/v1/schedule/2026/10?filter=resource_id:eq:${res.cara}`);
    // October 2026 has 22 weekdays: 22 × 450 = 9,900; the 600-minute deviation takes 450.
    expect(october.data[0]).toMatchObject({ start: '2026-10-01', end: '2026-10-31', scheduled: 9900, deviation: 450, available: 9450 });
    expect(october.data[0].days).toHaveLength(31);
  });

  it('/v1/schedule/{year}/{month}/{day}: per resource that one day', async () => {
    const body = await get(api, '/v1/schedule/2026/10/01?limit=1000');
    const anna = body.data.find((r: any) => r.resource_id === res.anna);
    expect(anna).toEqual({
      resource_id: res.anna,
      start: '2026-10-01',
      end: '2026-10-01',
      date: '2026-10-01',
      scheduled: 240,
      deviation: 120,
      overtime: 0,
      available: 120,
      deviations: [dev.annaPartial],
    });
    expect(body.count).toBe(5);
    // Saturday: Anna's schedule has it, whatever a board's workdays say.
    const saturday = await get(api, `/v1/schedule/2026/10/3?filter=resource_id:eq:${res.anna}`);
    expect(saturday.data[0]).toMatchObject({ scheduled: 180, available: 180 });
    // A leap day exists in 2024.
    expect((await api.http('GET', '/v1/schedule/2024/2/29')).status).toBe(200);
  });

  it.each([
    ['a two-digit year', '/v1/schedule/26'],
    ['month 13', '/v1/schedule/2026/13'],
    ['month 0', '/v1/schedule/2026/0'],
    ['29 February of a common year', '/v1/schedule/2026/2/29'],
    ['31 April', '/v1/schedule/2026/4/31'],
  ])('answers %s with 404', async (_label, path) => {
    expectNotFound(await api.http('GET', path));
  });

  it.each([
    ['a bad date', 'filter=date:gte:2026-02-30', ['2026-02-30']],
    ['more than 3,660 days', 'filter=date:gte:2026-01-01,and,date:lte:2036-01-09', ['3660']],
  ])('answers %s with 400', async (_label, query, mentions) => {
    expectBadRequest(await api.http('GET', `/v1/schedule?${query}`), ...mentions);
  });
});

describe('board capacity (GET /v1/board/{id}/capacity/…)', () => {
  it('per stage and day: part-time, deviations, service dates, 50/50 split, 80 % efficiency, board non-workdays', async () => {
    const body = await capacity(board.workshop.id, 'stage', `${week}&time_frame=day`);
    expect(body).toMatchObject({
      capacity_method: 'individual',
      time_frame: 'day',
      date_range_start: '2026-09-28',
      date_range_end: '2026-10-04',
    });
    // Cutting  = Anna × 50 % + Ben × 100 %                  (efficiency 100 %)
    // Welding  = Anna × 50 % × 80 % + Cara × 100 % × 80 %   (efficiency 80 %)
    // Painting = Cara's link is inactive: nothing
    expect(availableBy(body, 'stage')).toEqual({
      //                     Cutting                  Welding                         Painting
      '2026-09-28…2026-09-28': { [stage.cutting]: 240 /* 480×.5 */, [stage.welding]: 552 /* 480×.4 + 450×.8 */, [stage.painting]: 0 },
      '2026-09-29…2026-09-29': { [stage.cutting]: 240, [stage.welding]: 480 /* 192 + 360×.8 */, [stage.painting]: 0 },
      '2026-09-30…2026-09-30': { [stage.cutting]: 480 /* Anna off, Ben 480 */, [stage.welding]: 360 /* 0 + 450×.8 */, [stage.painting]: 0 },
      '2026-10-01…2026-10-01': { [stage.cutting]: 540 /* 120×.5 + 480 */, [stage.welding]: 408 /* 120×.4 + 360 */, [stage.painting]: 0 },
      '2026-10-02…2026-10-02': { [stage.cutting]: 480 /* Ben */, [stage.welding]: 0 /* Anna null, Cara all off */, [stage.painting]: 0 },
      // Saturday: Anna works 3 h, but the board does not work on Saturday.
      '2026-10-03…2026-10-03': { [stage.cutting]: 0, [stage.welding]: 0, [stage.painting]: 0 },
      '2026-10-04…2026-10-04': { [stage.cutting]: 0, [stage.welding]: 0, [stage.painting]: 0 },
    });
    // Stages in board order, with their names; nothing planned yet.
    expect(body.data[0].stage.map((s: any) => s.name)).toEqual(['Cutting', 'Welding', 'Painting']);
    expect(new Set(planned(body))).toEqual(new Set([0]));
  });

  it('per stage and week: one bucket for the week across the month end', async () => {
    const body = await capacity(board.workshop.id, 'stage', `${week}&time_frame=week`);
    expect(availableBy(body, 'stage')).toEqual({
      // Cutting 240+240+480+540+480 = 1,980; Welding 552+480+360+408+0 = 1,800
      '2026-09-28…2026-10-04': { [stage.cutting]: 1980, [stage.welding]: 1800, [stage.painting]: 0 },
    });
  });

  it('splits the same week in two at the month end for month and quarter, and keeps it whole for year', async () => {
    const september = { [stage.cutting]: 960 /* 240+240+480 */, [stage.welding]: 1392 /* 552+480+360 */, [stage.painting]: 0 };
    const october = { [stage.cutting]: 1020 /* 540+480 */, [stage.welding]: 408, [stage.painting]: 0 };
    expect(availableBy(await capacity(board.workshop.id, 'stage', `${week}&time_frame=month`), 'stage')).toEqual({
      '2026-09-28…2026-09-30': september,
      '2026-10-01…2026-10-04': october,
    });
    // 30 September ends Q3.
    expect(availableBy(await capacity(board.workshop.id, 'stage', `${week}&time_frame=quarter`), 'stage')).toEqual({
      '2026-09-28…2026-09-30': september,
      '2026-10-01…2026-10-04': october,
    });
    expect(availableBy(await capacity(board.workshop.id, 'stage', `${week}&time_frame=year`), 'stage')).toEqual({
      '2026-09-28…2026-10-04': { [stage.cutting]: 1980, [stage.welding]: 1800, [stage.painting]: 0 },
    });
  });

  it('clips week, month, quarter and year buckets to the range 2026-09-21 … 2026-10-06', async () => {
    const range = 'date_range_start=2026-09-21&date_range_end=2026-10-06';
    // Week 09-21…09-27: Anna 480+480+480+240+0 = 1,680; Cara 5 × 450 = 2,250; Ben not yet in service.
    //   Cutting 1,680×.5 = 840; Welding 1,680×.4 + 2,250×.8 = 672 + 1,800 = 2,472.
    // Days 10-05, 10-06: Anna 480, Cara 450, Ben no longer in service.
    //   Cutting 2 × 240 = 480; Welding 2 × (192 + 360) = 1,104.
    const weeks = availableBy(await capacity(board.workshop.id, 'stage', `${range}&time_frame=week`), 'stage');
    expect(weeks).toEqual({
      '2026-09-21…2026-09-27': { [stage.cutting]: 840, [stage.welding]: 2472, [stage.painting]: 0 },
      '2026-09-28…2026-10-04': { [stage.cutting]: 1980, [stage.welding]: 1800, [stage.painting]: 0 },
      '2026-10-05…2026-10-06': { [stage.cutting]: 480, [stage.welding]: 1104, [stage.painting]: 0 },
    });
    // Months (and quarters) clipped: September from the 21st, October up to the 6th.
    const months = {
      '2026-09-21…2026-09-30': { [stage.cutting]: 1800 /* 840 + 960 */, [stage.welding]: 3864 /* 2,472 + 1,392 */, [stage.painting]: 0 },
      '2026-10-01…2026-10-06': { [stage.cutting]: 1500 /* 1,020 + 480 */, [stage.welding]: 1512 /* 408 + 1,104 */, [stage.painting]: 0 },
    };
    expect(availableBy(await capacity(board.workshop.id, 'stage', `${range}&time_frame=month`), 'stage')).toEqual(months);
    expect(availableBy(await capacity(board.workshop.id, 'stage', `${range}&time_frame=quarter`), 'stage')).toEqual(months);
    expect(availableBy(await capacity(board.workshop.id, 'stage', `${range}&time_frame=year`), 'stage')).toEqual({
      '2026-09-21…2026-10-06': { [stage.cutting]: 3300, [stage.welding]: 5376, [stage.painting]: 0 },
    });
  });

  it('clips a week that starts before the range to the range', async () => {
    // Range starts Wednesday 09-30: the first bucket is Wed…Sun, the second Mon…Tue.
    const body = await capacity(board.workshop.id, 'stage', 'date_range_start=2026-09-30&date_range_end=2026-10-06&time_frame=week');
    expect(availableBy(body, 'stage')).toEqual({
      '2026-09-30…2026-10-04': { [stage.cutting]: 1500 /* 480+540+480 */, [stage.welding]: 768 /* 360+408+0 */, [stage.painting]: 0 },
      '2026-10-05…2026-10-06': { [stage.cutting]: 480, [stage.welding]: 1104, [stage.painting]: 0 },
    });
  });

  it('splits a range across New Year into two year buckets', async () => {
    // Wed 12-30: Anna 480, Cara 450; Thu 12-31: Anna 240, Cara 450; Fri 2027-01-01: Anna null,
    // Cara 450; Sat 01-02: board off.
    //   2026: Cutting 240 + 120 = 360; Welding 192 + 96 + 360 + 360 = 1,008.   2027: Cutting 0; Welding 360.
    const body = await capacity(board.workshop.id, 'stage', 'date_range_start=2026-12-30&date_range_end=2027-01-02&time_frame=year');
    expect(availableBy(body, 'stage')).toEqual({
      '2026-12-30…2026-12-31': { [stage.cutting]: 360, [stage.welding]: 1008, [stage.painting]: 0 },
      '2027-01-01…2027-01-02': { [stage.cutting]: 0, [stage.welding]: 360, [stage.painting]: 0 },
    });
  });

  it('restricts to one stage with stage_id', async () => {
    const body = await capacity(board.workshop.id, 'stage', `${week}&time_frame=week&stage_id=${stage.welding}`);
    expect(body.data).toEqual([
      {
        date: '2026-09-28',
        end_date: '2026-10-04',
        stage: [{ id: stage.welding, name: 'Welding', time_available: 1800, time_planned: 0 }],
      },
    ]);
    // In the resource view only the Welding share counts: Anna 1,080 × .4 = 432, Cara 1,710 × .8 = 1,368.
    const byResource = await capacity(board.workshop.id, 'resource', `${week}&time_frame=week&stage_id=${stage.welding}`);
    expect(availableBy(byResource, 'resource')).toEqual({
      '2026-09-28…2026-10-04': { [res.anna]: 432, [res.ben]: 0, [res.cara]: 1368, [res.dan]: 0 },
    });
  });

  it('per resource: each resource on the board (not archived), its shares summed over stages', async () => {
    // Workdays Mon–Fri of the week, available minutes:
    //   Anna 480+480+0+120+0 = 1,080 × (.5 + .5×.8 = .9)      = 972
    //   Ben  0+0+480+480+480  = 1,440 × 1                     = 1,440
    //   Cara 450+360+450+450+0 = 1,710 × .8 (Painting inactive) = 1,368
    //   Dan  board entry inactive                            = 0
    const body = await capacity(board.workshop.id, 'resource', `${week}&time_frame=week`);
    expect(availableBy(body, 'resource')).toEqual({
      '2026-09-28…2026-10-04': { [res.anna]: 972, [res.ben]: 1440, [res.cara]: 1368, [res.dan]: 0 },
    });
    expect(body.data[0].resource.map((r: any) => [r.name, r.type])).toEqual([
      ['Anna', 'employee'],
      ['Ben', 'machine'],
      ['Cara', 'cell'],
      ['Dan', 'employee'],
    ]);
    // The views agree: 972 + 1,440 + 1,368 = 1,980 + 1,800.
    expect(new Set(planned(body))).toEqual(new Set([0]));
  });

  it('per resource and day', async () => {
    const body = await capacity(board.workshop.id, 'resource', `${week}&time_frame=day`);
    const table = availableBy(body, 'resource');
    const anna = Object.values(table).map((r) => r[res.anna]);
    const ben = Object.values(table).map((r) => r[res.ben]);
    const cara = Object.values(table).map((r) => r[res.cara]);
    expect(anna).toEqual([432 /* 480×.9 */, 432, 0, 108 /* 120×.9 */, 0, 0, 0]);
    expect(ben).toEqual([0, 0, 480, 480, 480, 0, 0]);
    expect(cara).toEqual([360 /* 450×.8 */, 288 /* 360×.8 */, 360, 360, 0, 0, 0]);
  });

  it('per resource type within each stage', async () => {
    const body = await capacity(board.workshop.id, 'resource_type/stage', `${week}&time_frame=week`);
    expect(body.data).toHaveLength(1);
    const table = Object.fromEntries(
      body.data[0].stage.map((s: any) => [s.name, Object.fromEntries(s.resource_type.map((t: any) => [t.type, t.time_available]))]),
    );
    expect(table).toEqual({
      //          machine (Ben)  cell (Cara)        employee (Anna)
      Cutting: { machine: 1440, cell: 0, employee: 540 /* 1,080 × .5 */ },
      Welding: { machine: 0, cell: 1368, employee: 432 /* 1,080 × .4 */ },
      Painting: { machine: 0, cell: 0, employee: 0 },
    });
    expect(body.data[0].stage.map((s: any) => s.id)).toEqual([stage.cutting, stage.welding, stage.painting]);
    expect(new Set(planned(body))).toEqual(new Set([0]));
  });

  it('per group: a resource counts in every group it is in; a group without members is 0', async () => {
    const body = await capacity(board.workshop.id, 'group', `${week}&time_frame=week`);
    expect(availableBy(body, 'group')).toEqual({
      '2026-09-28…2026-10-04': {
        [group.teamA]: 2412 /* Anna 972 + Ben 1,440 */,
        [group.teamB]: 1368 /* Cara */,
        [group.both]: 2340 /* Anna 972 + Cara 1,368 */,
        [group.empty]: 0,
      },
    });
    expect(body.data[0].group.map((g: any) => g.name)).toEqual(['Team A', 'Team B', 'Both', 'Empty']);
  });

  it('counts Saturday on a board that works Saturdays', async () => {
    // Weekend board (Mon–Sat), Anna 100 %: 480 + 480 + 0 + 120 + 0 + 180 = 1,260.
    const body = await capacity(board.weekend.id, 'stage', `${week}&time_frame=day`);
    expect(body.data.map((d: any) => d.stage[0].time_available)).toEqual([480, 480, 0, 120, 0, 180, 0]);
    const total = await capacity(board.weekend.id, 'stage', `${week}&time_frame=week`);
    expect(total.data[0].stage[0].time_available).toBe(1260);
    // Only Anna plans on the Weekend board.
    const byResource = await capacity(board.weekend.id, 'resource', `${week}&time_frame=week`);
    expect(availableBy(byResource, 'resource')).toEqual({ '2026-09-28…2026-10-04': { [res.anna]: 1260 } });
  });

  it('gives 0 for a board with capacity_method none', async () => {
    // Anna is on the Idle stage at 100 %, which would be 1,080 minutes.
    for (const view of ['stage', 'resource', 'resource_type/stage', 'group']) {
      const body = await capacity(board.idle.id, view, `${week}&time_frame=week`);
      expect(body.capacity_method).toBe('none');
      const all = JSON.stringify(body.data).match(/"time_(available|planned)":(\d+)/g) ?? [];
      expect(all.length).toBeGreaterThan(0);
      for (const figure of all) expect(figure).toMatch(/:0$/);
    }
    // Switching the method on counts her.
    await update(api, `/v1/board/${board.idle.id}`, { capacity_method: 'individual' });
    expect((await capacity(board.idle.id, 'stage', `${week}&time_frame=week`)).data[0].stage[0].time_available).toBe(1080);
    await update(api, `/v1/board/${board.idle.id}`, { capacity_method: 'none' });
  });

  it('rounds at the end of the bucket, not per day', async () => {
    // Hugo: 7.3 h = 438 min at 33 %: 144.54 a day → 145; a week 5 × 144.54 = 722.7 → 723 (not 5 × 145 = 725).
    const days = await capacity(board.rounding.id, 'stage', `${week}&time_frame=day`);
    expect(days.data.map((d: any) => d.stage[0].time_available)).toEqual([145, 145, 145, 145, 145, 0, 0]);
    const total = await capacity(board.rounding.id, 'stage', `${week}&time_frame=week`);
    expect(total.data[0].stage[0].time_available).toBe(723);
  });

  it('defaults to the current ISO week, a bucket per day', async () => {
    const body = await capacity(board.workshop.id, 'stage', '');
    const monday = bucketStart(today(), 'week');
    expect(body).toMatchObject({ time_frame: 'day', date_range_start: monday, date_range_end: addDays(monday, 6) });
    expect(body.data.map((d: any) => d.date)).toEqual([0, 1, 2, 3, 4, 5, 6].map((n) => addDays(monday, n)));
  });

  it('covers at most 3,660 days', async () => {
    const most = await capacity(board.rounding.id, 'stage', 'date_range_start=2026-01-01&date_range_end=2036-01-08&time_frame=year');
    expect(most.data.map((d: any) => d.date)).toHaveLength(11);
    expectBadRequest(
      await api.http('GET', `/v1/board/${board.rounding.id}/capacity/stage?date_range_start=2026-01-01&date_range_end=2036-01-09`),
      '3660',
    );
  });

  it.each([
    ['time_frame fortnight', 'time_frame=fortnight', ['time_frame']],
    ['time_frame in upper case', 'time_frame=WEEK', ['time_frame']],
    ['a date_range_start without leading zeros', 'date_range_start=2026-3-1', ['date_range_start']],
    ['a date_range_start that is no date', 'date_range_start=2026-02-30&date_range_end=2026-03-05', ['date_range_start']],
    ['a date_range_end that is no date', 'date_range_start=2026-03-01&date_range_end=2026-13-01', ['date_range_end']],
    ['date_range_end before date_range_start', 'date_range_start=2026-03-10&date_range_end=2026-03-09', ['date_range_end']],
    ['a stage_id that is no uuid', 'stage_id=welding', ['stage_id']],
  ])('answers %s with 400 and the error body', async (_label, query, mentions) => {
    expectBadRequest(await api.http('GET', `/v1/board/${board.workshop.id}/capacity/stage?${query}`), ...mentions);
  });

  it('is 404 for a board that does not exist, on every view, and for an unknown view', async () => {
    for (const view of ['stage', 'resource', 'resource_type/stage', 'group']) {
      expectNotFound(await api.http('GET', `/v1/board/${unknownId}/capacity/${view}?${week}`));
    }
    expectNotFound(await api.http('GET', `/v1/board/${board.workshop.id}/capacity/machine?${week}`));
  });
});

describe('capacity over a range that cuts through deviations, service dates and cards', () => {
  /**
   * Board Edges (Mon–Fri), stage Line (100 %). The range is the week Mon 09-28 … Sun 10-04.
   *
   *   Ivy  Mon–Fri 8 h, Line 100 %; holiday Thu 09-24 … Tue 09-29: it starts before the range
   *   Jon  Mon–Fri 8 h, Line 100 %; end_date Fri 09-25: out of service for the whole range
   *   a card on Line Thu 09-24 … Wed 09-30 (5 workdays), 600 minutes, Ivy and Jon: 120 a
   *   workday; Mon, Tue and Wed fall in the range, 360 minutes, 180 for each resource
   */
  let edges: any;
  let ivy: string;
  let jon: string;
  beforeAll(async () => {
    edges = await create(api, '/v1/board?with=stages', { name: 'Edges', workdays: officeWeek, stages: [{ name: 'Line' }] });
    await create(api, `/v1/board/${edges.id}/status`, { name: 'Ready', priority: 0, entry: true, exit: false });
    const line = [{ id: edges.id, stages: [{ id: edges.stages[0].id, percentage: 100 }] }];
    ivy = (await create(api, '/v1/resource', { name: 'Ivy', boards: line })).id;
    jon = (await create(api, '/v1/resource', { name: 'Jon', end_date: '2026-09-25', boards: line })).id;
    await create(api, `/v1/resource/${ivy}/schedule_deviation`, {
      type: 'holiday',
      start_date: '2026-09-24',
      end_date: '2026-09-29',
      time: null,
    });
    const activity = await create(api, '/v1/activity', { description: 'Assemble', resource_type: 'employee' });
    const collection = await create(api, '/v1/collection', { name: 'Edge order', board_id: edges.id });
    await create(api, `/v1/collection/${collection.id}/card`, {
      stage_id: edges.stages[0].id,
      start_date: '2026-09-24',
      end_date: '2026-09-30',
      activities: [{ id: activity.id, time: 600 }],
      resources: [{ id: ivy }, { id: jon }],
    });
  });

  it("per stage and day: the holiday's last two days count, and the card's minutes per workday", async () => {
    const body = await capacity(edges.id, 'stage', `${week}&time_frame=day`);
    expect(body.data.map((d: any) => [d.date, d.stage[0].time_available, d.stage[0].time_planned])).toEqual([
      ['2026-09-28', 0, 120], // Ivy on holiday, Jon out of service
      ['2026-09-29', 0, 120],
      ['2026-09-30', 480, 120],
      ['2026-10-01', 480, 0],
      ['2026-10-02', 480, 0],
      ['2026-10-03', 0, 0],
      ['2026-10-04', 0, 0],
    ]);
  });

  it("per resource and week: the card's minutes in the range shared between its two resources", async () => {
    const body = await capacity(edges.id, 'resource', `${week}&time_frame=week`);
    expect(body.data[0].resource.map((r: any) => [r.id, r.time_available, r.time_planned])).toEqual([
      [ivy, 1440, 180],
      [jon, 0, 180],
    ]);
  });
});

describe('capacity_method remaining_time: the estimate less the time tracked, from today on', () => {
  /**
   * Board Remaining (Mon–Fri), stage Line. Next week Mon … Fri (all after today):
   *   card A 600 minutes, 250 tracked → 350 left, 70 a workday;
   *   card B 300 minutes, 690 tracked → nothing left (never below 0).
   * The same board with `individual` counts the estimates: 120 + 60 a workday.
   */
  let board: any;
  let nextWeek: string;
  beforeAll(async () => {
    nextWeek = addDays(bucketStart(today(), 'week'), 7);
    board = await create(api, '/v1/board?with=stages', {
      name: 'Remaining',
      workdays: officeWeek,
      capacity_method: 'remaining_time',
      stages: [{ name: 'Line' }],
    });
    await create(api, `/v1/board/${board.id}/status`, { name: 'Ready', priority: 0, entry: true, exit: false });
    const activity = await create(api, '/v1/activity', { description: 'Weld', resource_type: 'employee' });
    const collection = await create(api, '/v1/collection', { name: 'Remaining order', board_id: board.id });
    for (const [minutes, tracked] of [
      [600, 250],
      [300, 690],
    ] as const) {
      const card = await create(api, `/v1/collection/${collection.id}/card`, {
        stage_id: board.stages[0].id,
        start_date: nextWeek,
        end_date: addDays(nextWeek, 4),
        activities: [{ id: activity.id, time: minutes }],
      });
      // Tracked in the past: remaining time looks at what is left, not when it was tracked.
      const start = Date.parse('2026-01-05T07:00:00Z');
      await create(api, '/v1/time_tracking', {
        card_id: card.id,
        start: new Date(start).toISOString(),
        end: new Date(start + tracked * 60_000).toISOString(),
      });
    }
  });

  it('counts what is left of each card, spread over its workdays, and never less than 0', async () => {
    const range = `date_range_start=${nextWeek}&date_range_end=${addDays(nextWeek, 6)}&time_frame=day`;
    const body = await capacity(board.id, 'stage', range);
    expect(body.capacity_method).toBe('remaining_time');
    expect(body.data.map((d: any) => d.stage[0].time_planned)).toEqual([70, 70, 70, 70, 70, 0, 0]);
    await update(api, `/v1/board/${board.id}`, { capacity_method: 'individual' });
    const estimated = await capacity(board.id, 'stage', range);
    expect(estimated.data.map((d: any) => d.stage[0].time_planned)).toEqual([180, 180, 180, 180, 180, 0, 0]);
    await update(api, `/v1/board/${board.id}`, { capacity_method: 'remaining_time' });
  });
});
