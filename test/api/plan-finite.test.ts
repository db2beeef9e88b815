/**
 * Finite-capacity planning, dry runs and reverse finite over real HTTP, worked out by hand
 * (docs/API.md "Finite-capacity planning").
 *
 * Board Shop (Mon–Fri), one stage Work allowing Cut. Anna works 8 h (480 min) a day, 100 % on
 * Work; a whole-day vacation on Thu 2027-03-04. The week is Mon 2027-03-01 … Fri 03-05.
 *
 * Existing load: collection Old, 1,080 min, planned infinite without resources from Mon 03-01:
 * 480 min a workday makes it Mon–Wed, which capacity counts as 360 min on each of the three days.
 *
 *   free:  Mon 120, Tue 120, Wed 120, Thu 0 (vacation), Fri 480, Mon 03-08 480, …
 *
 * First (300 min, finite from Mon): Mon alone gives 120; Mon–Tue 2 × 120 = 240; Mon–Wed 3 × 120
 * = 360 ≥ 300 → Mon 03-01 … Wed 03-03, 100 a day. Free after: Mon–Wed 20.
 * Second (600 min, finite from Mon): no run from Mon, Tue or Wed reaches 600 before Thu (0);
 * Fri alone 480; Fri–Mon 2 × 480 = 960 ≥ 600 → Fri 03-05 … Mon 03-08, 300 a day.
 *
 * Board Line (Mon–Fri), stage Make allowing Cut; Ben 8 h, 100 %; nothing planned.
 * Reverse 1,200 min ending Tue 03-02, not before Mon 03-01: at most 960 fit → 422; forward from
 * Mon: 3 × 480 ≥ 1,200 → Mon–Wed, so the earliest end is 2027-03-03.
 * Reverse 600 min ending Fri 03-12: Fri alone 480; Thu–Fri 960 ≥ 600 → Thu 03-11 … Fri 03-12.
 */
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../../electron/api/app.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { webhookEventTypes } from '../../shared/resources/webhook.js';
import { tempDir } from '../helpers/api.js';
import { startReceiver, type Receiver } from '../helpers/webhook-receiver.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let app: FastifyInstance;
let dataDir: DataDir;
let folder: string;
let environmentId: string;
let receiver: Receiver;
const headers = { 'x-api-key': 'finite-key-123', 'x-api-env': 'finite' };

async function call(method: string, url: string, body?: unknown): Promise<{ status: number; body: any; headers: Record<string, unknown> }> {
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { payload: JSON.stringify(body) } : {}),
  });
  return { status: response.statusCode, body: response.payload ? JSON.parse(response.payload) : null, headers: response.headers };
}

async function ok(method: string, url: string, body?: unknown): Promise<any> {
  const res = await call(method, url, body);
  expect(res.status, `${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

function rows(table: string): number {
  const db = dataDir.environment(environmentId).db;
  return (db.prepare(`SELECT count(*) AS n FROM "${table}"`).get() as { n: number }).n;
}

const weekdays = { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false };
const eightHours = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null };
const ids: Record<string, string> = {};

async function boardWithOneStage(name: string, stage: string, person: string): Promise<void> {
  const board = await ok('POST', '/v1/board?with=stages,statuses', {
    name,
    workdays: weekdays,
    statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
    stages: [{ name: stage, priority: 0, activities: [{ id: ids.cut, priority: 0 }] }],
  });
  ids[name] = board.id;
  ids[stage] = board.stages[0].id;
  ids[person] = (
    await ok('POST', '/v1/resource', {
      name: person,
      workdays: eightHours,
      boards: [{ id: board.id, active: true, stages: [{ id: board.stages[0].id, percentage: 100, active: true }] }],
    })
  ).id;
}

async function collection(name: string, minutes: number, board: string): Promise<string> {
  return (await ok('POST', '/v1/collection', { name, board_id: ids[board], activities: [{ id: ids.cut, time: minutes }] })).id;
}

function cardDates(answer: any): [string, string][] {
  return answer.cards.map((c: any) => [c.start_date, c.end_date]);
}

async function stageLoad(board: string, start: string, end: string): Promise<[string, number, number][]> {
  const answer = await ok('GET', `/v1/board/${ids[board]}/capacity/stage?date_range_start=${start}&date_range_end=${end}`);
  return answer.data.map((d: any) => [d.date, d.stage[0].time_available, d.stage[0].time_planned]);
}

beforeAll(async () => {
  folder = tempDir();
  dataDir = DataDir.open(folder);
  const environment = dataDir.system.ensureEnvironment('finite');
  environmentId = environment.id;
  dataDir.system.ensureApiKey(environment.id, headers['x-api-key']);
  app = await buildApi({ dataDir, allowPrivateWebhookTargets: true });
  await app.ready();
  receiver = await startReceiver();

  ids.cut = (await ok('POST', '/v1/activity', { description: 'Cut', resource_type: 'employee' })).id;
  await boardWithOneStage('Shop', 'Work', 'Anna');
  await ok('POST', `/v1/resource/${ids.Anna}/schedule_deviation`, {
    type: 'vacation',
    start_date: '2027-03-04',
    end_date: '2027-03-04',
    time: null,
  });
  await boardWithOneStage('Line', 'Make', 'Ben');
  ids.old = await collection('Old', 1080, 'Shop');
  await ok('POST', `/v1/collection/${ids.old}/board/${ids.Shop}`, { start: '2027-03-01' });
});

afterAll(async () => {
  await app?.close();
  await receiver?.close();
  dataDir?.close();
  rmSync(folder, { recursive: true, force: true });
});

describe('finite planning', () => {
  it('starts from the existing load: 120 free on Mon–Wed, nothing on the vacation day', async () => {
    expect(await stageLoad('Shop', '2027-03-01', '2027-03-05')).toEqual([
      ['2027-03-01', 480, 360],
      ['2027-03-02', 480, 360],
      ['2027-03-03', 480, 360],
      ['2027-03-04', 0, 0],
      ['2027-03-05', 480, 0],
    ]);
  });

  it('a dry run answers the plan and writes nothing: no card, change-log, outbox, webhook or command row', async () => {
    await ok('POST', '/v1/webhook', { url: receiver.url, event_types: webhookEventTypes, description: 'finite' });
    const tables = ['card', 'card_activity', 'change_log', 'sync_outbox', 'webhook_delivery', 'command', 'collection'];
    const before = Object.fromEntries(tables.map((t) => [t, rows(t)]));
    const id = await collection('Dry', 300, 'Shop');
    const counted = Object.fromEntries(tables.map((t) => [t, rows(t)]));
    expect(counted.webhook_delivery).toBeGreaterThan(before.webhook_delivery!);

    // Change events feed the renderer's refreshes and the live sync stream: a dry run sends none.
    const events: unknown[] = [];
    const stop = dataDir.environment(environmentId).onChange((sent) => events.push(...sent));
    const res = await call('POST', `/v1/collection/${id}/board/${ids.Shop}`, { start: '2027-03-01', capacity: 'finite', dry_run: true });
    stop();
    expect(events).toEqual([]);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.dry_run).toBe(true);
    expect(res.body.status).toBe('planned');
    expect([res.body.start, res.body.end]).toEqual(['2027-03-01', '2027-03-03']);
    expect(cardDates(res.body)).toEqual([['2027-03-01', '2027-03-03']]);
    expect(res.body.added_load).toEqual([
      { stage_id: ids.Work, date: '2027-03-01', minutes: 100 },
      { stage_id: ids.Work, date: '2027-03-02', minutes: 100 },
      { stage_id: ids.Work, date: '2027-03-03', minutes: 100 },
    ]);
    expect(res.headers['x-planner-command-id']).toBeUndefined();
    expect(Object.fromEntries(tables.map((t) => [t, rows(t)]))).toEqual(counted);
    expect((await ok('GET', `/v1/collection/${id}`)).status).toBe('not_planned');
    await ok('DELETE', `/v1/collection/${id}`);
  });

  it('places a card where the stage has room, stretched over the days with little free', async () => {
    ids.first = await collection('First', 300, 'Shop');
    const answer = await ok('POST', `/v1/collection/${ids.first}/board/${ids.Shop}`, { start: '2027-03-01', capacity: 'finite' });
    expect(cardDates(answer)).toEqual([['2027-03-01', '2027-03-03']]);
  });

  it('goes around the vacation day and the load', async () => {
    ids.second = await collection('Second', 600, 'Shop');
    const answer = await ok('POST', `/v1/collection/${ids.second}/board/${ids.Shop}`, { start: '2027-03-01', capacity: 'finite' });
    expect(cardDates(answer)).toEqual([['2027-03-05', '2027-03-08']]);
  });

  it('leaves no day of the plan window over 100 %', async () => {
    expect(await stageLoad('Shop', '2027-03-01', '2027-03-09')).toEqual([
      ['2027-03-01', 480, 460],
      ['2027-03-02', 480, 460],
      ['2027-03-03', 480, 460],
      ['2027-03-04', 0, 0],
      ['2027-03-05', 480, 300],
      ['2027-03-06', 0, 0],
      ['2027-03-07', 0, 0],
      ['2027-03-08', 480, 300],
      ['2027-03-09', 480, 0],
    ]);
  });

  it('a stage with no capacity at all is a 422 naming it', async () => {
    const board = await ok('POST', '/v1/board?with=stages,statuses', {
      name: 'Empty',
      workdays: weekdays,
      statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
      stages: [{ name: 'Nobody', priority: 0, activities: [{ id: ids.cut, priority: 0 }] }],
    });
    const id = (await ok('POST', '/v1/collection', { name: 'Stuck', board_id: board.id })).id;
    ids.stuck = id;
    const res = await call('POST', `/v1/collection/${id}/board/${board.id}`, { start: '2027-03-01', capacity: 'finite', force_stages: [] });
    // Without activities the card has no minutes, which fit anywhere.
    expect(res.status).toBe(200);
    await ok('PUT', `/v1/collection/${id}`, { activities: [{ id: ids.cut, time: 60 }] });
    const refused = await call('POST', `/v1/collection/${id}/board/${board.id}`, {
      start: '2027-03-01',
      capacity: 'finite',
      stage_id: board.stages[0].id,
    });
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toHaveLength(1);
    expect(refused.body.errors[0].field).toBe('capacity');
    expect(refused.body.errors[0].description).toContain('stage Nobody');
  });

  it('refuses an unknown capacity and a dry_run that is no boolean', async () => {
    const res = await call('POST', `/v1/collection/${ids.first}/board/${ids.Shop}`, { capacity: 'some', dry_run: 'yes' });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.field).sort()).toEqual(['capacity', 'dry_run']);
  });
});

/*
 * Parts: board Part (Mon–Fri), stage Shift allowing Cut; Cleo works Mon and Tue only, 8 h. Wed–Fri
 * have no room, so no single card of 1,200 min fits (two days give at most 960): Mon 03-01 … Tue
 * 03-02 takes 960 (2 × 480), the rest, 240, fits on Mon 03-08 alone.
 */
describe('finite parts', () => {
  it('splits a card around the days without room when no single card fits', async () => {
    const board = await ok('POST', '/v1/board?with=stages,statuses', {
      name: 'Part',
      workdays: weekdays,
      statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
      stages: [{ name: 'Shift', priority: 0, activities: [{ id: ids.cut, priority: 0 }] }],
    });
    await ok('POST', '/v1/resource', {
      name: 'Cleo',
      workdays: { '1': 8, '2': 8, '3': null, '4': null, '5': null, '6': null, '7': null },
      boards: [{ id: board.id, active: true, stages: [{ id: board.stages[0].id, percentage: 100, active: true }] }],
    });
    const id = (await ok('POST', '/v1/collection', { name: 'Long', board_id: board.id, activities: [{ id: ids.cut, time: 1200 }] })).id;
    const answer = await ok('POST', `/v1/collection/${id}/board/${board.id}?with=cards.activities`, {
      start: '2027-03-01',
      capacity: 'finite',
    });
    expect(answer.cards.map((c: any) => [c.start_date, c.end_date, c.activities.map((a: any) => a.time)])).toEqual([
      ['2027-03-01', '2027-03-02', [960]],
      ['2027-03-08', '2027-03-08', [240]],
    ]);
  });
});

describe('edge dates', () => {
  it('answers far-off starts and ends with a plan or a 422, never a 500, and writes nothing when refused', async () => {
    const id = await collection('Edge', 300, 'Line');
    for (const body of [
      { start: '9999-12-30', capacity: 'finite' },
      { start: '9999-12-30', capacity: 'finite', dry_run: true },
      { start: '0001-01-01', end: '9999-12-31', reverse: true, capacity: 'finite' },
      { start: '2027-03-01', end: '2027-02-01', reverse: true, capacity: 'finite', dry_run: true },
    ]) {
      const res = await call('POST', `/v1/collection/${id}/board/${ids.Line}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await ok('GET', `/v1/collection/${id}`)).status).toBe('not_planned');
    const promise = await call('POST', `/v1/board/${ids.Line}/promise_dates`, { collection_ids: [id], start: '9999-12-30' });
    expect(promise.status).toBe(422);
    await ok('DELETE', `/v1/collection/${id}`);
  });
});

describe('reverse finite', () => {
  it('ends as late as fits on the end date', async () => {
    const id = await collection('Late', 600, 'Line');
    const answer = await ok('POST', `/v1/collection/${id}/board/${ids.Line}`, {
      start: '2027-03-01',
      end: '2027-03-12',
      reverse: true,
      capacity: 'finite',
    });
    expect(cardDates(answer)).toEqual([['2027-03-11', '2027-03-12']]);
  });

  it('answers 422 with the earliest end that fits when nothing fits before the end', async () => {
    const id = await collection('Rush', 1200, 'Line');
    const res = await call('POST', `/v1/collection/${id}/board/${ids.Line}`, {
      start: '2027-03-01',
      end: '2027-03-02',
      reverse: true,
      capacity: 'finite',
    });
    expect(res.status).toBe(422);
    expect(res.body.errors).toEqual([
      {
        code: 10422,
        message: 'Unprocessable Content',
        field: 'end',
        description: 'No plan fits before Tue 2 Mar; the earliest end that fits is 2027-03-03.',
        earliest_end: '2027-03-03',
      },
    ]);
    expect((await ok('GET', `/v1/collection/${id}`)).status).toBe('not_planned');
  });
});

/*
 * Promise dates on Shop after the plans above (free: Mon–Wed 20, Thu 0, Fri 180, Mon 03-08 180,
 * Tue 03-09 on 480), forward from Mon 03-01:
 *   First (planned, 300): its own cards left out, so as before → Mon 03-01 … Wed 03-03;
 *   P1 (300): Fri 180 < 300; Fri–Mon 2 × 180 = 360 ≥ 300 → Fri 03-05 … Mon 03-08;
 *   P2 (900): ends by Mon 03-08 give at most 360; Tue–Wed 2 × 480 = 960 ≥ 900 → Tue 03-09 … Wed 03-10;
 *   infinite, P2: 480 a day → Mon 03-01 … Tue 03-02.
 * A draft of 5 hours of Cut is P1 again; a draft row of duration 900 is P2 again.
 */
describe('promise dates', () => {
  it('answers each collection as if it alone were planned now, and writes nothing', async () => {
    const p1 = await collection('P1', 300, 'Shop');
    const p2 = await collection('P2', 900, 'Shop');
    const before = ['card', 'change_log', 'command'].map(rows);
    const res = await call('POST', `/v1/board/${ids.Shop}/promise_dates`, {
      collection_ids: [ids.first, p1, p2],
      start: '2027-03-01',
      drafts: [
        { key: 'new order', rows: [{ activity_id: ids.cut, quantity: 5, unit: 'hours' }] },
        { key: 'big', rows: [{ activity_id: ids.cut, duration: 900 }] },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.data).toEqual([
      { collection_id: ids.first, start: '2027-03-01', end: '2027-03-03' },
      { collection_id: p1, start: '2027-03-05', end: '2027-03-08' },
      { collection_id: p2, start: '2027-03-09', end: '2027-03-10' },
      { key: 'new order', start: '2027-03-05', end: '2027-03-08' },
      { key: 'big', start: '2027-03-09', end: '2027-03-10' },
    ]);
    expect(['card', 'change_log', 'command'].map(rows)).toEqual(before);

    const infinite = await ok('POST', `/v1/board/${ids.Shop}/promise_dates`, {
      collection_ids: [p2],
      start: '2027-03-01',
      capacity: 'infinite',
    });
    expect(infinite.data).toEqual([{ collection_id: p2, start: '2027-03-01', end: '2027-03-02' }]);
  });

  it('names the stage that cannot take a collection, and refuses bad input with a 422 per field', async () => {
    const empty = (await ok('GET', `/v1/collection/${ids.stuck}`)).board_id;
    const answer = await ok('POST', `/v1/board/${empty}/promise_dates`, { collection_ids: [ids.stuck], start: '2027-03-01' });
    expect(answer.data).toHaveLength(1);
    expect(answer.data[0].collection_id).toBe(ids.stuck);
    expect(answer.data[0].error).toContain('stage Nobody');

    const res = await call('POST', `/v1/board/${ids.Shop}/promise_dates`, {
      collection_ids: [ids.first, '0190aaaa-0000-7000-8000-000000000000'],
      capacity: 'lots',
      drafts: [{ key: '', rows: [{ activity_id: ids.cut, quantity: -1 }] }],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.field).sort()).toEqual([
      'capacity',
      'collection_ids.1',
      'drafts.0.key',
      'drafts.0.rows.0.quantity',
    ]);
    expect((await call('POST', `/v1/board/0190aaaa-0000-7000-8000-000000000000/promise_dates`, { collection_ids: [] })).status).toBe(404);
  });
});

/*
 * Replanning on Line (Ben 480 a day; Late sits on Thu 03-11 … Fri 03-12). A (960, due 03-20) and
 * B (480, due 03-05) are planned infinite from Mon 03-01: A Mon–Tue, B Mon — Monday is 960/480.
 * Replanned finite as [A, B] from Mon 03-01, B goes first (earlier due date): with A still on
 * Mon–Tue, B fits Wed 03-03 alone. Then A, its own cards left out: Mon–Tue again (2 × 480).
 * (In the order given, A would take Tue–Wed around B on Monday, and B would stay on Monday.)
 */
describe('replan_collections', () => {
  it('re-plans finite in due-date order as one command, and one undo puts it all back', async () => {
    const a = (
      await ok('POST', '/v1/collection', {
        name: 'A',
        board_id: ids.Line,
        due_date: '2027-03-20',
        activities: [{ id: ids.cut, time: 960 }],
      })
    ).id;
    const b = (
      await ok('POST', '/v1/collection', {
        name: 'B',
        board_id: ids.Line,
        due_date: '2027-03-05',
        activities: [{ id: ids.cut, time: 480 }],
      })
    ).id;
    await ok('POST', `/v1/collection/${a}/board/${ids.Line}`, { start: '2027-03-01' });
    await ok('POST', `/v1/collection/${b}/board/${ids.Line}`, { start: '2027-03-01' });
    const datesOf = async (id: string) => cardDates(await ok('GET', `/v1/collection/${id}?with=cards`));
    expect([await datesOf(a), await datesOf(b)]).toEqual([[['2027-03-01', '2027-03-02']], [['2027-03-01', '2027-03-01']]]);

    // A dry run first: the same new plans, answered, and nothing written (no card, no command).
    const commandsBefore = rows('command');
    const dry = await call('POST', '/v1/command/replan_collections', {
      board_id: ids.Line,
      collection_ids: [a, b],
      start: '2027-03-01',
      dry_run: true,
    });
    expect(dry.status, JSON.stringify(dry.body)).toBe(200);
    expect(dry.body).toMatchObject({ command_id: null, changed: [], dry_run: true });
    expect(dry.body.data.map((c: any) => [c.id, c.end])).toEqual([
      [b, '2027-03-03'],
      [a, '2027-03-02'],
    ]);
    expect(rows('command')).toBe(commandsBefore);
    expect([await datesOf(a), await datesOf(b)]).toEqual([[['2027-03-01', '2027-03-02']], [['2027-03-01', '2027-03-01']]]);

    const res = await call('POST', '/v1/command/replan_collections', { board_id: ids.Line, collection_ids: [a, b], start: '2027-03-01' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.description).toBe('Replan 2 collections');
    expect(res.body.data.map((c: any) => [c.id, cardDates(c)])).toEqual([
      [b, [['2027-03-03', '2027-03-03']]],
      [a, [['2027-03-01', '2027-03-02']]],
    ]);
    expect([await datesOf(a), await datesOf(b)]).toEqual([[['2027-03-01', '2027-03-02']], [['2027-03-03', '2027-03-03']]]);
    expect((await stageLoad('Line', '2027-03-01', '2027-03-03')).map(([, available, planned]) => planned <= available)).toEqual([
      true,
      true,
      true,
    ]);

    await ok('POST', `/v1/command/${res.body.command_id}/undo`);
    expect([await datesOf(a), await datesOf(b)]).toEqual([[['2027-03-01', '2027-03-02']], [['2027-03-01', '2027-03-01']]]);
  });

  it('refuses unknown collections and a missing board with a 422 each, writing nothing', async () => {
    const before = rows('command');
    const res = await call('POST', '/v1/command/replan_collections', {
      board_id: '0190aaaa-0000-7000-8000-000000000000',
      collection_ids: [ids.first, '0190aaaa-0000-7000-8000-000000000001'],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.field).sort()).toEqual(['board_id', 'collection_ids.1']);
    expect(rows('command')).toBe(before);
  });
});
