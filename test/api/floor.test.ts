/**
 * The floor (docs/API.md "The floor"): an operator's jobs today, and Start, Pause, Finish and
 * quantities, each one command sent with the device's id, over real HTTP with real OAuth Bearer
 * tokens, on SQLite and (vitest's postgres project) on PostgreSQL.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../electron/api/oauth/clients.js';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';
import { notLinkedMessage, notYourJobMessage } from '../../electron/api/floor/floor.js';
import { addDays } from '../../shared/dates.js';
import { nowMs } from '../../shared/clock.js';
import { uuidv7 } from '../../shared/ids.js';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { call } from '../helpers/instance.js';
import { signInForCode, tokenRequest } from '../helpers/oauth-flow.js';
import { expectForbidden } from '../helpers/signed-in.js';
import { fixTheClock, testToday } from '../helpers/test-clock.js';

// Jobs are listed by the day: the tests run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

const password = 'pass-word-123';
const redirectUri = 'https://floor.example.com/callback';

let api: TestApi;
let ids: {
  board: string;
  todo: string;
  done: string;
  resource: string;
  activity: string;
  collection: string;
  card: string;
  tomorrowCard: string;
  otherCard: string;
  secondCard: string;
  row: string;
  otherRow: string;
  order: string;
};
const tokens: Record<'max' | 'mia', string> = { max: '', mia: '' };
const users: Record<'max' | 'mia', string> = { max: '', mia: '' };

async function made(path: string, body: unknown): Promise<any> {
  const res = await api.http('POST', path, body);
  expect(res.status, `POST ${path}: ${JSON.stringify(res.body)}`).toBe(201);
  return res.body;
}

useSeededApi(async (seeded) => {
  api = seeded;
  const resource = await made('/v1/resource', { name: 'Max' });
  const otherResource = await made('/v1/resource', { name: 'Mia' });
  const activity = await made('/v1/activity', { description: 'Welding', default_duration: 30 });
  const board = await made('/v1/board?with=stages,statuses', {
    name: 'Workshop',
    stages: [{ name: 'Welding' }, { name: 'Painting' }],
    statuses: [
      { name: 'Todo', entry: true, priority: 0 },
      { name: 'Done', exit: true, priority: 1 },
    ],
  });
  const [welding, painting] = [board.stages[0].id as string, board.stages[1].id as string];
  const order = await made('/v1/order?with=order_rows', {
    code: 'SO-1001',
    description: 'Frames',
    board_id: board.id,
    order_rows: [
      { code: 'F1', description: 'Frame', activity_id: activity.id, unit: 'pieces', quantity: 10 },
      { code: 'B1', description: 'Bolts' },
    ],
  });
  const frameRow = order.order_rows.find((r: any) => r.code === 'F1');
  const collection = order.collection_id as string;
  const card = (stage: string, start: string, end: string, resource: string, extra: Record<string, unknown> = {}) =>
    made(`/v1/collection/${collection}/card`, {
      stage_id: stage,
      start_date: start,
      end_date: end,
      resources: [{ id: resource }],
      activities: [{ id: activity.id, time: 240 }],
      ...extra,
    });
  const today = await card(welding, testToday, testToday, resource.id);
  const second = await card(painting, addDays(testToday, -1), testToday, resource.id);
  const tomorrow = await card(welding, addDays(testToday, 1), addDays(testToday, 2), resource.id);
  await card(welding, addDays(testToday, -3), addDays(testToday, -2), resource.id);
  const other = await card(welding, testToday, testToday, otherResource.id);
  const statuses = Object.fromEntries(board.statuses.map((s: any) => [s.name, s.id as string]));
  ids = {
    board: board.id,
    todo: statuses.Todo,
    done: statuses.Done,
    resource: resource.id,
    activity: activity.id,
    collection,
    card: today.id,
    secondCard: second.id,
    tomorrowCard: tomorrow.id,
    otherCard: other.id,
    row: frameRow.id,
    otherRow: order.order_rows.find((r: any) => r.code === 'B1').id,
    order: order.id,
  };
  const store = api.dataDir.environment(api.environment.id);
  const ctx = requestContext({ kind: 'api-key', environment: api.environment }, recordsOf(store));
  users.max = (await createUserWithPassword(ctx, { email: 'max@example.com', role: 'member', resource_id: resource.id }, password)).id;
  users.mia = (await createUserWithPassword(ctx, { email: 'mia@example.com', role: 'member' }, password)).id;
});

beforeAll(async () => {
  const client = createClient(api.dataDir.system, {
    name: 'Floor',
    redirect_uris: [redirectUri],
    confidential: true,
    environment_id: null,
  });
  for (const name of ['max', 'mia'] as const) {
    const code = await signInForCode(
      api.baseUrl,
      { client_id: client.client.id, redirect_uri: redirectUri, state: 'st' },
      { environment: api.environment.name, email: `${name}@example.com`, password },
    );
    const answer = await tokenRequest(api.baseUrl, {
      grant_type: 'authorization_code',
      code,
      client_id: client.client.id,
      client_secret: client.client_secret!,
      redirect_uri: redirectUri,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    tokens[name] = answer.body.access_token as string;
  }
});

function as(name: 'max' | 'mia') {
  return (method: string, path: string, body?: unknown) =>
    call(api.baseUrl, method, path, { authorization: `Bearer ${tokens[name]}` }, body);
}
const byKey = (method: string, path: string, body?: unknown) => api.http(method, path, body);

/** An instant `minutes` from the run's now, as a device sends it. */
function tap(minutes = 0): string {
  // Whole seconds, as time entries keep them.
  return new Date(Math.floor(nowMs() / 1000) * 1000 + minutes * 60_000).toISOString().replace('.000Z', 'Z');
}

async function entriesOn(card: string): Promise<any[]> {
  const res = await byKey('GET', `/v1/time_tracking?filter=${encodeURIComponent(`card_id:eq:${card}`)}&sort=start&limit=100`);
  expect(res.status).toBe(200);
  return res.body.data;
}

async function cardOf(id: string): Promise<any> {
  return (await byKey('GET', `/v1/collection/${ids.collection}/card/${id}`)).body;
}

async function rowOf(id: string): Promise<any> {
  return (await byKey('GET', `/v1/order/${ids.order}/row/${id}`)).body;
}

describe('my jobs today', () => {
  it("lists the caller's resource's cards of the day in the planner's order, then the next day's, with what the floor needs", async () => {
    const res = await as('max')('GET', `/v1/floor/jobs?date=${testToday}`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.date).toBe(testToday);
    expect(res.body.data.map((job: any) => [job.card_id, job.day])).toEqual([
      [ids.card, testToday],
      [ids.secondCard, testToday],
      [ids.tomorrowCard, addDays(testToday, 1)],
    ]);
    const job = res.body.data[0];
    expect(job.display_name).toContain('SO-1001');
    expect(job.order.description).toContain('Frames');
    expect(job.activity).toEqual({ id: ids.activity, description: 'Welding' });
    expect(job.planned_minutes).toBe(240);
    expect(job.booked_minutes).toBe(0);
    expect(job.running).toBe(false);
    expect(job.order_rows.map((r: any) => r.code)).toEqual(['F1', 'B1']);
    expect(job.attachments).toEqual([]);
    expect(job.status).toEqual({ id: ids.todo, name: 'Todo', exit: false });
  });

  it("defaults to today in the user's time zone; a user linked to no resource gets 403", async () => {
    expect((await as('max')('GET', '/v1/floor/jobs')).body.date).toBe(testToday);
    expectForbidden(await as('mia')('GET', '/v1/floor/jobs'), notLinkedMessage);
    expect((await as('max')('GET', '/v1/floor/jobs?date=today')).status).toBe(400);
  });
});

describe('start, pause, finish', () => {
  it('starts a timer at the tap on the card and its activity; a second start elsewhere stops it then; pause stops; each undoable', async () => {
    const startedAt = tap(-30);
    const start = await as('max')('POST', '/v1/floor/start', { card_id: ids.card, at: startedAt, command_id: uuidv7() });
    expect(start.status, JSON.stringify(start.body)).toBe(200);
    expect(start.body.replayed).toBe(false);
    expect(start.body.changed).toContainEqual(expect.objectContaining({ resource: 'time_tracking' }));
    const [entry] = await entriesOn(ids.card);
    expect(entry).toMatchObject({ user_id: users.max, activity_id: ids.activity, start: startedAt, end: null });

    const switchedAt = tap(-10);
    const switched = await as('max')('POST', '/v1/floor/start', { card_id: ids.secondCard, at: switchedAt });
    expect(switched.status, JSON.stringify(switched.body)).toBe(200);
    expect((await entriesOn(ids.card))[0]).toMatchObject({ end: switchedAt, duration: 20 });
    expect((await entriesOn(ids.secondCard))[0].end).toBeNull();

    const pause = await as('max')('POST', '/v1/floor/pause', { card_id: ids.secondCard, at: tap(-5) });
    expect(pause.status, JSON.stringify(pause.body)).toBe(200);
    expect((await entriesOn(ids.secondCard))[0].duration).toBe(5);
    // Pausing again: nothing runs there.
    expect((await as('max')('POST', '/v1/floor/pause', { card_id: ids.secondCard, at: tap(-4) })).status).toBe(409);

    // Undo of the pause runs the timer again.
    const undo = await as('max')('POST', `/v1/command/${pause.body.command_id as string}/undo`);
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect((await entriesOn(ids.secondCard))[0].end).toBeNull();
    await as('max')('POST', '/v1/floor/pause', { card_id: ids.secondCard, at: tap(-1) });
  });

  it('is applied once however often the same command id is sent', async () => {
    const id = uuidv7();
    const body = { card_id: ids.tomorrowCard, at: tap(-2), command_id: id };
    const first = await as('max')('POST', '/v1/floor/start', body);
    const again = await as('max')('POST', '/v1/floor/start', body);
    expect(first.status).toBe(200);
    expect(again.status, JSON.stringify(again.body)).toBe(200);
    expect(again.body).toEqual({ ...first.body, replayed: true });
    expect(await entriesOn(ids.tomorrowCard)).toHaveLength(1);
    // Someone who may not act on the job gets no answer from its command either.
    expect((await as('mia')('POST', '/v1/floor/start', body)).status).toBe(403);
    await as('max')('POST', '/v1/floor/pause', { card_id: ids.tomorrowCard, at: tap(-1) });
  });

  it('ends a timer stopped in the second it started one second after its start', async () => {
    const at = tap();
    expect((await as('max')('POST', '/v1/floor/start', { card_id: ids.tomorrowCard, at })).status).toBe(200);
    const pause = await as('max')('POST', '/v1/floor/pause', { card_id: ids.tomorrowCard, at });
    expect(pause.status, JSON.stringify(pause.body)).toBe(200);
    const entry = (await entriesOn(ids.tomorrowCard)).at(-1);
    expect(Date.parse(entry.end) - Date.parse(entry.start)).toBe(1000);
    expect(entry.duration).toBe(0);
  });

  it('finishes: stops the timer and moves the card to the exit status; undo brings both back', async () => {
    await as('max')('POST', '/v1/floor/start', { card_id: ids.card, at: tap(-3) });
    const finish = await as('max')('POST', '/v1/floor/finish', { card_id: ids.card, at: tap(-1) });
    expect(finish.status, JSON.stringify(finish.body)).toBe(200);
    const card = await cardOf(ids.card);
    expect(card.status_id).toBe(ids.done);
    expect(card.completed_at).not.toBeNull();
    const entries = await entriesOn(ids.card);
    expect(entries.every((e: any) => e.end !== null)).toBe(true);
    expect(entries.at(-1).duration).toBe(2);

    expect((await as('max')('POST', `/v1/command/${finish.body.command_id as string}/undo`)).status).toBe(200);
    expect((await cardOf(ids.card)).status_id).toBe(ids.todo);
    expect((await entriesOn(ids.card)).at(-1).end).toBeNull();
    expect((await as('max')('POST', '/v1/floor/finish', { card_id: ids.card, at: tap() })).status).toBe(200);
  });
});

describe('quantities', () => {
  it('adds made to quantity_delivered and scrapped to quantity_scrapped; a note is a comment on the card', async () => {
    const before = await rowOf(ids.row);
    const res = await as('max')('POST', '/v1/floor/quantities', {
      card_id: ids.card,
      order_row_id: ids.row,
      made: 8,
      scrapped: 1,
      note: 'One cracked weld',
      at: tap(),
      command_id: uuidv7(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const row = await rowOf(ids.row);
    expect(row.quantity_delivered).toBe((before.quantity_delivered ?? 0) + 8);
    expect(row.quantity_scrapped).toBe((before.quantity_scrapped ?? 0) + 1);
    const comments = (await byKey('GET', `/v1/collection/${ids.collection}/comment`)).body.data;
    expect(comments.map((c: any) => c.text)).toContainEqual(expect.stringContaining('One cracked weld'));
    const undo = await as('max')('POST', `/v1/command/${res.body.command_id as string}/undo`);
    expect(undo.status, JSON.stringify(undo.body)).toBe(200);
    expect((await rowOf(ids.row)).quantity_delivered).toBe(before.quantity_delivered);
  });

  it('keeps a photo as an upload attachment of the card, in the same command, and refuses one that is no picture', async () => {
    const attachments = async () => (await byKey('GET', `/v1/collection/${ids.collection}/attachment`)).body.data as any[];
    const before = await attachments();
    // A 1 × 1 pixel PNG, as the floor view sends what the camera took.
    const pixel = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';
    const res = await as('max')('POST', '/v1/floor/quantities', {
      card_id: ids.card,
      order_row_id: ids.row,
      made: 0,
      scrapped: 2,
      note: 'Burr on the edge',
      photo: { filename: 'burr.png', content_type: 'image/png', data: pixel },
      at: tap(),
      command_id: uuidv7(),
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const added = (await attachments()).filter((a) => !before.some((b) => b.id === a.id));
    expect(added).toEqual([
      expect.objectContaining({
        filename: 'burr.png',
        card_id: ids.card,
        type: 'upload',
        content_type: 'image/png',
        bytes: Buffer.from(pixel, 'base64').length,
      }),
    ]);
    const download = await byKey('GET', added[0].file);
    expect(download.status).toBe(200);
    // Undone, the report goes as a whole: the photo too.
    expect((await as('max')('POST', `/v1/command/${res.body.command_id as string}/undo`)).status).toBe(200);
    expect(await attachments()).toEqual(before);

    const rowBefore = await rowOf(ids.row);
    const refused = [
      await as('max')('POST', '/v1/floor/quantities', {
        card_id: ids.card,
        order_row_id: ids.row,
        made: 1,
        scrapped: 0,
        photo: { filename: 'x.png', content_type: 'image/png', data: 'not base64!' },
        at: tap(),
      }),
      await as('max')('POST', '/v1/floor/quantities', {
        card_id: ids.card,
        order_row_id: ids.row,
        made: 1,
        scrapped: 0,
        photo: { filename: 'x.svg', content_type: 'image/svg+xml', data: pixel },
        at: tap(),
      }),
    ];
    expect(refused.map((r) => [r.status, r.body.errors[0].field])).toEqual([
      [422, 'photo.data'],
      [422, 'photo.content_type'],
    ]);
    expect(await rowOf(ids.row)).toEqual(rowBefore);
    expect(await attachments()).toEqual(before);
  });
});

describe('refusals change nothing', () => {
  async function snapshot() {
    return {
      entries: (await byKey('GET', '/v1/time_tracking?limit=0')).body.count,
      card: (await cardOf(ids.secondCard)).status_id,
      row: await rowOf(ids.row),
    };
  }

  it("refuses a tap more than 5 minutes ahead of the server's clock with 422 on at, as sync does", async () => {
    const before = await snapshot();
    const res = await as('max')('POST', '/v1/floor/start', { card_id: ids.secondCard, at: tap(6) });
    expect(res.status).toBe(422);
    expectErrorBody(res.body, 10422, 'Unprocessable Content');
    expect(res.body.errors[0].field).toBe('at');
    expect(res.body.errors[0].description).toContain('ahead');
    expect((await as('max')('POST', '/v1/floor/start', { card_id: ids.secondCard, at: 'yesterday' })).status).toBe(422);
    expect(await snapshot()).toEqual(before);
  });

  it("refuses another resource's card, a user linked to none and an API key with 403", async () => {
    const before = await snapshot();
    expectForbidden(await as('max')('POST', '/v1/floor/start', { card_id: ids.otherCard, at: tap() }), notYourJobMessage);
    expectForbidden(await as('mia')('POST', '/v1/floor/finish', { card_id: ids.secondCard, at: tap() }), notLinkedMessage);
    expect((await byKey('POST', '/v1/floor/finish', { card_id: ids.secondCard, at: tap() })).status).toBe(403);
    expect(await snapshot()).toEqual(before);
  });

  it('refuses bad bodies with 4xx: no card, unknown card, a row of no job, negative pieces', async () => {
    const before = await snapshot();
    const refused = [
      await as('max')('POST', '/v1/floor/start', { at: tap() }),
      await as('max')('POST', '/v1/floor/start', { card_id: uuidv7(), at: tap() }),
      await as('max')('POST', '/v1/floor/quantities', { card_id: ids.secondCard, order_row_id: uuidv7(), made: 1, scrapped: 0, at: tap() }),
      await as('max')('POST', '/v1/floor/quantities', { card_id: ids.secondCard, order_row_id: ids.row, made: -1, scrapped: 0, at: tap() }),
    ];
    expect(refused.map((r) => r.status)).toEqual([422, 404, 422, 422]);
    for (const res of refused) expect(res.body.errors.length).toBeGreaterThan(0);
    expect(await snapshot()).toEqual(before);
  });
});

describe('a closed payroll period (docs/API.md "Closed periods")', () => {
  it('refuses a start in a period closed for payroll with 409 naming it, and writes nothing; reopened, the start goes through', async () => {
    const period = await byKey('POST', '/v1/time_tracking/period', { start: testToday, end: testToday });
    expect(period.status, JSON.stringify(period.body)).toBe(201);
    const before = await entriesOn(ids.secondCard);
    const refused = await as('max')('POST', '/v1/floor/start', { card_id: ids.secondCard, at: tap(-2) });
    expect(refused.status, JSON.stringify(refused.body)).toBe(409);
    expect(refused.body.errors[0].description).toContain(`The period ${testToday} – ${testToday} is closed for payroll`);
    expect(await entriesOn(ids.secondCard)).toEqual(before);

    expect((await byKey('DELETE', `/v1/time_tracking/period/${period.body.id as string}`)).status).toBe(204);
    expect((await as('max')('POST', '/v1/floor/start', { card_id: ids.secondCard, at: tap(-2) })).status).toBe(200);
    expect((await as('max')('POST', '/v1/floor/pause', { card_id: ids.secondCard, at: tap(-1) })).status).toBe(200);
  });
});
