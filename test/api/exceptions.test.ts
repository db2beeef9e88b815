/**
 * The exception inbox over real HTTP (docs/API.md "Exceptions"), one kind at a time, on a small
 * data set written here so each expectation can be checked by hand. Today is T (the run's fixed
 * day); the board works every day of the week, so "the next 10 workdays" are T … T+9 whatever
 * day T is.
 *
 *   board Shop, every day a workday; stages Saw (priority 1) and Paint (priority 2), dependent
 *   Anna: 8 h every day, Saw 100 %                Ben: 8 h every day, Paint 100 %
 *
 *   SO-1  due T+2; a Saw card T+3…T+4                          → late_collection (ends T+4)
 *   SO-2  Saw card T+5…T+6, Paint card T+5                     → broken_dependency (Paint may start T+7)
 *   SO-3  Saw card T+1, 600 minutes of Cut, Anna assigned      → over_capacity: Saw T+1 and Anna T+1,
 *                                                                10 h planned, 8 h available
 *   SO-4  due T+3, not planned                                 → unplanned_due
 *   SO-5  due T+20, not planned                                → nothing (beyond 10 workdays)
 *   Anna's timer started 12 h ago (forgotten after 10 h)        → timer_running, since 2 h ago
 *   Ben's timer started 1 h ago                                → nothing
 *   Ben's entry, pending since 8 days ago                      → approval_waiting, since 1 day ago
 *   Anna's entry, pending since 2 days ago                     → nothing
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ownHandlingMessage } from '../../electron/api/resources/exception-handling.js';
import { nowMs, startClockAt } from '../../shared/clock.js';
import { addDays } from '../../shared/dates.js';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { expectForbidden, startRolesInstance, type RolesInstance, type SignedInUser } from '../helpers/signed-in.js';
import { fixTheClock, runNow } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

const everyDay = { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': true };
const eightEveryDay = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': 8, '7': 8 };
const hourMs = 3_600_000;

let api: TestApi;
const id: Record<string, string> = {};
let T = '';
const day = (n: number) => addDays(T, n);

async function post(path: string, body: unknown): Promise<any> {
  const res = await api.http('POST', path, body);
  expect(res.status, `${path} ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

async function inbox(query = ''): Promise<any> {
  const res = await api.http('GET', `/v1/exception${query}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const iso = (ms: number) => new Date(ms).toISOString();

useSeededApi(async (seeded) => {
  api = seeded;
  T = new Date(nowMs()).toISOString().slice(0, 10);
  // The server's "today" is its own clock's date; the planners' zone does not shift it here.
  const board = await post('/v1/board?with=stages', {
    name: 'Shop',
    workdays: everyDay,
    stages: [
      { name: 'Saw', priority: 1 },
      { name: 'Paint', priority: 2 },
    ],
    statuses: [{ name: 'Todo' }],
  });
  id.board = board.id;
  id.saw = board.stages.find((s: any) => s.name === 'Saw').id;
  id.paint = board.stages.find((s: any) => s.name === 'Paint').id;
  id.cut = (await post('/v1/activity', { description: 'Cut' })).id;
  const resource = async (name: string, stage: string) =>
    (
      await post('/v1/resource', {
        name,
        workdays: eightEveryDay,
        boards: [{ id: id.board, active: true, stages: [{ id: stage, percentage: 100, active: true }] }],
      })
    ).id;
  id.anna = await resource('Anna', id.saw!);
  id.ben = await resource('Ben', id.paint!);

  const collection = async (name: string, extra: Record<string, unknown> = {}) =>
    (await post('/v1/collection', { name, board_id: id.board, ...extra })).id as string;
  const card = async (collectionId: string, body: Record<string, unknown>) =>
    (await post(`/v1/collection/${collectionId}/card`, body)).id as string;
  id.so1 = await collection('SO-1', { due_date: day(2) });
  id.so1card = await card(id.so1, { stage_id: id.saw, start_date: day(3), end_date: day(4) });
  id.so2 = await collection('SO-2');
  id.so2saw = await card(id.so2, { stage_id: id.saw, start_date: day(5), end_date: day(6) });
  id.so2paint = await card(id.so2, { stage_id: id.paint, start_date: day(5), end_date: day(5) });
  id.so3 = await collection('SO-3');
  id.so3card = await card(id.so3, {
    stage_id: id.saw,
    start_date: day(1),
    end_date: day(1),
    activities: [{ id: id.cut, time: 600 }],
    resources: [{ id: id.anna }],
  });
  id.so4 = await collection('SO-4', { due_date: day(3) });
  id.so5 = await collection('SO-5', { due_date: day(20) });

  await api.http('POST', '/v1/user', { email: 'anna@example.com', role: 'member', firstname: 'Anna' });
  await api.http('POST', '/v1/user', { email: 'ben@example.com', role: 'member', firstname: 'Ben' });
  const users = (await api.http('GET', '/v1/user?limit=100')).body.data;
  id.annaUser = users.find((u: any) => u.email === 'anna@example.com').id;
  id.benUser = users.find((u: any) => u.email === 'ben@example.com').id;

  const now = nowMs();
  id.annaTimer = (await post('/v1/time_tracking', { card_id: id.so3card, user_id: id.annaUser, start: iso(now - 12 * hourMs) })).id;
  id.benTimer = (await post('/v1/time_tracking', { card_id: id.so2paint, user_id: id.benUser, start: iso(now - hourMs) })).id;
  // Entries sent for approval 8 and 2 days ago: written while the clock stood then.
  const entryAt = async (daysAgo: number, userId: string) => {
    startClockAt(runNow() - daysAgo * 24 * hourMs);
    try {
      const start = nowMs() - 48 * hourMs;
      return (
        await post('/v1/time_tracking', {
          card_id: id.so1card,
          user_id: userId,
          start: iso(start),
          end: iso(start + 90 * 60_000),
          status: 'pending',
        })
      ).id;
    } finally {
      fixTheClock();
    }
  };
  id.benPending = await entryAt(8, id.benUser!);
  id.annaPending = await entryAt(2, id.annaUser!);
});

describe('GET /v1/exception, one kind at a time', () => {
  it('late_collection: SO-1 ends on T+4, after its due date T+2; fixed by opening it on the planboard or replanning finite', async () => {
    const body = await inbox('?kind=late_collection');
    expect(body.data.map((i: any) => i.record)).toEqual([{ resource: 'collection', id: id.so1, name: 'SO-1' }]);
    const [item] = body.data;
    expect(item).toMatchObject({ key: `late_collection:${id.so1}`, board_id: id.board, details: { end: day(4), due_date: day(2) } });
    expect(item.text).toMatch(/^SO-1 is planned to end on \w{3} \d+ \w{3}, after its due date \w{3} \d+ \w{3}$/);
    expect(item.since).toEqual(expect.any(String));
    expect(item.links).toEqual([
      { action: 'open_collection', collection_id: id.so1, board_id: id.board },
      {
        action: 'replan_finite',
        method: 'POST',
        path: '/v1/command/replan_collections',
        body: { board_id: id.board, collection_ids: [id.so1] },
      },
    ]);
  });

  it("broken_dependency: SO-2's Paint card starts on T+5, before Saw is done on T+6; it may start on T+7", async () => {
    const body = await inbox('?kind=broken_dependency');
    expect(body.data).toHaveLength(1);
    expect(body.data[0]).toMatchObject({
      key: `broken_dependency:${id.so2paint}`,
      record: { resource: 'card', id: id.so2paint, name: 'SO-2 · Paint' },
      date: day(5),
      details: { start: day(5), earliest: day(7), stage: 'Paint', previous_stage: 'Saw' },
    });
    expect(body.data[0].links[0]).toEqual({ action: 'open_card', card_id: id.so2paint, collection_id: id.so2, board_id: id.board });
  });

  it('over_capacity: Saw and Anna on T+1, 600 minutes planned against 480 available', async () => {
    const body = await inbox('?kind=over_capacity');
    expect(body.data.map((i: any) => [i.record.resource, i.record.name, i.date, i.details])).toEqual(
      [
        ['resource', 'Anna', day(1), { planned_minutes: 600, available_minutes: 480 }],
        ['stage', 'Saw', day(1), { planned_minutes: 600, available_minutes: 480 }],
      ].sort((a, b) =>
        `over_capacity:${a[0] === 'stage' ? id.saw : id.anna}` < `over_capacity:${b[0] === 'stage' ? id.saw : id.anna}` ? -1 : 1,
      ),
    );
    expect(body.data.find((i: any) => i.record.resource === 'stage').text).toMatch(
      /^Stage Saw is over capacity on .+: 10 h planned, 8 h available$/,
    );
  });

  it('over_capacity looks N workdays ahead: with a horizon of 1 workday (today only) nothing is over', async () => {
    expect((await inbox('?kind=over_capacity&horizon_workdays=1')).data).toEqual([]);
  });

  it('unplanned_due: SO-4 is due on T+3 and not planned; SO-5, due on T+20, is beyond 10 workdays', async () => {
    const body = await inbox('?kind=unplanned_due');
    expect(body.data.map((i: any) => [i.record.name, i.date])).toEqual([['SO-4', day(3)]]);
    expect(body.data[0].links.map((l: any) => l.action)).toEqual(['open_collection', 'replan_finite']);
    expect((await inbox('?kind=unplanned_due&horizon_workdays=21')).data.map((i: any) => i.record.name)).toEqual(['SO-4', 'SO-5']);
  });

  it("timer_running: Anna's timer, started 12 hours ago, forgotten after 10 since 2 hours ago; Ben's, 1 hour old, is not", async () => {
    const body = await inbox('?kind=timer_running');
    expect(body.data).toHaveLength(1);
    const [item] = body.data;
    expect(item.record).toMatchObject({ resource: 'time_tracking', id: id.annaTimer });
    expect(Date.parse(item.since)).toBeCloseTo(nowMs() - 2 * hourMs, -5);
    expect(item.links[0]).toEqual({ action: 'stop_timer', method: 'POST', path: `/v1/time_tracking/${id.annaTimer}/stop` });
  });

  it("approval_waiting: Ben's entry pending for 8 days, an exception since a day ago; Anna's, 2 days, is not", async () => {
    const body = await inbox('?kind=approval_waiting');
    expect(body.data.map((i: any) => i.record.id)).toEqual([id.benPending]);
    expect(Date.parse(body.data[0].since)).toBeCloseTo(runNow() - 24 * hourMs, -5);
    expect(body.data[0].links).toEqual([
      { action: 'approve', method: 'POST', path: '/v1/command/set_time_status', body: { entries: [id.benPending], status: 'approved' } },
    ]);
  });

  it('lists every kind in order, with counts per kind; board_id keeps to the board', async () => {
    const body = await inbox();
    expect(body.counts).toEqual({
      late_collection: 1,
      over_capacity: 2,
      broken_dependency: 1,
      material_late: 0,
      unplanned_due: 1,
      timer_running: 1,
      approval_waiting: 1,
      automation_notice: 0,
    });
    expect(body.count).toBe(7);
    expect(body.horizon_workdays).toBe(10);
    expect((await inbox(`?board_id=${id.board}`)).count).toBe(7);
  });

  it('a fix clears its item: stopping the timer takes timer_running away', async () => {
    const stop = await api.http('POST', `/v1/time_tracking/${id.annaTimer}/stop`, {});
    expect(stop.status, JSON.stringify(stop.body)).toBe(200);
    expect((await inbox('?kind=timer_running')).data).toEqual([]);
  });
});

describe('snoozed and seen, per user', () => {
  it("Anna snoozes SO-1 and marks SO-4 seen: both leave her inbox, Ben's keeps them; handled=true lists them flagged", async () => {
    await post('/v1/exception_handling', { user_id: id.annaUser, exception_key: `late_collection:${id.so1}`, snoozed_until: day(2) });
    await post('/v1/exception_handling', { user_id: id.annaUser, exception_key: `unplanned_due:${id.so4}`, seen: true });
    const anna = await inbox(`?user_id=${id.annaUser}`);
    expect(anna.data.map((i: any) => i.kind)).not.toContain('late_collection');
    expect(anna.data.map((i: any) => i.kind)).not.toContain('unplanned_due');
    const ben = await inbox(`?user_id=${id.benUser}`);
    expect(ben.counts.late_collection).toBe(1);
    expect(ben.counts.unplanned_due).toBe(1);
    const flagged = await inbox(`?user_id=${id.annaUser}&handled=true&kind=late_collection`);
    expect(flagged.data[0].handling).toMatchObject({ seen: false, snoozed_until: day(2) });
  });

  it('a snooze ends after its day: at T+3 the item is back', async () => {
    startClockAt(runNow() + 3 * 24 * hourMs);
    try {
      const anna = await inbox(`?user_id=${id.annaUser}&kind=unplanned_due&horizon_workdays=30`);
      // Seen stays seen (SO-4); SO-5, due on T+20, is within 30 workdays. The snooze of SO-1 (until T+2) is over.
      expect(anna.data.map((i: any) => i.record.name)).toEqual(['SO-5']);
      const late = await inbox(`?user_id=${id.annaUser}&kind=late_collection`);
      expect(late.data.map((i: any) => i.record.id)).toEqual([id.so1]);
    } finally {
      fixTheClock();
    }
  });

  it('one handling per user and key: a second for the same key is a 422', async () => {
    const res = await api.http('POST', '/v1/exception_handling', {
      user_id: id.annaUser,
      exception_key: `late_collection:${id.so1}`,
      seen: true,
    });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors[0]).toMatchObject({ code: 10423 });
  });

  it('a handling without a user, from a caller with none, is a 422 naming user_id', async () => {
    const res = await api.http('POST', '/v1/exception_handling', { exception_key: 'x', seen: true });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.errors.map((e: any) => e.field)).toContain('user_id');
  });
});

describe('bad input', () => {
  it.each([
    ['?kind=late', 'kind must be one of late_collection'],
    ['?board_id=nope', 'board_id must be a uuid'],
    ['?horizon_workdays=0', 'horizon_workdays must be a whole number from 1 to 260'],
    ['?horizon_workdays=2.5', 'horizon_workdays must be a whole number'],
    ['?handled=yes', 'handled must be true or false'],
    ['?user_id=42', 'user_id must be a uuid'],
  ])('%s is a 400 saying what is wrong', async (query, says) => {
    const res = await api.http('GET', `/v1/exception${query}`);
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 10400, 'Bad Request');
    expect(JSON.stringify(res.body)).toContain(says);
  });

  it('an unknown board is a 404', async () => {
    const res = await api.http('GET', '/v1/exception?board_id=01900000-0000-7000-8000-000000000000');
    expect(res.status).toBe(404);
    expectErrorBody(res.body, 10404, 'Not Found');
  });
});

describe('a signed-in user and their handling', () => {
  let roles: RolesInstance;
  let max: SignedInUser;
  let mia: SignedInUser;

  beforeAll(async () => {
    roles = await startRolesInstance('inbox');
    max = await roles.signIn('max@example.com', 'member');
    mia = await roles.signIn('mia@example.com', 'member');
  });

  afterAll(async () => {
    await roles?.stop();
  });

  it('snoozes for themselves (user_id left out is theirs), never for another user: 403 that writes nothing', async () => {
    const own = await roles.as(max)('POST', '/v1/exception_handling', { exception_key: 'unplanned_due:x', seen: true });
    expect(own.status, JSON.stringify(own.body)).toBe(201);
    expect(own.body.user_id).toBe(max.id);
    expectForbidden(
      await roles.as(max)('POST', '/v1/exception_handling', { user_id: mia.id, exception_key: 'k', seen: true }),
      ownHandlingMessage,
    );
    expectForbidden(await roles.as(mia)('PUT', `/v1/exception_handling/${own.body.id as string}`, { seen: false }), ownHandlingMessage);
    expectForbidden(await roles.as(mia)('DELETE', `/v1/exception_handling/${own.body.id as string}`), ownHandlingMessage);
    expect((await roles.byKey('GET', '/v1/exception_handling')).body.data.map((h: any) => h.user_id)).toEqual([max.id]);
  });

  it("reads their own inbox, not another user's: user_id of someone else is a 403", async () => {
    expect((await roles.as(max)('GET', '/v1/exception')).status).toBe(200);
    expectForbidden(await roles.as(max)('GET', `/v1/exception?user_id=${mia.id}`), ownHandlingMessage);
  });
});
