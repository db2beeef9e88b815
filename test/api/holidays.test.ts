/**
 * Company holidays over real HTTP (docs/API.md "Absences and holidays"), with capacity worked
 * out by hand.
 *
 * The fixture — board Shop, Mon–Fri, one stage Assembly (efficiency 100):
 *
 *   Anna  Mon–Fri 8 h   Assembly 100 %   group Day shift
 *   Ben   Mon–Fri 8 h   Assembly  50 %   group Day shift
 *   Cara  Mon–Fri 6 h   Assembly 100 %
 *
 * Assembly on an ordinary day: 480 + 240 + 360 = 1080 minutes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { create, expectErrorBody, fullTime, get, officeWeek, otherEnvironment, update } from '../helpers/base-data.js';
import { expectForbidden, startRolesInstance, type RolesInstance } from '../helpers/signed-in.js';
import { createActivities, createBoard, createCollection, createResource, plan } from '../helpers/planning.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
let boardId: string;
let stageId: string;
const res: Record<'anna' | 'ben' | 'cara', string> = {} as never;
let dayShift: string;

beforeAll(async () => {
  api = await startTestApi();
  const board = await create(api, '/v1/board?with=stages', { name: 'Shop', workdays: officeWeek, stages: [{ name: 'Assembly' }] });
  boardId = board.id;
  stageId = board.stages[0].id;
  const resource = async (name: string, hours: number, percentage: number) =>
    (
      await create(api, '/v1/resource', {
        name,
        workdays: Object.fromEntries(Object.entries(fullTime).map(([day, h]) => [day, h === null ? null : hours])),
        boards: [{ id: boardId, stages: [{ id: stageId, percentage }] }],
      })
    ).id as string;
  res.anna = await resource('Anna', 8, 100);
  res.ben = await resource('Ben', 8, 50);
  res.cara = await resource('Cara', 6, 100);
  dayShift = (await create(api, '/v1/group', { name: 'Day shift', resources: [{ id: res.anna }, { id: res.ben }] })).id;
});

afterAll(async () => {
  await api?.close();
});

/** Assembly's available minutes per day from `start` to `end`. */
async function assemblyPerDay(start: string, end: string): Promise<number[]> {
  const body = await get(api, `/v1/board/${boardId}/capacity/stage?date_range_start=${start}&date_range_end=${end}&time_frame=day`);
  return body.data.map((bucket: any) => bucket.stage.find((s: any) => s.id === stageId).time_available);
}

/** Every holiday deviation of each resource, as `date description`. */
async function holidaysOf(id: string): Promise<string[]> {
  const body = await get(api, `/v1/resource/${id}/schedule_deviation?filter=type:eq:holiday&limit=1000&sort=start_date:asc`);
  return body.data.map((d: any) => `${d.start_date}…${d.end_date} ${d.description}`);
}

async function deviationCount(): Promise<number> {
  let total = 0;
  for (const id of Object.values(res)) total += (await get(api, `/v1/resource/${id}/schedule_deviation?limit=0`)).count;
  return total;
}

describe('a company holiday', () => {
  it('for a group gives each member one whole-day deviation, and the stage loses their minutes that day', async () => {
    // Tue 2027-03-02: Anna's 480 and Ben's 240 go, Cara's 360 stays.
    expect(await assemblyPerDay('2027-03-01', '2027-03-03')).toEqual([1080, 1080, 1080]);
    const added = await api.http('POST', '/v1/schedule_deviation/holidays', {
      description: 'Shop outing',
      start_date: '2027-03-02',
      group_id: dayShift,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.resources).toBe(2);
    expect(added.body.data.map((d: any) => d.resource_id).sort()).toEqual([res.anna, res.ben].sort());
    for (const d of added.body.data) {
      expect(d).toMatchObject({
        type: 'holiday',
        description: 'Shop outing',
        start_date: '2027-03-02',
        end_date: '2027-03-02',
        time: null,
      });
    }
    expect(await assemblyPerDay('2027-03-01', '2027-03-03')).toEqual([1080, 360, 1080]);
  });

  it('for everyone, part of a day, takes its minutes from every resource; the change log carries the one company holiday', async () => {
    const since = (await api.inject('GET', '/v1/sync/changes?since=0&limit=5000')).body.cursor;
    // Thu 2027-03-04, 120 min off: Anna 480 − 120 = 360, Ben (480 − 120) × 50 % = 180, Cara 360 − 120 = 240.
    const added = await api.http('POST', '/v1/schedule_deviation/holidays', {
      description: 'Afternoon off',
      start_date: '2027-03-04',
      end_date: '2027-03-04',
      time: 120,
    });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data).toHaveLength(3);
    expect(added.body.company_holidays).toMatchObject([{ description: 'Afternoon off', group_id: null, time: 120 }]);
    expect(await assemblyPerDay('2027-03-04', '2027-03-04')).toEqual([780]);
    const changes = (await api.inject('GET', `/v1/sync/changes?since=${since}&limit=5000`)).body.changes;
    expect(changes.filter((c: any) => c.resource === 'schedule_deviation')).toEqual([]);
    expect(changes.filter((c: any) => c.resource === 'company_holiday').map((c: any) => c.id)).toEqual([added.body.company_holidays[0].id]);
  });

  it('is not given twice to a resource that has it already', async () => {
    const again = await api.http('POST', '/v1/schedule_deviation/holidays', { description: 'Shop outing', start_date: '2027-03-02' });
    expect(again.status).toBe(201);
    // Anna and Ben have it from the group; only Cara gets it now, and the day is off for all.
    expect(again.body.data.map((d: any) => d.resource_id)).toEqual([res.cara]);
    expect(await holidaysOf(res.anna)).toEqual(['2027-03-02…2027-03-02 Shop outing', '2027-03-04…2027-03-04 Afternoon off']);
    expect(await assemblyPerDay('2027-03-02', '2027-03-02')).toEqual([0]);
    const listed = (await get(api, '/v1/schedule_deviation/holidays')).data;
    expect(listed.find((h: any) => h.description === 'Shop outing').resource_ids).toHaveLength(3);
  });

  it('is deleted from every resource by its description and first day', async () => {
    const gone = await api.http(
      'DELETE',
      `/v1/schedule_deviation/holidays?description=${encodeURIComponent('Shop outing')}&start_date=2027-03-02`,
    );
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    expect(gone.body.deleted).toBe(3);
    expect(await assemblyPerDay('2027-03-02', '2027-03-02')).toEqual([1080]);
    const again = await api.http('DELETE', `/v1/schedule_deviation/holidays?description=Shop%20outing&start_date=2027-03-02`);
    expect(again.status).toBe(404);
    expectErrorBody(again.body, 'Not Found');
  });

  it.each([
    ['no description', { start_date: '2027-04-01' }, 'description'],
    ['a start that is no date', { description: 'X', start_date: '2027-02-30' }, 'start_date'],
    ['an end before the start', { description: 'X', start_date: '2027-04-02', end_date: '2027-04-01' }, 'end_date'],
    ['minutes over a day', { description: 'X', start_date: '2027-04-01', time: 1441 }, 'time'],
    ['an unknown group', { description: 'X', start_date: '2027-04-01', group_id: '0190c6a0-0000-7000-8000-000000000000' }, 'group_id'],
    ['a group and resources', { description: 'X', start_date: '2027-04-01', group_id: 'x', resource_ids: [] }, 'group_id'],
    [
      'an unknown resource',
      { description: 'X', start_date: '2027-04-01', resource_ids: ['0190c6a0-0000-7000-8000-000000000000'] },
      'resource_ids',
    ],
  ])('refuses %s with 422 on the field and writes nothing', async (_label, body, field) => {
    const before = await deviationCount();
    const refused = await api.http('POST', '/v1/schedule_deviation/holidays', body);
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expectErrorBody(refused.body, 'Unprocessable Content');
    expect(refused.body.errors.map((e: any) => e.field)).toContain(field);
    expect(await deviationCount()).toBe(before);
  });
});

/** A small calendar as a public-holiday feed publishes it: all-day events, one yearly rule. */
const holidayFeed = [
  'BEGIN:VCALENDAR',
  'VERSION:2.0',
  'PRODID:-//Shop//Holidays//EN',
  'BEGIN:VEVENT',
  'UID:new-year-2027@shop',
  'DTSTAMP:20261101T000000Z',
  'DTSTART;VALUE=DATE:20270101',
  'DTEND;VALUE=DATE:20270102',
  "SUMMARY:New Year's Day",
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:easter-monday-2027@shop',
  'DTSTAMP:20261101T000000Z',
  'DTSTART;VALUE=DATE:20270329',
  'DTEND;VALUE=DATE:20270330',
  'SUMMARY:Easter Monday',
  'END:VEVENT',
  'BEGIN:VEVENT',
  'UID:christmas@shop',
  'DTSTAMP:20261101T000000Z',
  'DTSTART;VALUE=DATE:20201225',
  'DTEND;VALUE=DATE:20201227',
  'RRULE:FREQ=YEARLY',
  'SUMMARY:Christmas',
  'END:VEVENT',
  'END:VCALENDAR',
  '',
].join('\r\n');

describe('importing holidays from an .ics file', () => {
  it('gives each resource the all-day events, and each yearly Christmas in the two years from `from`', async () => {
    const imported = await api.http('POST', '/v1/schedule_deviation/holidays/ics', { ics: holidayFeed, from: '2027-01-01' });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    // New Year, Easter Monday, Christmas 2027 and 2028 (two days each: DTEND is exclusive).
    expect(imported.body).toMatchObject({ holidays: 4, resources: 3 });
    expect(imported.body.data).toHaveLength(12);
    expect((await holidaysOf(res.cara)).filter((h) => !h.includes('Afternoon off'))).toEqual([
      "2027-01-01…2027-01-01 New Year's Day",
      '2027-03-29…2027-03-29 Easter Monday',
      '2027-12-25…2027-12-26 Christmas',
      '2028-12-25…2028-12-26 Christmas',
    ]);
    // Easter Monday 2027 is a Monday: Assembly has nothing that day, and the days around it are whole.
    expect(await assemblyPerDay('2027-03-26', '2027-03-30')).toEqual([1080, 0, 0, 0, 1080]);
    const again = await api.http('POST', '/v1/schedule_deviation/holidays/ics', { ics: holidayFeed, from: '2027-01-01' });
    expect(again.body.data).toHaveLength(0);
  });

  it('imports for a group only', async () => {
    const feed = holidayFeed.replace('20270329', '20270405').replace('20270330', '20270406').replace('Easter Monday', 'Spring day');
    const imported = await api.http('POST', '/v1/schedule_deviation/holidays/ics', { ics: feed, from: '2027-04-01', group_id: dayShift });
    expect(imported.status, JSON.stringify(imported.body)).toBe(201);
    // Spring day and the two Christmases are in the window; the Christmases are there already.
    expect(imported.body).toMatchObject({ holidays: 3, resources: 2 });
    expect(imported.body.data.map((d: any) => `${d.start_date} ${d.description}`)).toEqual([
      '2027-04-05 Spring day',
      '2027-04-05 Spring day',
    ]);
    expect(await assemblyPerDay('2027-04-05', '2027-04-05')).toEqual([360]);
  });

  it.each([
    ['text that is no iCalendar', 'hello, holidays', 'not an iCalendar file'],
    [
      'a calendar that never ends',
      'BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART;VALUE=DATE:20270101\r\nEND:VEVENT\r\n',
      'not an iCalendar file',
    ],
    ['a date that is no date', holidayFeed.replace('20270329', '2027ab29'), 'event 2'],
    ['a timed event', holidayFeed.replace('DTSTART;VALUE=DATE:20270329', 'DTSTART:20270329T090000Z'), 'Easter Monday'],
    [
      'a calendar with no event in the window',
      holidayFeed.replace('RRULE:FREQ=YEARLY\r\n', '').replace(/2027(\d{4})/g, '2019$1'),
      'no all-day event',
    ],
  ])('refuses %s with 422 naming the problem, and writes nothing', async (_label, ics, mention) => {
    const before = await deviationCount();
    const refused = await api.http('POST', '/v1/schedule_deviation/holidays/ics', { ics, from: '2027-01-01' });
    expect(refused.status, JSON.stringify(refused.body)).toBe(422);
    expectErrorBody(refused.body, 'Unprocessable Content');
    expect(refused.body.errors[0].field).toBe('ics');
    expect(refused.body.errors[0].description).toContain(mention);
    expect(await deviationCount()).toBe(before);
  });

  it('refuses a file over 1 MB with 413', async () => {
    const big = holidayFeed.replace('SUMMARY:Christmas', `SUMMARY:Christmas\r\nDESCRIPTION:${'x'.repeat(1024 * 1024)}`);
    const refused = await api.http('POST', '/v1/schedule_deviation/holidays/ics', { ics: big, from: '2027-01-01' });
    expect(refused.status).toBe(413);
    expectErrorBody(refused.body, 'Payload Too Large');
  });
});

describe('a company holiday belongs to the company', () => {
  // Dirk is hired after the holidays below are entered: Mon–Fri 8 h on Assembly at 100 %.
  let dirk: string;
  const hire = async () =>
    (await create(api, '/v1/resource', { name: 'Dirk', workdays: fullTime, boards: [{ id: boardId, stages: [{ id: stageId }] }] }))
      .id as string;
  const holidayFor = async (body: Record<string, unknown>) => {
    const added = await api.http('POST', '/v1/schedule_deviation/holidays', body);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    return added.body;
  };

  it('holds for a resource added after it: its schedule, the stage capacity and its deviations read it', async () => {
    // Wed 2027-05-05, for everyone, before Dirk is there.
    const added = await holidayFor({ description: 'Liberation Day', start_date: '2027-05-05' });
    expect(added).toMatchObject({ holidays: 1, resources: 3 });
    dirk = await hire();
    const [day] = (await get(api, `/v1/resource/${dirk}/schedule?filter=date:eq:2027-05-05`)).data;
    expect(day).toMatchObject({ scheduled: 480, deviation: 480, available: 0 });
    // Assembly with Dirk: 1080 + 480 = 1560 on an ordinary day, nothing on the holiday.
    expect(await assemblyPerDay('2027-05-04', '2027-05-06')).toEqual([1560, 0, 1560]);
    const listed = (
      await get(api, `/v1/resource/${dirk}/schedule_deviation?filter=start_date:gte:2027-05-01,and,start_date:lte:2027-05-31`)
    ).data;
    expect(listed).toEqual([
      expect.objectContaining({
        resource_id: dirk,
        type: 'holiday',
        description: 'Liberation Day',
        start_date: '2027-05-05',
        end_date: '2027-05-05',
        time: null,
        company_holiday_id: added.company_holidays[0].id,
      }),
    ]);
    // One id on every read: the schedule's day names it, and it reads by itself.
    expect(day.deviations).toEqual([listed[0].id]);
    expect(await get(api, `/v1/resource/${dirk}/schedule_deviation/${listed[0].id}`)).toEqual(listed[0]);
    // A resource's own deviations say they are its own.
    const own = await create(api, `/v1/resource/${dirk}/schedule_deviation`, {
      type: 'vacation',
      start_date: '2027-05-17',
      end_date: '2027-05-18',
    });
    expect(own.company_holiday_id).toBeNull();
  });

  it('is read-only as a resource has it: a PUT or DELETE of its deviation is a 422 naming company_holiday_id, and changes nothing', async () => {
    const path = `/v1/resource/${dirk}/schedule_deviation`;
    const [derived] = (await get(api, `${path}?filter=description:eq:'Liberation Day'`)).data;
    for (const refused of [
      await api.http('PUT', `${path}/${derived.id}`, { time: 60 }),
      await api.http('DELETE', `${path}/${derived.id}`),
    ]) {
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expectErrorBody(refused.body, 'Unprocessable Content');
      expect(refused.body.errors[0]).toMatchObject({ field: 'company_holiday_id' });
      expect(refused.body.errors[0].description).toContain('/v1/company_holiday/');
    }
    expect(await get(api, `${path}/${derived.id}`)).toEqual(derived);
    expect(await assemblyPerDay('2027-05-05', '2027-05-05')).toEqual([0]);
  });

  it('of a group holds for someone who joins the group later', async () => {
    // Wed 2027-05-12 for the day shift (Anna, Ben): Cara 360 and Dirk 480 are left.
    await holidayFor({ description: 'Team day', start_date: '2027-05-12', group_id: dayShift });
    expect(await assemblyPerDay('2027-05-12', '2027-05-12')).toEqual([840]);
    await update(api, `/v1/group/${dayShift}`, { resources: [{ id: res.anna }, { id: res.ben }, { id: res.cara }] });
    expect(await assemblyPerDay('2027-05-12', '2027-05-12')).toEqual([480]);
    const listed = (await get(api, '/v1/schedule_deviation/holidays')).data.find((h: any) => h.description === 'Team day');
    expect(listed).toMatchObject({ everyone: false, group_ids: [dayShift] });
    expect(listed.resource_ids.sort()).toEqual([res.anna, res.ben, res.cara].sort());
  });

  it('keeps copies made per resource counting once; entered again for everyone, it becomes the company’s and the copies go', async () => {
    // Thu 2027-05-06, two hours off, copied onto Anna, Ben and Cara one by one as before
    // company holidays: Assembly 360 + 180 + 240, and Dirk's 480 whole.
    const copied = await holidayFor({
      description: 'Ascension Day',
      start_date: '2027-05-06',
      time: 120,
      resource_ids: [res.anna, res.ben, res.cara],
    });
    expect(copied.company_holidays).toEqual([]);
    expect(await assemblyPerDay('2027-05-06', '2027-05-06')).toEqual([1260]);
    const made = await holidayFor({ description: 'Ascension Day', start_date: '2027-05-06', time: 120 });
    // Only Dirk gets it now; the others had it, and keep it once: 360 + 180 + 240 + 360.
    expect(made.data.map((d: any) => d.resource_id)).toEqual([dirk]);
    expect(await assemblyPerDay('2027-05-06', '2027-05-06')).toEqual([1140]);
    const annas = (await get(api, `/v1/resource/${res.anna}/schedule_deviation?filter=description:eq:'Ascension Day'`)).data;
    expect(annas).toEqual([expect.objectContaining({ company_holiday_id: made.company_holidays[0].id, time: 120 })]);
    const listed = (await get(api, '/v1/schedule_deviation/holidays')).data.find((h: any) => h.description === 'Ascension Day');
    expect(listed).toMatchObject({ everyone: true, company_holiday_ids: [made.company_holidays[0].id] });
    expect(listed.resource_ids).toHaveLength(4);
  });

  it('is kept when entered before there is any resource, and holds for the first one', async () => {
    const empty = otherEnvironment(api, 'no-resources-yet');
    const added = await empty.http('POST', '/v1/schedule_deviation/holidays', { description: 'Kingsday', start_date: '2027-04-27' });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body).toMatchObject({ data: [], holidays: 1, resources: 0 });
    expect((await get(empty, '/v1/company_holiday')).data).toEqual([expect.objectContaining({ description: 'Kingsday', group_id: null })]);
    const first = await create(empty, '/v1/resource', { name: 'First hire', workdays: fullTime });
    const [day] = (await get(empty, `/v1/resource/${first.id}/schedule?filter=date:eq:2027-04-27`)).data;
    expect(day).toMatchObject({ scheduled: 480, available: 0 });
  });

  it('holds in planning for a resource added after it: finite plans, promise dates and plans with the resource go around it', async () => {
    // Fri 2027-04-02 for everyone; then a board whose only person, Gus, is hired.
    await holidayFor({ description: 'Good Friday', start_date: '2027-04-02' });
    const acts = await createActivities(api, ['Glue']);
    const board = await createBoard(api, acts, { stages: [{ name: 'Gluing', activities: ['Glue'] }] });
    const gus = await createResource(api, { name: 'Gus', board: { ids: board, percentages: { Gluing: 100 } } });
    const order = await createCollection(api, board.id, acts, { Glue: 480 });
    const promised = await api.http('POST', `/v1/board/${board.id}/promise_dates`, { collection_ids: [order.id], start: '2027-04-02' });
    expect(promised.body.data).toEqual([{ collection_id: order.id, start: '2027-04-05', end: '2027-04-05' }]);
    const finite = await plan(api, order.id, board.id, { start: '2027-04-02', capacity: 'finite' });
    expect(finite.cards.map((c: any) => [c.start_date, c.end_date])).toEqual([['2027-04-05', '2027-04-05']]);
    // Planned with Gus named, infinite: his Friday gives nothing, so the card takes Monday too.
    const named = await plan(api, order.id, board.id, { start: '2027-04-02', resources: [gus] });
    expect(named.cards.map((c: any) => [c.start_date, c.end_date])).toEqual([['2027-04-02', '2027-04-05']]);
  });

  it('is deleted for everyone, the resource added later too', async () => {
    const gone = await api.http(
      'DELETE',
      `/v1/schedule_deviation/holidays?description=${encodeURIComponent('Liberation Day')}&start_date=2027-05-05`,
    );
    expect(gone.status, JSON.stringify(gone.body)).toBe(200);
    // Anna, Ben, Cara, and Dirk and Gus, both hired after it.
    expect(gone.body.deleted).toBe(5);
    expect(await assemblyPerDay('2027-05-05', '2027-05-05')).toEqual([1560]);
    expect((await get(api, `/v1/resource/${dirk}/schedule_deviation?filter=description:eq:'Liberation Day'`)).count).toBe(0);
  });
});

describe('who may add company holidays', () => {
  let roles: RolesInstance;

  beforeAll(async () => {
    roles = await startRolesInstance('holiday-roles');
    expect((await roles.byKey('POST', '/v1/resource', { name: 'Dora' })).status).toBe(201);
  });

  afterAll(async () => {
    await roles?.stop();
  });

  it('a guest gets 403 and nothing is written; a member adds them as they add any deviation', async () => {
    const body = { description: 'Founders day', start_date: '2027-06-01' };
    const guest = await roles.signIn('gus@example.com', 'guest');
    expectForbidden(await roles.as(guest)('POST', '/v1/schedule_deviation/holidays', body));
    expectForbidden(await roles.as(guest)('POST', '/v1/schedule_deviation/holidays/ics', { ics: holidayFeed }));
    expect((await roles.byKey('GET', '/v1/schedule_deviation/holidays')).body.data).toEqual([]);

    const member = await roles.signIn('mia@example.com', 'member');
    const added = await roles.as(member)('POST', '/v1/schedule_deviation/holidays', body);
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    expect(added.body.data).toHaveLength(1);
    expectForbidden(await roles.as(guest)('DELETE', `/v1/schedule_deviation/holidays?description=Founders%20day&start_date=2027-06-01`));
    expect((await roles.byKey('GET', '/v1/schedule_deviation/holidays')).body.data).toHaveLength(1);
  });
});
