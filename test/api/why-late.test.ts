/**
 * Why late (docs/API.md "Why late") over real HTTP, on a small data set written here so each
 * sentence can be checked by hand. Today is T (the run's fixed day); the board works every day
 * of the week, so T+n is n workdays on whatever day T is. Each person has 8 h a day.
 *
 *   board Shop, every day a workday; stages Saw (1), Weld (2), Paint (3)
 *   Anna: Saw 100 %        Ben: Weld 100 %, away T … T+2        Cees: Paint 100 %
 *
 *   FILL-SAW   no due; Saw card T … T+3, 960 min (4 h a day)     Saw: 4 h free a day, T … T+3
 *   FILL-PAINT no due; Paint card T … T+3, 1,920 min, Cees        Paint: full T … T+3
 *
 *   SO-PAST    due T-1; Saw card T+1                        → past_due: the due date has passed
 *   SO-CHAIN   due T+3; Saw card T+1 … T+3, Weld card T+4   → work_before: Saw ends T+3, no day left for Weld
 *   SO-FULL    due T+3; Paint card T+5, 480 min, Cees        → stage_full: Paint is full T … T+3
 *   SO-AWAY    due T+2; Weld card T+4, 480 min, Ben          → person_away: Ben is away T … T+2
 *   SO-ROOM    due T+1; Saw card T+5 … T+6, 960 min          → no_room: 4 h a day free fits 16 h by T+3
 *   SO-PLACED  due T+3; Saw card T+6, 480 min                → placed_late: 16 h free on Saw before T+3
 *   SO-FINE    due T+9; Saw card T+5                         → not late: not listed
 *   SO-PO      a sales order due T+3; Saw card T+5; its row is supplied by PO-9, promised T+4
 *                                                          → material: waiting for PO-9, expected T+4
 *
 * What would it take: SO-FULL lacks 8 h on Paint by T+3 → Cees 4 h overtime on T+2 and T+3;
 * SO-ROOM lacks 8 h on Saw by T+1 (16 h needed, 8 free) → Anna, the sawyer, 4 h on T and T+1;
 * SO-AWAY's only welder is away every day it could have had → nothing would.
 */
import { describe, expect, it } from 'vitest';
import { nowMs } from '../../shared/clock.js';
import { addDays, shortDay } from '../../shared/dates.js';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest, expectErrorBody } from '../helpers/api-errors.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

const everyDay = { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true };
const eightEveryDay = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': 8, '7': 8 };

let api: TestApi;
const id: Record<string, string> = {};
let T = '';
const day = (n: number) => addDays(T, n);
/** The Monday of a day's ISO week. */
const mondayOf = (date: string) => addDays(date, 1 - (new Date(`${date}T00:00:00Z`).getUTCDay() || 7));

async function post(path: string, body: unknown): Promise<any> {
  const res = await api.http('POST', path, body);
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

async function whyLate(query = ''): Promise<any> {
  const res = await api.http('GET', `/v1/why_late${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

useSeededApi(async (seeded) => {
  api = seeded;
  T = new Date(nowMs()).toISOString().slice(0, 10);
  const board = await post('/v1/board?with=stages', {
    name: 'Shop',
    workdays: everyDay,
    stages: [
      { name: 'Saw', priority: 1 },
      { name: 'Weld', priority: 2 },
      { name: 'Paint', priority: 3 },
    ],
    statuses: [{ name: 'Todo' }],
  });
  id.board = board.id;
  for (const name of ['Saw', 'Weld', 'Paint']) id[name] = board.stages.find((s: any) => s.name === name).id;
  id.work = (await post('/v1/activity', { description: 'Work' })).id;
  const person = async (name: string, stage: string) =>
    (
      await post('/v1/resource', {
        name,
        workdays: eightEveryDay,
        boards: [{ id: id.board, active: true, stages: [{ id: stage, percentage: 100, active: true }] }],
      })
    ).id;
  id.anna = await person('Anna', id.Saw!);
  id.ben = await person('Ben', id.Weld!);
  id.cees = await person('Cees', id.Paint!);
  await post(`/v1/resource/${id.ben}/schedule_deviation`, { type: 'vacation', start_date: day(0), end_date: day(2) });

  const collection = async (name: string, due?: string) =>
    (await post('/v1/collection', { name, board_id: id.board, ...(due ? { due_date: due } : {}) })).id as string;
  const card = async (collectionId: string, stage: string, start: number, end: number, minutes = 0, people: string[] = []) =>
    (
      await post(`/v1/collection/${collectionId}/card`, {
        stage_id: id[stage],
        start_date: day(start),
        end_date: day(end),
        ...(minutes ? { activities: [{ id: id.work, time: minutes }] } : {}),
        resources: people.map((p) => ({ id: p })),
      })
    ).id as string;

  await card(await collection('FILL-SAW'), 'Saw', 0, 3, 960);
  await card(await collection('FILL-PAINT'), 'Paint', 0, 3, 1920, [id.cees!]);
  id.past = await collection('SO-PAST', day(-1));
  await card(id.past, 'Saw', 1, 1);
  id.chain = await collection('SO-CHAIN', day(3));
  await card(id.chain, 'Saw', 1, 3);
  id.chainWeld = await card(id.chain, 'Weld', 4, 4);
  id.full = await collection('SO-FULL', day(3));
  id.fullCard = await card(id.full, 'Paint', 5, 5, 480, [id.cees!]);
  id.away = await collection('SO-AWAY', day(2));
  id.awayCard = await card(id.away, 'Weld', 4, 4, 480, [id.ben!]);
  id.room = await collection('SO-ROOM', day(1));
  id.roomCard = await card(id.room, 'Saw', 5, 6, 960);
  id.placed = await collection('SO-PLACED', day(3));
  id.placedCard = await card(id.placed, 'Saw', 6, 6, 480);
  id.fine = await collection('SO-FINE', day(9));
  await card(id.fine, 'Saw', 5, 5);

  const sales = await post('/v1/order?with=order_rows', {
    code: 'SO-PO',
    type: 'Sales',
    board_id: id.board,
    order_rows: [{ description: 'Table', quantity: 1 }],
  });
  id.po = sales.collection_id;
  expect((await api.http('PUT', `/v1/collection/${id.po}`, { due_date: day(3) })).status).toBe(200);
  await card(id.po!, 'Saw', 5, 5);
  await post('/v1/order', {
    code: 'PO-9',
    type: 'Purchase',
    promised_date: day(4),
    order_rows: [{ code: 'steel', supplies_order_rows: [{ id: sales.order_rows[0].id }] }],
  });
});

const byName = (body: any) => new Map<string, any>(body.data.map((l: any) => [l.collection.name, l]));

describe('GET /v1/why_late', () => {
  it('lists each late collection once, by the day it misses, and nothing on time', async () => {
    const body = await whyLate();
    expect(body.data.map((l: any) => l.collection.name)).toEqual([
      'SO-PAST',
      'SO-ROOM',
      'SO-AWAY',
      'SO-CHAIN',
      'SO-FULL',
      'SO-PLACED',
      'SO-PO',
    ]);
    expect(body.count).toBe(7);
  });

  it('material: SO-PO waits for PO-9, promised for T+4, after its due date', async () => {
    const late = (await whyLate()).data.find((l: any) => l.collection.id === id.po);
    expect(late.reason).toMatchObject({
      kind: 'material',
      text: `Waiting for PO-9, expected ${shortDay(day(4))}`,
      waiting_for: 'PO-9',
      to: day(4),
    });
    expect(late.what_it_takes).toBeNull();
  });

  it('past_due: SO-PAST should have ended yesterday', async () => {
    const late = byName(await whyLate()).get('SO-PAST');
    expect(late).toMatchObject({ missed_date: day(-1), missed: 'due_date', end: day(1), card_id: null });
    expect(late.reason).toMatchObject({ kind: 'past_due', text: `Its due date, ${shortDay(day(-1))}, has passed`, to: day(-1) });
  });

  it('work_before: Saw ends on T+3, the due date, which leaves Weld no workday', async () => {
    const late = byName(await whyLate()).get('SO-CHAIN');
    expect(late.card_id).toBe(id.chainWeld);
    expect(late.reason).toEqual({
      kind: 'work_before',
      text: `Saw ends on ${shortDay(day(3))}, which leaves Weld no workday before ${shortDay(day(3))}`,
      stage: { id: id.Weld, name: 'Weld' },
      resource: null,
      from: day(3),
      to: null,
      previous_stage: 'Saw',
      waiting_for: null,
      workdays: null,
    });
  });

  it('stage_full: Paint is full from T to T+3, the days SO-FULL could have had', async () => {
    const late = byName(await whyLate()).get('SO-FULL');
    expect(late.card_id).toBe(id.fullCard);
    expect(late.reason).toMatchObject({
      kind: 'stage_full',
      text: `Paint is full from ${shortDay(day(0))} to ${shortDay(day(3))}`,
      stage: { id: id.Paint, name: 'Paint' },
      from: day(0),
      to: day(3),
    });
  });

  it('person_away: Ben, the only welder, is away from T to T+2', async () => {
    const late = byName(await whyLate()).get('SO-AWAY');
    expect(late.reason).toMatchObject({
      kind: 'person_away',
      text: `Ben is away from ${shortDay(day(0))} to ${shortDay(day(2))}`,
      stage: { id: id.Weld, name: 'Weld' },
      resource: { id: id.ben, name: 'Ben' },
      from: day(0),
      to: day(2),
    });
  });

  it('no_room: Saw has 4 h a day free; SO-ROOM needs 16 h, which come together by T+3', async () => {
    const late = byName(await whyLate()).get('SO-ROOM');
    expect(late.reason).toMatchObject({
      kind: 'no_room',
      text: `Nothing fits on Saw before ${shortDay(day(3))} without overtime`,
      stage: { id: id.Saw, name: 'Saw' },
      to: day(3),
    });
  });

  it('placed_late: Saw has 16 h free before T+3 and SO-PLACED needs 8', async () => {
    const late = byName(await whyLate()).get('SO-PLACED');
    expect(late.reason).toMatchObject({
      kind: 'placed_late',
      text: `Saw has room for it before ${shortDay(day(3))}: it is planned later than it needs to be`,
      stage: { id: id.Saw, name: 'Saw' },
    });
  });

  it('bottlenecks: Paint and Ben in the week of T, Saw in the week SO-ROOM is due', async () => {
    const { bottlenecks } = await whyLate();
    const expected = [
      { week: mondayOf(day(0)), kind: 'stage', id: id.Paint, name: 'Paint', collections: 1 },
      { week: mondayOf(day(0)), kind: 'resource', id: id.ben, name: 'Ben', collections: 1 },
      { week: mondayOf(day(1)), kind: 'stage', id: id.Saw, name: 'Saw', collections: 1 },
    ];
    expect(bottlenecks).toHaveLength(3);
    expect(bottlenecks).toEqual(expect.arrayContaining(expected));
    // By week first.
    expect(bottlenecks.map((b: any) => b.week)).toEqual([...bottlenecks.map((b: any) => b.week)].sort());
  });

  it('answers for one collection, or one board; a collection on time lists nothing', async () => {
    const one = await whyLate(`?collection_id=${id.full}`);
    expect(one.data.map((l: any) => l.collection.id)).toEqual([id.full]);
    expect((await whyLate(`?board_id=${id.board}`)).count).toBe(7);
    expect(await whyLate(`?collection_id=${id.fine}`)).toEqual({ data: [], count: 0, bottlenecks: [] });
  });

  it('refuses a malformed id with a 400 and answers 404 for one that is not there', async () => {
    expectBadRequest(await api.http('GET', '/v1/why_late?board_id=shop'), 'board_id');
    expectBadRequest(await api.http('GET', '/v1/why_late?collection_id=1'), 'collection_id');
    expect((await api.http('GET', '/v1/why_late?collection_id=0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b')).status).toBe(404);
  });
});

describe('what would it take?', () => {
  it('SO-FULL: Cees 4 h overtime on T+2 and T+3; SO-ROOM: Anna 4 h on T and T+1', async () => {
    const late = byName(await whyLate());
    expect(late.get('SO-FULL').what_it_takes).toEqual({
      minutes: 480,
      overtime: [
        { resource_id: id.cees, name: 'Cees', date: day(2), minutes: 240 },
        { resource_id: id.cees, name: 'Cees', date: day(3), minutes: 240 },
      ],
    });
    expect(late.get('SO-ROOM').what_it_takes).toEqual({
      minutes: 480,
      overtime: [
        { resource_id: id.anna, name: 'Anna', date: day(0), minutes: 240 },
        { resource_id: id.anna, name: 'Anna', date: day(1), minutes: 240 },
      ],
    });
  });

  it('nothing when the only person is away, when room is not what binds, or when there is room', async () => {
    const late = byName(await whyLate());
    for (const name of ['SO-AWAY', 'SO-PAST', 'SO-CHAIN', 'SO-PLACED']) expect(late.get(name).what_it_takes, name).toBeNull();
  });

  it('added in one command, it gives SO-FULL its room; one undo takes it back', async () => {
    const { overtime } = byName(await whyLate()).get('SO-FULL').what_it_takes;
    const added = await api.http('POST', '/v1/command/add_overtime', {
      overtime: overtime.map(({ name: _name, ...day }: any) => day),
    });
    expect(added.status, JSON.stringify(added.body)).toBe(200);
    expect(added.body.description).toBe('Add 8 h of overtime');
    expect(added.body.changed.map((c: any) => c.resource)).toEqual(['schedule_deviation', 'schedule_deviation']);
    const deviations = (await api.http('GET', `/v1/resource/${id.cees}/schedule_deviation`)).body.data;
    expect(deviations.map((d: any) => [d.type, d.start_date, d.time]).sort()).toEqual([
      ['overtime', day(2), 240],
      ['overtime', day(3), 240],
    ]);
    expect(byName(await whyLate()).get('SO-FULL').reason.kind).toBe('placed_late');

    const undone = await api.http('POST', `/v1/command/${added.body.command_id}/undo`);
    expect(undone.status, JSON.stringify(undone.body)).toBe(200);
    expect((await api.http('GET', `/v1/resource/${id.cees}/schedule_deviation`)).body.data).toEqual([]);
    expect(byName(await whyLate()).get('SO-FULL').reason.kind).toBe('stage_full');
  });

  it('refuses a person not there or minutes out of range with a 422 naming the item, and writes nothing', async () => {
    const unknown = await api.http('POST', '/v1/command/add_overtime', {
      overtime: [
        { resource_id: id.cees, date: day(2), minutes: 240 },
        { resource_id: '0190a5b2-7c3d-7e4f-8a9b-0c1d2e3f4a5b', date: day(2), minutes: 240 },
      ],
    });
    expect(unknown.status, JSON.stringify(unknown.body)).toBe(422);
    expectErrorBody(unknown.body, 10422, 'Unprocessable Content');
    expect(unknown.body.errors.map((e: any) => e.field)).toEqual(['overtime.1.resource_id']);
    const zero = await api.http('POST', '/v1/command/add_overtime', { overtime: [{ resource_id: id.cees, date: day(2), minutes: 0 }] });
    expect(zero.status).toBe(422);
    expect(zero.body.errors[0].field).toBe('overtime.0.minutes');
    expect((await api.http('GET', `/v1/resource/${id.cees}/schedule_deviation`)).body.data).toEqual([]);
  });
});
