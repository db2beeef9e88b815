/**
 * Overtime as a schedule deviation (docs/API.md "Schedules and capacity"), over real HTTP,
 * worked out by hand.
 *
 *   scheduled = workdays[weekday] hours × 60
 *   deviation = what the absences take (whole day: all of it), never more than scheduled
 *   overtime  = the day's overtime minutes (never more than 1440 − scheduled)
 *   available = scheduled − deviation + overtime
 *
 * The week under test is Mon 2027-01-11 … Sun 2027-01-17.
 *
 *   board Shop     Mon–Fri; stage Work (efficiency 100)
 *   board Weekend  Mon–Sat; stage Shift (100)
 *   Anna  Mon–Fri 8 h, Sat and Sun off; Shop Work 100 %, Weekend Shift 100 %
 *         Tue 01-12  overtime 120                 → 480 − 0 + 120   = 600
 *         Wed 01-13  sick 180 and overtime 60     → 480 − 180 + 60  = 360
 *         Thu 01-14  vacation (whole day), overtime 90 → 480 − 480 + 90 = 90
 *         Sat 01-16  overtime 240 (not a workday) → 0 − 0 + 240     = 240
 *
 *   board Line     Mon–Fri; stage Make; Ben Mon–Fri 8 h, Make 100 %; nothing planned.
 *   A collection of 600 min, finite from Mon 01-18: Mon alone 480 < 600, Mon–Tue 960 ≥ 600 →
 *   Mon–Tue. With 120 overtime on Mon 01-18: Mon alone 600 ≥ 600 → Mon 01-18 only; the promise
 *   date of the same work moves from Tue 01-19 to Mon 01-18.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectFieldErrors } from '../helpers/order-data.js';
import { fixTheClock } from '../helpers/test-clock.js';

// Every date below is given; the defaults that read today (a plan's start) run at a fixed day all the same (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
const ids: Record<string, string> = {};
const weekdays = { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false };
const eightHours = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null };

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await api.http(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

async function board(name: string, stage: string, workdays: Record<string, boolean>): Promise<void> {
  const made = await ok('POST', '/v1/board?with=stages,statuses', {
    name,
    workdays,
    statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
    stages: [{ name: stage, priority: 0, activities: [{ id: ids.cut, priority: 0 }] }],
  });
  ids[name] = made.id;
  ids[stage] = made.stages[0].id;
}

const link = (boardName: string, stage: string) => ({
  id: ids[boardName],
  active: true,
  stages: [{ id: ids[stage], percentage: 100, active: true }],
});

async function deviation(resource: string, body: Record<string, unknown>): Promise<string> {
  return (await ok('POST', `/v1/resource/${ids[resource]}/schedule_deviation`, body)).id;
}

const oneDay = (date: string) => ({ start_date: date, end_date: date });

async function days(resource: string, from: string, to: string): Promise<any[]> {
  return (await ok('GET', `/v1/resource/${ids[resource]}/schedule?filter=date:gte:${from},and,date:lte:${to}`)).data;
}

async function deviationCount(resource: string): Promise<number> {
  return (await ok('GET', `/v1/resource/${ids[resource]}/schedule_deviation?limit=1000`)).data.length;
}

beforeAll(async () => {
  api = await startTestApi();
  ids.cut = (await ok('POST', '/v1/activity', { description: 'Cut', resource_type: 'employee' })).id;
  await board('Shop', 'Work', weekdays);
  await board('Weekend', 'Shift', { ...weekdays, '6': true });
  await board('Line', 'Make', weekdays);
  ids.Anna = (
    await ok('POST', '/v1/resource', { name: 'Anna', workdays: eightHours, boards: [link('Shop', 'Work'), link('Weekend', 'Shift')] })
  ).id;
  ids.Ben = (await ok('POST', '/v1/resource', { name: 'Ben', workdays: eightHours, boards: [link('Line', 'Make')] })).id;
  ids.tuesday = await deviation('Anna', { type: 'overtime', ...oneDay('2027-01-12'), time: 120 });
  ids.sick = await deviation('Anna', { type: 'sick', ...oneDay('2027-01-13'), time: 180 });
  ids.wednesday = await deviation('Anna', { type: 'overtime', ...oneDay('2027-01-13'), time: 60 });
  ids.vacation = await deviation('Anna', { type: 'vacation', ...oneDay('2027-01-14'), time: null });
  ids.thursday = await deviation('Anna', { type: 'overtime', ...oneDay('2027-01-14'), time: 90, description: 'Rush order' });
  ids.saturday = await deviation('Anna', { type: 'overtime', ...oneDay('2027-01-16'), time: 240 });
}, 120_000);

afterAll(async () => {
  await api?.close();
});

describe("a resource's schedule with overtime", () => {
  it('adds overtime to a workday, to a day off, and after an absence the same day', async () => {
    const week = await days('Anna', '2027-01-11', '2027-01-17');
    expect(week.map((d) => [d.date, d.scheduled, d.deviation, d.overtime, d.available])).toEqual([
      ['2027-01-11', 480, 0, 0, 480],
      ['2027-01-12', 480, 0, 120, 600],
      ['2027-01-13', 480, 180, 60, 360],
      ['2027-01-14', 480, 480, 90, 90],
      ['2027-01-15', 480, 0, 0, 480],
      ['2027-01-16', 0, 0, 240, 240],
      ['2027-01-17', 0, 0, 0, 0],
    ]);
    // The day names every deviation that covers it, the overtime too.
    expect(week[2].deviations.sort()).toEqual([ids.sick, ids.wednesday].sort());
  });

  it('never makes a day longer than 24 hours, and adds nothing before a resource starts', async () => {
    ids.Cas = (await ok('POST', '/v1/resource', { name: 'Cas', workdays: eightHours, start_date: '2027-02-02' })).id;
    await deviation('Cas', { type: 'overtime', start_date: '2027-02-01', end_date: '2027-02-02', time: 1000 });
    // Mon 02-01 is before Cas starts: nothing. Tue 02-02: 480 + 1000 would pass 1440, so 960 is added.
    expect((await days('Cas', '2027-02-01', '2027-02-02')).map((d) => [d.scheduled, d.overtime, d.available])).toEqual([
      [0, 0, 0],
      [480, 960, 1440],
    ]);
  });

  it('sums overtime in the period totals: per month and per day', async () => {
    const month = await ok('GET', `/v1/schedule/2027/1?filter=resource_id:eq:${ids.Anna}`);
    // January 2027 has 21 weekdays: 21 × 480 = 10,080; absences 180 + 480; overtime 120 + 60 + 90 + 240.
    expect(month.data[0]).toMatchObject({ scheduled: 10080, deviation: 660, overtime: 510, available: 10080 - 660 + 510 });
    const saturday = await ok('GET', `/v1/schedule/2027/1/16?filter=resource_id:eq:${ids.Anna}`);
    expect(saturday.data[0]).toMatchObject({ scheduled: 0, deviation: 0, overtime: 240, available: 240, deviations: [ids.saturday] });
  });

  it('lists overtime among the deviations as written, and filters on its type', async () => {
    const listed = await ok('GET', `/v1/resource/${ids.Anna}/schedule_deviation?filter=type:eq:overtime&sort=start_date:asc`);
    expect(listed.data.map((d: any) => [d.type, d.start_date, d.time])).toEqual([
      ['overtime', '2027-01-12', 120],
      ['overtime', '2027-01-13', 60],
      ['overtime', '2027-01-14', 90],
      ['overtime', '2027-01-16', 240],
    ]);
    expect(await ok('GET', `/v1/resource/${ids.Anna}/schedule_deviation/${ids.thursday}`)).toMatchObject({
      type: 'overtime',
      time: 90,
      description: 'Rush order',
      company_holiday_id: null,
    });
  });
});

describe('capacity and payroll with overtime', () => {
  it("counts overtime in a board's capacity on the board's workdays, the Saturday on a board that works it", async () => {
    const shop = await ok('GET', `/v1/board/${ids.Shop}/capacity/stage?date_range_start=2027-01-11&date_range_end=2027-01-16`);
    expect(shop.data.map((d: any) => [d.date, d.stage[0].time_available])).toEqual([
      ['2027-01-11', 480],
      ['2027-01-12', 600],
      ['2027-01-13', 360],
      ['2027-01-14', 90],
      ['2027-01-15', 480],
      // The Shop does not work Saturdays: Anna's overtime there is the Weekend board's.
      ['2027-01-16', 0],
    ]);
    const weekend = await ok('GET', `/v1/board/${ids.Weekend}/capacity/resource?date_range_start=2027-01-16&date_range_end=2027-01-16`);
    expect(weekend.data[0].resource.find((r: any) => r.id === ids.Anna).time_available).toBe(240);
  });

  it('is no absence in the payroll summary: only the sick and vacation minutes are', async () => {
    await ok('POST', '/v1/user', { email: 'anna@example.com', role: 'member' });
    const [user] = (await ok('GET', '/v1/user?filter=email:eq:anna@example.com')).data;
    await ok('PUT', `/v1/user/${user.id}`, { resource_id: ids.Anna });
    const summary = await ok('GET', '/v1/time_tracking/payroll?start=2027-01-11&end=2027-01-17&timezone=Europe/Amsterdam&per=week');
    const anna = summary.users.find((u: any) => u.user_id === user.id);
    expect(anna).toMatchObject({ scheduled_minutes: 5 * 480, absence_minutes: 180 + 480, expected_minutes: 5 * 480 - 660 });
  });
});

describe('refused overtime', () => {
  it.each([
    ['without time', {}],
    ['with time null', { time: null }],
    ['with time 0', { time: 0 }],
    ['with a fraction of a minute', { time: 1.5 }],
    ['with negative time', { time: -30 }],
    ['with time as text', { time: '60' }],
  ])('is a 422 on time %s, and writes nothing', async (_label, extra) => {
    const before = await deviationCount('Anna');
    const res = await api.http('POST', `/v1/resource/${ids.Anna}/schedule_deviation`, {
      type: 'overtime',
      ...oneDay('2027-01-15'),
      ...extra,
    });
    expectFieldErrors(res, ['time']);
    expect(await deviationCount('Anna')).toBe(before);
    expect((await days('Anna', '2027-01-15', '2027-01-15'))[0]).toMatchObject({ overtime: 0, available: 480 });
  });

  it('names time when overtime is missing it or has none, with the rule a form words it by', async () => {
    const res = await api.http('POST', `/v1/resource/${ids.Anna}/schedule_deviation`, { type: 'overtime', ...oneDay('2027-01-15') });
    expect(res.body.errors[0]).toMatchObject({
      field: 'time',
      rule: 'required',
      description: expect.stringMatching(/time is required for overtime/),
    });
    const none = await api.http('POST', `/v1/resource/${ids.Anna}/schedule_deviation`, {
      type: 'overtime',
      ...oneDay('2027-01-15'),
      time: 0,
    });
    // A form in hours words it as "more than 0".
    expect(none.body.errors[0]).toMatchObject({ field: 'time', rule: 'minimum', limit: 1 });
  });

  it('refuses an update that leaves overtime without minutes, or makes a whole-day absence overtime, and changes nothing', async () => {
    expectFieldErrors(await api.http('PUT', `/v1/resource/${ids.Anna}/schedule_deviation/${ids.tuesday}`, { time: null }), ['time']);
    expectFieldErrors(await api.http('PUT', `/v1/resource/${ids.Anna}/schedule_deviation/${ids.vacation}`, { type: 'overtime' }), ['time']);
    expect(await ok('GET', `/v1/resource/${ids.Anna}/schedule_deviation/${ids.tuesday}`)).toMatchObject({ type: 'overtime', time: 120 });
    expect(await ok('GET', `/v1/resource/${ids.Anna}/schedule_deviation/${ids.vacation}`)).toMatchObject({ type: 'vacation', time: null });
    const [tuesday, , thursday] = await days('Anna', '2027-01-12', '2027-01-14');
    expect([tuesday.available, thursday.available]).toEqual([600, 90]);
  });
});

describe('planning with overtime', () => {
  it('fits a card on a day it did not fit before, and moves the promise date earlier', async () => {
    const work = await ok('POST', '/v1/collection', { name: 'Frames', board_id: ids.Line, activities: [{ id: ids.cut, time: 600 }] });
    const plan = async () => {
      const answer = await ok('POST', `/v1/collection/${work.id}/board/${ids.Line}`, {
        start: '2027-01-18',
        capacity: 'finite',
        dry_run: true,
      });
      return answer.cards.map((c: any) => [c.start_date, c.end_date]);
    };
    const promise = async () =>
      (
        await ok('POST', `/v1/board/${ids.Line}/promise_dates`, {
          start: '2027-01-18',
          drafts: [{ key: 'frames', rows: [{ activity_id: ids.cut, duration: 600 }] }],
        })
      ).data;

    // Ben's 480 minutes on Monday are not enough for 600: Monday and Tuesday.
    expect(await plan()).toEqual([['2027-01-18', '2027-01-19']]);
    expect(await promise()).toEqual([{ key: 'frames', start: '2027-01-18', end: '2027-01-19' }]);

    await deviation('Ben', { type: 'overtime', ...oneDay('2027-01-18'), time: 120 });
    // 480 + 120 = 600: the card fits on Monday alone.
    expect(await plan()).toEqual([['2027-01-18', '2027-01-18']]);
    expect(await promise()).toEqual([{ key: 'frames', start: '2027-01-18', end: '2027-01-18' }]);
  });
});
