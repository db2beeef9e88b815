/**
 * KPIs with history over real HTTP (docs/API.md "KPIs"), on a small data set written here so
 * that each figure can be worked out by hand. The weeks are around New Year 2026/2027: ISO week
 * 52 of 2026 (Mon 21 – Sun 27 Dec), week 53 (Mon 28 Dec 2026 – Sun 3 Jan 2027, across the new
 * year) and week 1 of 2027 (Mon 4 – Sun 10 Jan). The clock is set by hand at each step.
 *
 *   board Shop, workdays Monday to Friday; stages Saw (1) and Paint (2); statuses Todo, Done (exit)
 *   Anna: 8 h Mon–Fri on Saw 100 %, a day off on Thu 31 Dec      Ben: 8 h Mon–Fri on Paint 100 %
 *   every record made on Sun 20 Dec
 *
 *   SO-1  order promised 29 Dec (later 2 Jan), due 30 Dec
 *         Saw   28–29 Dec, 240 min, done 29 Dec        Paint 30 Dec, 120 min, done 30 Dec
 *   SO-2  order promised 8 Jan, due 31 Dec
 *         Saw   29–31 Dec, 600 min, done 31 Dec        Paint 4 Jan, 180 min, done 5 Jan
 *   SO-3  due 3 Jan; Saw 30 Dec – 1 Jan, 300 min, not done
 *   SO-4  not planned, 900 min of Cut
 *   time booked: Anna 120 min on SO-1 Saw (28 Dec), Ben 90 min on SO-1 Paint (30 Dec),
 *                Anna 60 min on SO-2 Saw (4 Jan)
 *
 * Read on Wed 6 Jan 2027: weeks 52 and 53 are closed, week 1 is open.
 */
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startClockAt } from '../../shared/clock.js';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { startRolesInstance, type RolesInstance } from '../helpers/signed-in.js';

const at = (instant: string) => startClockAt(Date.parse(instant));

let api: TestApi;
const id: Record<string, string> = {};
const cardPath: Record<string, string> = {};

async function post(path: string, body: unknown): Promise<any> {
  const res = await api.http('POST', path, body);
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

async function put(path: string, body: unknown): Promise<any> {
  const res = await api.http('PUT', path, body);
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

async function kpi(query: string): Promise<any> {
  const res = await api.http('GET', `/v1/kpi?${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const weeks = () => `board_id=${id.board}&from=2026-12-21&to=2027-01-06`;
const ratio = (numerator: number, denominator: number, value: number | null) => ({ numerator, denominator, ratio: value });
const period = (body: any, start: string) => body.data.find((p: any) => p.period_start === start);
const stage = (figures: any, name: string) => figures.stages.find((s: any) => s.name === name);

useSeededApi(async (seeded) => {
  api = seeded;
  at('2026-12-20T09:00:00Z');
  const board = await post('/v1/board?with=stages,statuses', {
    name: 'Shop',
    workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false },
    stages: [
      { name: 'Saw', priority: 1 },
      { name: 'Paint', priority: 2 },
    ],
    statuses: [
      { name: 'Todo', entry: true, priority: 0 },
      { name: 'Done', exit: true, priority: 1 },
    ],
  });
  id.board = board.id;
  id.saw = board.stages.find((s: any) => s.name === 'Saw').id;
  id.paint = board.stages.find((s: any) => s.name === 'Paint').id;
  id.todo = board.statuses.find((s: any) => s.name === 'Todo').id;
  id.done = board.statuses.find((s: any) => s.name === 'Done').id;
  id.cut = (await post('/v1/activity', { description: 'Cut' })).id;
  const weekdays = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null };
  const resource = async (name: string, stageId: string) =>
    (
      await post('/v1/resource', {
        name,
        workdays: weekdays,
        boards: [{ id: id.board, active: true, stages: [{ id: stageId, percentage: 100, active: true }] }],
      })
    ).id as string;
  id.anna = await resource('Anna', id.saw!);
  id.ben = await resource('Ben', id.paint!);
  await post(`/v1/resource/${id.anna}/schedule_deviation`, { start_date: '2026-12-31', end_date: '2026-12-31' });
  await post('/v1/user', { email: 'anna@example.com', role: 'member', firstname: 'Anna' });
  await post('/v1/user', { email: 'ben@example.com', role: 'member', firstname: 'Ben' });
  const users = (await api.http('GET', '/v1/user?limit=100')).body.data;
  id.annaUser = users.find((u: any) => u.email === 'anna@example.com').id;
  id.benUser = users.find((u: any) => u.email === 'ben@example.com').id;

  const order1 = await post('/v1/order', { code: 'SO-1', board_id: id.board, promised_date: '2026-12-29' });
  id.order1 = order1.id;
  id.so1 = order1.collection_id;
  expect(order1.first_promised_date).toBe('2026-12-29');
  await put(`/v1/collection/${id.so1}`, { due_date: '2026-12-30' });
  await put(`/v1/order/${id.order1}`, { promised_date: '2027-01-02' });
  const order2 = await post('/v1/order', { code: 'SO-2', board_id: id.board, promised_date: '2027-01-08' });
  id.so2 = order2.collection_id;
  await put(`/v1/collection/${id.so2}`, { due_date: '2026-12-31' });
  id.so3 = (await post('/v1/collection', { name: 'SO-3', board_id: id.board, due_date: '2027-01-03' })).id;
  await post('/v1/collection', { name: 'SO-4', board_id: id.board, activities: [{ id: id.cut, time: 900 }] });

  const card = async (name: string, collection: string, stageId: string, start: string, end: string, minutes: number, who: string) => {
    const made = await post(`/v1/collection/${collection}/card`, {
      stage_id: stageId,
      start_date: start,
      end_date: end,
      activities: [{ id: id.cut, time: minutes }],
      resources: [{ id: who }],
    });
    id[name] = made.id;
    cardPath[name] = `/v1/collection/${collection}/card/${made.id as string}`;
  };
  await card('so1saw', id.so1!, id.saw!, '2026-12-28', '2026-12-29', 240, id.anna!);
  await card('so1paint', id.so1!, id.paint!, '2026-12-30', '2026-12-30', 120, id.ben!);
  await card('so2saw', id.so2!, id.saw!, '2026-12-29', '2026-12-31', 600, id.anna!);
  await card('so2paint', id.so2!, id.paint!, '2027-01-04', '2027-01-04', 180, id.ben!);
  await card('so3saw', id.so3!, id.saw!, '2026-12-30', '2027-01-01', 300, id.anna!);

  const book = async (user: string, cardId: string, start: string, minutes: number) =>
    post('/v1/time_tracking', { card_id: cardId, user_id: user, start, duration: minutes });
  const done = async (name: string) => put(cardPath[name]!, { status_id: id.done });
  at('2026-12-28T17:00:00Z');
  await book(id.annaUser!, id.so1saw!, '2026-12-28T08:00:00Z', 120);
  at('2026-12-29T16:00:00Z');
  await done('so1saw');
  at('2026-12-30T16:00:00Z');
  await done('so1paint');
  await book(id.benUser!, id.so1paint!, '2026-12-30T08:00:00Z', 90);
  at('2026-12-31T16:00:00Z');
  await done('so2saw');
  at('2027-01-04T17:00:00Z');
  await book(id.annaUser!, id.so2saw!, '2027-01-04T08:00:00Z', 60);
  at('2027-01-05T16:00:00Z');
  await done('so2paint');
});

describe('bad input: a 400 saying what is wrong, and nothing kept', () => {
  it.each([
    ['from=2026-12-21&to=2027-01-06', 'board_id is required'],
    ['board_id=nope&from=2026-12-21&to=2027-01-06', "board_id must be a uuid, got 'nope'"],
    ['BOARD&from=2027-01-06&to=2026-12-21', 'to (2026-12-21) may not be before from (2027-01-06)'],
    ['BOARD&from=2026-12-21&to=2027-01-06&time_frame=quarter', "time_frame must be one of week, month, got 'quarter'"],
    ['BOARD&from=2026-12-21', "to must be a date (YYYY-MM-DD), got ''"],
    ['BOARD&from=2026-12-32&to=2027-01-06', "from must be a date (YYYY-MM-DD), got '2026-12-32'"],
    ['BOARD&from=2025-01-01&to=2027-01-02', 'at most 2 years apart (to at most 2027-01-01)'],
    ['BOARD&from=9999-12-01&to=9999-12-31', "to must be before 9999-01-01, got '9999-12-31'"],
  ])('%s', async (query, says) => {
    at('2027-01-06T11:00:00Z');
    const res = await api.http('GET', `/v1/kpi?${query.replace('BOARD', `board_id=${id.board}`)}`);
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expectErrorBody(res.body, 10400, 'Bad Request');
    expect(JSON.stringify(res.body)).toContain(says);
  });

  it('an unknown board is a 404', async () => {
    const res = await api.http('GET', '/v1/kpi?board_id=01900000-0000-7000-8000-000000000000&from=2026-12-21&to=2027-01-06');
    expect(res.status).toBe(404);
    expectErrorBody(res.body, 10404, 'Not Found');
  });

  it('two years to the day is allowed', async () => {
    // Months still open, so that this read keeps nothing either.
    expect((await kpi(`board_id=${id.board}&from=2027-01-06&to=2029-01-06&time_frame=month`)).data).toHaveLength(25);
  });
});

describe('GET /v1/kpi by week, figures by hand', () => {
  let body: any;
  beforeAll(async () => {
    at('2027-01-06T12:00:00Z');
    body = await kpi(weeks());
  });

  it('answers whole ISO weeks from Monday, across the new year, closed before today', () => {
    expect(body.time_frame).toBe('week');
    expect(body.data.map((p: any) => [p.period_start, p.period_end, p.closed])).toEqual([
      ['2026-12-21', '2026-12-27', true],
      ['2026-12-28', '2027-01-03', true],
      ['2027-01-04', '2027-01-10', false],
    ]);
    // Kept on this read (the bad requests before it kept nothing); an open week has no snapshot.
    expect(body.data.map((p: any) => p.snapshot_taken_at?.slice(0, 13) ?? null)).toEqual(['2027-01-06T12', '2027-01-06T12', null]);
  });

  it('week 53: the board', () => {
    expect(period(body, '2026-12-28').figures.board).toEqual({
      finished: 1, // SO-1 on 30 Dec
      on_time_delivery: ratio(1, 1, 1), // due 30 Dec
      promise_reliability: ratio(0, 1, 0), // first promised 29 Dec (the later 2 Jan does not count)
      utilisation: {
        available_minutes: 4320, // Anna 4 × 480 (31 Dec off) + Ben 5 × 480
        planned_minutes: 1260, // Saw 240 + 600 + 300, Paint 120
        booked_minutes: 210, // 120 + 90
        planned: ratio(1260, 4320, 0.2917),
        booked: ratio(210, 4320, 0.0486),
      },
      work_in_progress: 2, // SO-2 (Paint done 5 Jan) and SO-3
      backlog: {
        planned_minutes: 480, // SO-2 Paint 180 + SO-3 Saw 300
        unplanned_minutes: 900, // SO-4
        weekly_available_minutes: 4320,
        weeks: ratio(1380, 4320, 0.3194),
      },
    });
  });

  it('week 53: by stage', () => {
    const figures = period(body, '2026-12-28').figures;
    expect(figures.stages.map((s: any) => s.name)).toEqual(['Saw', 'Paint']);
    const saw = stage(figures, 'Saw');
    expect(saw.stage_id).toBe(id.saw);
    expect([saw.finished, saw.on_time_delivery, saw.promise_reliability, saw.work_in_progress]).toEqual([
      2, // SO-1's Saw (29 Dec) and SO-2's (31 Dec)
      ratio(2, 2, 1),
      ratio(2, 2, 1), // 29 Dec ≤ 29 Dec, 31 Dec ≤ 8 Jan
      1, // SO-3
    ]);
    expect(saw.utilisation).toEqual({
      available_minutes: 1920,
      planned_minutes: 1140,
      booked_minutes: 120,
      planned: ratio(1140, 1920, 0.5938),
      booked: ratio(120, 1920, 0.0625),
    });
    expect(saw.backlog).toEqual({
      planned_minutes: 300,
      unplanned_minutes: null,
      weekly_available_minutes: 1920,
      weeks: ratio(300, 1920, 0.1563),
    });
    const paint = stage(figures, 'Paint');
    expect([paint.finished, paint.on_time_delivery, paint.promise_reliability, paint.work_in_progress]).toEqual([
      1,
      ratio(1, 1, 1),
      ratio(0, 1, 0),
      0, // SO-2's Paint starts 4 Jan
    ]);
    expect(paint.utilisation.booked_minutes).toBe(90);
    expect(paint.backlog.weeks).toEqual(ratio(180, 2400, 0.075));
  });

  it('week 53: by person', () => {
    const figures = period(body, '2026-12-28').figures;
    expect(figures.resources.map((r: any) => [r.name, r.available_minutes, r.planned_minutes, r.planned.ratio])).toEqual([
      ['Anna', 1920, 1140, 0.5938],
      ['Ben', 2400, 120, 0.05],
    ]);
    expect(figures.users).toEqual(
      [
        { user_id: id.annaUser, booked_minutes: 120 },
        { user_id: id.benUser, booked_minutes: 90 },
      ].sort((a, b) => a.user_id!.localeCompare(b.user_id!)),
    );
  });

  it('week 52: nothing started, the whole backlog waiting', () => {
    const board = period(body, '2026-12-21').figures.board;
    expect([board.finished, board.on_time_delivery, board.promise_reliability, board.work_in_progress]).toEqual([
      0,
      ratio(0, 0, null),
      ratio(0, 0, null),
      0,
    ]);
    expect(board.utilisation.available_minutes).toBe(4800);
    expect(board.utilisation.planned_minutes).toBe(0);
    expect(board.backlog.weeks).toEqual(ratio(2340, 4800, 0.4875)); // 1440 on cards + 900 not planned
  });

  it('week 1 (open): SO-2 late but as promised', () => {
    const board = period(body, '2027-01-04').figures.board;
    expect([board.finished, board.on_time_delivery, board.promise_reliability, board.work_in_progress]).toEqual([
      1,
      ratio(0, 1, 0), // 5 Jan after its due date 31 Dec
      ratio(1, 1, 1), // 5 Jan ≤ 8 Jan
      1, // SO-3
    ]);
    expect(board.utilisation).toMatchObject({ available_minutes: 4800, planned_minutes: 180, booked_minutes: 60 });
    expect(board.backlog.weeks).toEqual(ratio(1200, 4800, 0.25)); // SO-3 300 + SO-4 900
  });
});

describe('GET /v1/kpi?format=xlsx: the same figures as a workbook', () => {
  let workbook: ExcelJS.Workbook;
  let response: Response;
  beforeAll(async () => {
    at('2027-01-06T12:00:00Z');
    response = await fetch(`${api.baseUrl}/v1/kpi?${weeks()}&format=xlsx`, { headers: api.headers });
    workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(await response.arrayBuffer());
  });

  /** The cells of a sheet's row whose first or third cell says `key`, by header. */
  const row = (sheet: string, start: string, name?: string): Record<string, unknown> => {
    const ws = workbook.getWorksheet(sheet)!;
    // exceljs' row values are 1-based, with an empty first slot.
    const header = (ws.getRow(4).values as unknown[]).slice(1).map(String);
    for (let r = 5; r <= ws.rowCount; r++) {
      // As the header's: 1-based values, the first slot empty.
      const values = (ws.getRow(r).values as unknown[]).slice(1);
      const day = values[0] instanceof Date ? values[0].toISOString().slice(0, 10) : null;
      if (day === start && (name === undefined || values[2] === name)) return Object.fromEntries(header.map((h, i) => [h, values[i]]));
    }
    throw new Error(`no row ${start} ${name ?? ''} in ${sheet}`);
  };

  it('is a download named after the range', () => {
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(response.headers.get('content-disposition')).toBe('attachment; filename="kpi-2026-12-21-2027-01-06.xlsx"');
    expect(workbook.worksheets.map((ws) => ws.name)).toEqual(['Board', 'Stages', 'Resources']);
  });

  it("week 53's board figures are the JSON's (minutes as hours)", () => {
    const board = row('Board', '2026-12-28');
    expect(board).toMatchObject({
      Closed: 'yes',
      Finished: 1,
      'On-time delivery': 1,
      'Promise reliability': 0,
      'Available hours': 72, // 4320 min
      'Planned hours': 21, // 1260 min
      'Booked hours': 3.5, // 210 min
      'Utilisation planned': 0.2917,
      'Work in progress': 2,
      'Backlog hours': 23, // 1380 min
      'Backlog in weeks': 0.3194,
    });
    // Week 52 finished nothing: no ratio, an empty cell rather than 0.
    expect(row('Board', '2026-12-21')['On-time delivery']).toBeUndefined();
  });

  it('by stage and by person', () => {
    expect(row('Stages', '2026-12-28', 'Saw')).toMatchObject({
      Finished: 2,
      'Planned hours': 19,
      'Booked hours': 2,
      'Utilisation planned': 0.5938,
    });
    expect(row('Resources', '2026-12-28', 'Ben')).toMatchObject({ 'Available hours': 40, 'Planned hours': 2, 'Utilisation planned': 0.05 });
  });

  it('another format is a 400 and keeps nothing', async () => {
    const res = await api.http('GET', `/v1/kpi?${weeks()}&format=pdf`);
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 10400, 'Bad Request');
    expect(JSON.stringify(res.body)).toContain("format must be json or xlsx, got 'pdf'");
  });
});

describe('snapshots', () => {
  let before: any;
  beforeAll(async () => {
    at('2027-01-06T12:30:00Z');
    before = await kpi(weeks());
    // An old card edited after week 53 closed: SO-1's Paint back to Todo, so SO-1 is not finished.
    at('2027-01-06T13:00:00Z');
    await put(cardPath.so1paint!, { status_id: id.todo });
  });

  it("a closed week's figures stay as they were; the open week's follow the edit", async () => {
    const after = await kpi(weeks());
    expect(period(after, '2026-12-28')).toEqual(period(before, '2026-12-28'));
    expect(period(after, '2026-12-21')).toEqual(period(before, '2026-12-21'));
    const open = period(after, '2027-01-04').figures.board;
    expect(open.work_in_progress).toBe(2); // SO-1 again, and SO-3
    expect(open.backlog.weeks).toEqual(ratio(1320, 4800, 0.275)); // + SO-1 Paint's 120
  });

  it('a month is a period of its own: December, read first now, is kept with the edit in it', async () => {
    const months = await kpi(`board_id=${id.board}&from=2026-12-01&to=2027-01-31&time_frame=month`);
    expect(months.data.map((p: any) => [p.period_start, p.period_end, p.closed])).toEqual([
      ['2026-12-01', '2026-12-31', true],
      ['2027-01-01', '2027-01-31', false],
    ]);
    const december = months.data[0].figures.board;
    expect([december.finished, december.work_in_progress]).toEqual([0, 3]); // SO-1 no longer finished
  });

  it('when the week closes it is kept as it then is, and stays so', async () => {
    at('2027-01-11T09:00:00Z');
    const closed = period(await kpi(weeks()), '2027-01-04');
    expect(closed.closed).toBe(true);
    expect(closed.snapshot_taken_at.slice(0, 10)).toBe('2027-01-11');
    expect(closed.figures.board.work_in_progress).toBe(2);
    await put(cardPath.so1paint!, { status_id: id.done });
    expect(period(await kpi(weeks()), '2027-01-04')).toEqual(closed);
  });
});

describe('the date first promised', () => {
  it('is set by the server when promised_date is first set, and never changed after', async () => {
    at('2027-01-12T09:00:00Z');
    const order = await post('/v1/order', { code: 'SO-9', board_id: id.board, first_promised_date: '2020-01-01' });
    expect(order.first_promised_date).toBeNull();
    const promised = await put(`/v1/order/${order.id as string}`, { promised_date: '2027-02-01' });
    expect(promised.first_promised_date).toBe('2027-02-01');
    const later = await put(`/v1/order/${order.id as string}`, { promised_date: '2027-02-15', first_promised_date: '2027-03-01' });
    expect([later.promised_date, later.first_promised_date]).toEqual(['2027-02-15', '2027-02-01']);
    const cleared = await put(`/v1/order/${order.id as string}`, { promised_date: null });
    expect(cleared.first_promised_date).toBe('2027-02-01');
    expect((await put(`/v1/order/${order.id as string}`, { promised_date: '2027-03-01' })).first_promised_date).toBe('2027-02-01');
    expect((await put(`/v1/order/${id.order1}`, { note: 'Called' })).first_promised_date).toBe('2026-12-29');
  });
});

describe('guests', () => {
  let roles: RolesInstance;
  beforeAll(async () => {
    roles = await startRolesInstance('kpi');
  });
  afterAll(async () => {
    await roles?.stop();
  });

  it('read the KPIs of a board they may read', async () => {
    const guest = await roles.signIn('gus@example.com', 'guest');
    const board = await roles.byKey('POST', '/v1/board', { name: 'Guest board' });
    expect(board.status).toBe(201);
    const res = await roles.as(guest)('GET', `/v1/kpi?board_id=${board.body.id as string}&from=2026-12-21&to=2027-01-06`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toHaveLength(3);
  });
});
