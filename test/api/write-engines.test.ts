/**
 * The resource routes' writes — create, update, delete, with what a body carries inline — run
 * on either store engine (docs/architecture.md "The asynchronous store
 * boundary"). The same writes go over HTTP on 127.0.0.1 to a server on a SQLite file and to a
 * server whose records are a PostgreSQL environment in a real cluster (`recordsOf`, with no
 * synchronous store), and their answers are compared. Each write is one command on both, and
 * the PostgreSQL records are read back from PostgreSQL itself.
 */
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../../electron/api/app.js';
import { tables } from '../../electron/api/tables.js';
import { copyToPostgres } from '../../electron/store/postgres/copy-from-sqlite.js';
import { teamRecordStores } from '../../electron/api/team-records.js';
import { PostgresRecordStore } from '../../electron/store/postgres/record-store.js';
import { isUuid, uuidv7 } from '../../shared/ids.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { must } from '../helpers/bench-seed.js';
import { startTeamDatabase, type TeamDatabase } from '../helpers/postgres.js';

let api: TestApi;
let team: TeamDatabase<1>;
let onPostgres: FastifyInstance;
let postgres: PostgresRecordStore;
let engines: { name: string; url: string }[];
/** A resource and a user both engines have from the start (ids that are the same on both). */
let welderId: string;
let annaId: string;

beforeAll(async () => {
  api = await startTestApi({ environment: 'writes', key: 'writes-key-123' });
  welderId = (await must(api, 'POST', '/v1/resource', { name: 'Welder 1', type: 'employee' })).id as string;
  // Inviting a user answers 201 with no body (as the public API does): read the user back.
  await must(api, 'POST', '/v1/user', { email: 'anna@example.com', role: 'member' });
  annaId = ((await must(api, 'GET', '/v1/user')).data as { id: string }[])[0]!.id;
  team = await startTeamDatabase('writes', { nodes: 1 });
  expect((await copyToPostgres(api.dataDir, team.nodes[0])).matches).toBe(true);
  const pool = team.nodes[0];
  postgres = new PostgresRecordStore(pool, api.environment.id);
  onPostgres = await buildApi({ dataDir: api.dataDir, recordsOf: teamRecordStores(pool) });
  await onPostgres.listen({ host: '127.0.0.1', port: 0 });
  const address = onPostgres.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  engines = [
    { name: 'sqlite', url: api.baseUrl },
    { name: 'postgres', url: `http://127.0.0.1:${address.port}` },
  ];
}, 120_000);

afterAll(async () => {
  await onPostgres?.close();
  await team?.stop();
  await api?.app.close();
  if (api) {
    api.dataDir.close();
    rmSync(api.dataDir.path, { recursive: true, force: true });
  }
});

interface Answer {
  status: number;
  body: any;
  command: string | null;
}

async function send(url: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(url + path, {
    method,
    headers: { ...api.headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null, command: response.headers.get('x-planner-command-id') };
}

/**
 * An answer with what differs between two engines by nature made alike: the ids each made for
 * its new records (named by the order they first appear), the times of writing and the
 * reference of an error.
 */
function comparable(body: unknown, made: Map<string, string>): unknown {
  if (Array.isArray(body)) return body.map((item) => comparable(item, made));
  if (body && typeof body === 'object')
    return Object.fromEntries(
      Object.entries(body).map(([key, value]) => [
        key,
        // An error's `reference` names the request in the server's log.
        ['created_at', 'updated_at', 'reference'].includes(key) && typeof value === 'string' ? `<${key}>` : comparable(value, made),
      ]),
    );
  if (typeof body === 'string' && made.has(body)) return made.get(body);
  return body;
}

/** The same write on both engines, compared; answers each engine's own. */
async function onBoth(
  method: string,
  path: (engine: number) => string,
  body?: (engine: number) => unknown,
  made: Map<string, string>[] = [new Map(), new Map()],
): Promise<Answer[]> {
  const answers: Answer[] = [];
  for (const [i, engine] of engines.entries()) {
    const answer = await send(engine.url, method, path(i), body?.(i));
    // Ids this engine made, in the order the answer names them.
    const note = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(note);
      else if (value && typeof value === 'object') Object.values(value).forEach(note);
      else if (typeof value === 'string' && isUuid(value) && value !== welderId && value !== annaId && !made[i]!.has(value))
        made[i]!.set(value, `<new ${made[i]!.size}>`);
    };
    note(answer.body);
    answers.push(answer);
  }
  expect(answers[1]!.status, `${method} ${path(1)}: ${JSON.stringify(answers[1]!.body)}`).toBe(answers[0]!.status);
  expect(comparable(answers[1]!.body, made[1]!)).toEqual(comparable(answers[0]!.body, made[0]!));
  return answers;
}

/** The first and the last stage of the board the tests build up on one engine (ids.board). */
async function chainOf(boardId: string, engine: number): Promise<{ first: string; last: string }> {
  const board = await send(engines[engine]!.url, 'GET', `/v1/board/${boardId}?with=stages`);
  const byName = new Map((board.body.stages as { id: string; name: string }[]).map((s) => [s.name, s.id]));
  return { first: byName.get('Sawing and drilling')!, last: byName.get('Painting')! };
}

describe('the resource routes write the same to SQLite and to PostgreSQL', () => {
  const made: Map<string, string>[] = [new Map(), new Map()];
  const ids: { board: string[]; project: string[]; relation: string[]; group: string[] } = {
    board: [],
    project: [],
    relation: [],
    group: [],
  };

  it('creates a board with its stages, statuses and labels inline, one command, read back from PostgreSQL', async () => {
    const answers = await onBoth(
      'POST',
      () => '/v1/board?with=stages,statuses,labels',
      () => ({
        name: 'Workshop',
        stages: [
          { name: 'Sawing', priority: 0 },
          { name: 'Welding', priority: 1 },
        ],
        statuses: [{ name: 'To do', entry: true }],
        labels: [{ name: 'Rush', color: 'red' }],
      }),
      made,
    );
    expect(answers[0]!.status).toBe(201);
    expect(answers[1]!.body.stages).toHaveLength(2);
    ids.board = answers.map((a) => a.body.id);
    for (const answer of answers) expect(answer.command).toMatch(/^[0-9a-f-]{36}$/);
    // Written into PostgreSQL, with its stages: not into the SQLite file the other server reads.
    const board = await postgres.get(tables.board, ids.board[1]!);
    expect(board?.name).toBe('Workshop');
    expect((await postgres.getWhereIn(tables.stage, 'board_id', [ids.board[1]!])).map((s) => s.name).sort()).toEqual(['Sawing', 'Welding']);
    expect(api.dataDir.environment(api.environment.id).get(tables.board, ids.board[1]!)).toBeUndefined();
  });

  it('updates it, replacing the stages sent and deleting the one left out, and keeps them with update_without_delete_nested', async () => {
    const stagesOf = (i: number) =>
      send(engines[i]!.url, 'GET', `/v1/board/${ids.board[i]}?with=stages`).then((a) => a.body.stages as { id: string; name: string }[]);
    const before = [await stagesOf(0), await stagesOf(1)];
    const sawing = (i: number) => before[i]!.find((s) => s.name === 'Sawing')!.id;
    await onBoth(
      'PUT',
      (i) => `/v1/board/${ids.board[i]}?with=stages`,
      (i) => ({ name: 'Workshop north', stages: [{ id: sawing(i), name: 'Sawing and drilling' }] }),
      made,
    );
    expect((await stagesOf(1)).map((s) => s.name)).toEqual(['Sawing and drilling']);
    await onBoth(
      'PUT',
      (i) => `/v1/board/${ids.board[i]}?with=stages&update_without_delete_nested=true`,
      () => ({ stages: [{ name: 'Painting', priority: 2 }] }),
      made,
    );
    expect((await stagesOf(1)).map((s) => s.name).sort()).toEqual(['Painting', 'Sawing and drilling']);
  });

  it('writes records of the order data and a group with its resources linked', async () => {
    ids.project = (
      await onBoth(
        'POST',
        () => '/v1/project',
        () => ({ name: 'Extension 2027', external_ref: 'P-27' }),
        made,
      )
    ).map((a) => a.body.id);
    await onBoth(
      'PUT',
      (i) => `/v1/project/${ids.project[i]}`,
      () => ({ description: 'Second hall' }),
      made,
    );
    ids.relation = (
      await onBoth(
        'POST',
        () => '/v1/relation?with=addresses',
        () => ({ name: 'Jansen Metaal', code: 'JM', addresses: [{ city: 'Utrecht' }] }),
        made,
      )
    ).map((a) => a.body.id);
    ids.group = (
      await onBoth(
        'POST',
        () => '/v1/group?with=resources',
        () => ({ name: 'Day shift', resources: [{ id: welderId }] }),
        made,
      )
    ).map((a) => a.body.id);
    await onBoth(
      'POST',
      () => '/v1/activity',
      () => ({ description: 'Welding', hourly_rate: 45.5, billable: true }),
      made,
    );
    const group = await postgres.getWhereIn(tables.group_resource, 'group_id', [ids.group[1]!]);
    expect(group.map((link) => link.resource_id)).toEqual([welderId]);
  });

  it('refuses bad input alike, with the error body, and writes nothing', async () => {
    const [sqlite] = await onBoth(
      'POST',
      () => '/v1/project',
      () => ({ name: 42 }),
      made,
    );
    expect(sqlite!.status).toBe(422);
    // A key taken already (external_ref is unique), and a reference to no record.
    expect(
      (
        await onBoth(
          'POST',
          () => '/v1/project',
          () => ({ name: 'Copy', external_ref: 'P-27' }),
          made,
        )
      )[0]!.status,
    ).toBe(422);
    const nobody = uuidv7();
    const linked = await onBoth(
      'POST',
      () => '/v1/group',
      () => ({ name: 'Night shift', resources: [{ id: nobody }] }),
      made,
    );
    expect(linked[0]!.status).toBe(422);
    const projects = await postgres.list(tables.project, { limit: 10, offset: 0 });
    expect(projects.rows.map((p) => p.name)).toEqual(['Extension 2027']);
  });

  it('deletes a record with what it owns, and answers 404 for it after', async () => {
    await onBoth('DELETE', (i) => `/v1/relation/${ids.relation[i]}`, undefined, made);
    await onBoth('GET', (i) => `/v1/relation/${ids.relation[i]}`, undefined, made);
    expect(await postgres.getWhereIn(tables.address, 'relation_id', [ids.relation[1]!])).toEqual([]);
    // Soft-deleted: still there, no longer live.
    expect(await postgres.get(tables.relation, ids.relation[1]!)).toBeUndefined();
    expect(await postgres.get(tables.relation, ids.relation[1]!, { includeDeleted: true })).toMatchObject({ name: 'Jansen Metaal' });
  });

  it('makes each write one command, named as on SQLite, and refuses a command id used already with 409', async () => {
    const history = await onBoth('GET', () => '/v1/command?limit=50', undefined, made);
    const descriptions = (answer: Answer) => (answer.body.data as { description: string }[]).map((c) => c.description);
    expect(descriptions(history[1]!)).toEqual(descriptions(history[0]!));
    expect(descriptions(history[1]!)).toEqual(
      expect.arrayContaining(['Create board', 'Edit board', 'Create project', 'Edit project', 'Delete relation']),
    );
    for (const engine of engines) {
      const command = uuidv7();
      const headers = { 'x-planner-command-id': command };
      const first = await send(engine.url, 'POST', '/v1/item', { code: `I-${engine.name}`, description: 'Steel tube' }, headers);
      expect(first.status, engine.name).toBe(201);
      expect(first.command).toBe(command);
      const again = await send(engine.url, 'POST', '/v1/item', { code: `I-${engine.name}-again`, description: 'Steel tube' }, headers);
      expect(again.status, engine.name).toBe(409);
      expect(again.body.errors[0].description).toContain(command);
    }
    expect((await postgres.list(tables.item, { limit: 10, offset: 0 })).rows.map((i) => i.code)).toEqual(['I-postgres']);
  });

  it('writes an order with its rows inline, and the collection its rules make with the rows’ activities', async () => {
    const activity = await onBoth(
      'POST',
      () => '/v1/activity',
      () => ({ description: 'Sawing', default_duration: 30 }),
      made,
    );
    const orders = await onBoth(
      'POST',
      () => '/v1/order?with=order_rows',
      (i) => ({
        code: 'SO-1',
        description: 'Gate',
        quantity: 2,
        order_rows: [
          { description: 'Cut', activity_id: activity[i]!.body.id, unit: 'hours', quantity: 1.5 },
          { description: 'Trim', activity_id: activity[i]!.body.id, unit: 'pieces', quantity: 4 },
        ],
      }),
      made,
    );
    expect(orders[0]!.status).toBe(201);
    const collections = await onBoth('GET', (i) => `/v1/collection/${orders[i]!.body.collection_id}?with=activities`, undefined, made);
    expect(collections[1]!.body).toMatchObject({ name: 'SO-1', description: '2x Gate' });
    // 1.5 hours and four pieces of 30 minutes: 210 minutes of sawing, read back from PostgreSQL.
    const links = await postgres.getWhereIn(tables.collection_activity, 'collection_id', [orders[1]!.body.collection_id]);
    expect(links.map((link) => link.time)).toEqual([210]);
    const rows = await onBoth('GET', (i) => `/v1/order/${orders[i]!.body.id}/row`, undefined, made);
    expect(rows[1]!.body.data.map((row: { position: number }) => row.position)).toEqual([0, 1]);
  });

  it('books time with its rules: an activity without a card, a duration, and no more than 24 hours on a day', async () => {
    const activity = await onBoth(
      'POST',
      () => '/v1/activity',
      () => ({ description: 'Training', hourly_rate: 30 }),
      made,
    );
    const entry = (i: number, start: string, duration: number) => ({
      activity_id: activity[i]!.body.id,
      user_id: annaId,
      start,
      duration,
    });
    const first = await onBoth(
      'POST',
      () => '/v1/time_tracking',
      (i) => entry(i, '2026-11-02T06:00:00Z', 18 * 60),
      made,
    );
    expect(first[0]!.status).toBe(201);
    expect(first[1]!.body).toMatchObject({ end: '2026-11-03T00:00:00Z', duration: 1080, running: false, user_id: annaId });
    const over = await onBoth(
      'POST',
      () => '/v1/time_tracking',
      (i) => entry(i, '2026-11-02T00:00:00Z', 8 * 60),
      made,
    );
    expect(over[0]!.status).toBe(422);
    expect(over[1]!.body.errors[0]).toMatchObject({ field: 'end', rule: 'dayLimit' });
    const entries = await postgres.list(tables.time_tracking, { limit: 10, offset: 0 });
    expect(entries.rows.map((e) => e.duration)).toEqual([1080]);
  });

  it('marks entries exported as one command, and a second time marks none and makes no command', async () => {
    // Each engine answers its own moment (to the second), so the answers are compared without it.
    const mark = (body: unknown) => Promise.all(engines.map((engine) => send(engine.url, 'POST', '/v1/time_tracking/mark_exported', body)));
    const marked = await mark({ external_note: 'Payroll November' });
    expect(marked[1]!.status, JSON.stringify(marked[1]!.body)).toBe(200);
    expect(marked[1]!.body.count).toBe(marked[0]!.body.count);
    expect(marked[1]!.body.count).toBeGreaterThan(0);
    expect(marked[1]!.command).toMatch(/^[0-9a-f-]{36}$/);
    const stored = (await postgres.list(tables.time_tracking, { limit: 100, offset: 0 })).rows;
    expect(stored.every((e) => e.synchronized_at !== null && e.external_note === 'Payroll November')).toBe(true);
    const commands = (await postgres.recentCommands(1000)).length;
    const again = await mark({});
    expect(again.map((answer) => answer.body.count)).toEqual([0, 0]);
    expect(again.map((answer) => answer.command)).toEqual([null, null]);
    expect((await postgres.recentCommands(1000)).length).toBe(commands);
  });

  it('starts and stops a timer, each one command, on either engine', async () => {
    const activity = await onBoth(
      'POST',
      () => '/v1/activity',
      () => ({ description: 'Cleaning' }),
      made,
    );
    for (const [i, engine] of engines.entries()) {
      const started = await send(engine.url, 'POST', '/v1/time_tracking/start', { activity_id: activity[i]!.body.id, user_id: annaId });
      expect(started.status, `${engine.name}: ${JSON.stringify(started.body)}`).toBe(201);
      expect(started.body).toMatchObject({ running: true, end: null, user_id: annaId });
      expect(started.command).toMatch(/^[0-9a-f-]{36}$/);
      const stopped = await send(engine.url, 'POST', '/v1/time_tracking/stop', { user_id: annaId });
      expect(stopped.status, engine.name).toBe(200);
      expect(stopped.body).toMatchObject({ id: started.body.id, running: false, duration: 0 });
      const again = await send(engine.url, 'POST', '/v1/time_tracking/stop', { user_id: annaId });
      expect(again.status, engine.name).toBe(404);
      const history = await send(engine.url, 'GET', '/v1/command?limit=2');
      expect(history.body.data.map((c: { description: string }) => c.description)).toEqual([
        "Stop the caller's running timer",
        "Start a timer now; the user's running timer stops",
      ]);
    }
  });

  it('plans cards in a collection, and a moved card pushes the later stage, as on SQLite', async () => {
    await onBoth(
      'PUT',
      (i) => `/v1/board/${ids.board[i]}`,
      () => ({ dependency_behavior: 'push' }),
      made,
    );
    const collections = await onBoth(
      'POST',
      () => '/v1/collection',
      (i) => ({ name: 'Gate frames', board_id: ids.board[i] }),
      made,
    );
    expect(collections[0]!.status).toBe(201);
    const stages = [await chainOf(ids.board[0]!, 0), await chainOf(ids.board[1]!, 1)];
    const cardPath = (i: number) => `/v1/collection/${collections[i]!.body.id}/card`;
    const sawing = await onBoth(
      'POST',
      cardPath,
      (i) => ({ stage_id: stages[i]!.first, start_date: '2026-12-01', end_date: '2026-12-02' }),
      made,
    );
    expect(sawing[0]!.status, JSON.stringify(sawing[0]!.body)).toBe(201);
    await onBoth('POST', cardPath, (i) => ({ stage_id: stages[i]!.last, start_date: '2026-12-03', end_date: '2026-12-04' }), made);
    // Sawing now ends on the 7th: painting moves after it.
    await onBoth(
      'PUT',
      (i) => `${cardPath(i)}/${sawing[i]!.body.id}`,
      () => ({ end_date: '2026-12-07' }),
      made,
    );
    const cards = await onBoth('GET', (i) => `${cardPath(i)}?sort=start_date`, undefined, made);
    const painting = cards[1]!.body.data[1];
    expect(painting.start_date > '2026-12-07').toBe(true);
    const collection = await onBoth('GET', (i) => `/v1/collection/${collections[i]!.body.id}`, undefined, made);
    expect(collection[1]!.body).toMatchObject({ status: 'planned', start: '2026-12-01', end: painting.end_date });
    // Read back from PostgreSQL itself.
    expect((await postgres.get(tables.card, painting.id))?.start_date).toBe(painting.start_date);
  });

  it('runs the batch commands alike: a set of cards moved, pushing the next stage once, and a resource assigned', async () => {
    const collections = await onBoth(
      'POST',
      () => '/v1/collection',
      (i) => ({ name: 'Railings', board_id: ids.board[i] }),
      made,
    );
    const stages = [await chainOf(ids.board[0]!, 0), await chainOf(ids.board[1]!, 1)];
    const cardPath = (i: number) => `/v1/collection/${collections[i]!.body.id}/card`;
    const sawing = await onBoth(
      'POST',
      cardPath,
      (i) => ({ stage_id: stages[i]!.first, start_date: '2026-12-14', end_date: '2026-12-15' }),
      made,
    );
    const painting = await onBoth(
      'POST',
      cardPath,
      (i) => ({ stage_id: stages[i]!.last, start_date: '2026-12-16', end_date: '2026-12-16' }),
      made,
    );

    const moved = await onBoth(
      'POST',
      () => '/v1/command/move_cards',
      (i) => ({ cards: [{ id: sawing[i]!.body.id, end_date: '2026-12-17' }], description: 'Sawing takes longer' }),
      made,
    );
    expect(moved[1]!.status).toBe(200);
    expect(moved[1]!.body).toMatchObject({ description: 'Sawing takes longer' });
    const pushed = await postgres.get(tables.card, painting[1]!.body.id);
    expect(pushed!.start_date! > '2026-12-17').toBe(true);
    expect((await send(engines[0]!.url, 'GET', `${cardPath(0)}/${painting[0]!.body.id}`)).body.start_date).toBe(pushed!.start_date);

    const assigned = await onBoth(
      'POST',
      () => '/v1/command/assign_cards',
      (i) => ({ cards: [sawing[i]!.body.id, painting[i]!.body.id], add: [welderId] }),
      made,
    );
    expect(assigned[1]!.body.changed.filter((c: { resource: string }) => c.resource === 'card')).toHaveLength(2);
    const linked = await postgres.getWhereIn(tables.card_resource, 'card_id', [sawing[1]!.body.id, painting[1]!.body.id]);
    expect(linked.map((l) => l.resource_id)).toEqual([welderId, welderId]);

    // One unknown card refuses the whole set alike, and nothing is written.
    const refused = await onBoth(
      'POST',
      () => '/v1/command/move_cards',
      (i) => ({
        cards: [
          { id: sawing[i]!.body.id, end_date: '2026-12-18' },
          { id: '00000000-0000-7000-8000-0000000000aa', end_date: '2026-12-18' },
        ],
      }),
      made,
    );
    expect(refused[1]!.status).toBe(422);
    expect(refused[1]!.body.errors.map((e: { field: string }) => e.field)).toEqual(['cards.1.id']);
    expect((await postgres.get(tables.card, sawing[1]!.body.id))?.end_date).toBe('2026-12-17');
  });

  it('uploads an attachment with its content in one command, and serves it back, on either engine', async () => {
    const collections = await onBoth(
      'POST',
      () => '/v1/collection',
      (i) => ({ name: 'Drawings', board_id: ids.board[i] }),
      made,
    );
    const content = Buffer.from('%PDF-1.4 gate frame, 40 x 40 tube');
    for (const [i, engine] of engines.entries()) {
      const form = new FormData();
      form.append('file', new Blob([content], { type: 'application/pdf' }), 'gate.pdf');
      const path = `/v1/collection/${collections[i]!.body.id}/attachment`;
      const response = await fetch(`${engine.url}${path}/upload`, { method: 'POST', headers: api.headers, body: form });
      const uploaded = (await response.json()) as { id: string; checksum: string };
      expect(response.status, JSON.stringify(uploaded)).toBe(201);
      expect(uploaded).toMatchObject({ filename: 'gate.pdf', type: 'upload', bytes: content.length, content_type: 'application/pdf' });
      expect(response.headers.get('x-planner-command-id')).toMatch(/^[0-9a-f-]{36}$/);
      const download = await fetch(`${engine.url}${path}/${uploaded.id}/download`, { headers: api.headers });
      expect(download.status).toBe(200);
      expect(Buffer.from(await download.arrayBuffer()).equals(content)).toBe(true);
      if (engine.name === 'postgres') expect((await postgres.files.read(uploaded.checksum))?.equals(content)).toBe(true);
    }
  });

  it('refuses text holding the NUL character on PostgreSQL as bad input, writing nothing, where SQLite keeps it', async () => {
    const before = (await postgres.list(tables.project, { limit: 0, offset: 0 })).count;
    const written = await send(engines[1]!.url, 'POST', '/v1/project', { name: 'Gate\u0000 frame' });
    expect(written.status).toBe(400);
    expect(written.body.errors[0].description).toContain('NUL character');
    expect((await postgres.list(tables.project, { limit: 0, offset: 0 })).count).toBe(before);
    const filter = `/v1/order?filter=${encodeURIComponent('(status:eq:\u0000open)')}`;
    expect((await send(engines[1]!.url, 'GET', filter)).status).toBe(400);
    expect((await send(engines[0]!.url, 'GET', filter)).status).toBe(200);
    expect((await send(engines[0]!.url, 'POST', '/v1/project', { name: 'Gate\u0000 frame' })).status).toBe(201);
  });

  it('writes webhooks the same, and a change on PostgreSQL queues its delivery in the same transaction', async () => {
    // Refused as a private target by both servers' workers: nothing leaves this machine.
    const webhook = { url: 'http://127.0.0.1:9/planner', event_types: ['collection.created'] };
    const created = await Promise.all(engines.map((engine) => send(engine.url, 'POST', '/v1/webhook', webhook)));
    for (const answer of created) {
      expect(answer.status, JSON.stringify(answer.body)).toBe(201);
      expect(answer.body.secret).toMatch(/^[0-9a-f]{64}$/);
    }
    const [onSqlite, onPg] = created.map(({ body: { secret: _secret, id: _id, ...rest } }) => comparable(rest, new Map()));
    expect(onPg).toEqual(onSqlite);
    expect((await postgres.get(tables.webhook, created[1]!.body.id))?.url).toBe(webhook.url);

    const collection = await send(engines[1]!.url, 'POST', '/v1/collection', { name: 'Queued on PostgreSQL', board_id: ids.board[1] });
    expect(collection.status, JSON.stringify(collection.body)).toBe(201);
    const queued = await postgres.list(tables.webhook_delivery, { limit: 10, offset: 0, match: { record_id: collection.body.id } });
    expect(queued.rows.map((d) => d.event)).toEqual(['collection.created']);
    const stored: unknown = queued.rows[0]!.payload;
    const payload = typeof stored === 'string' ? JSON.parse(stored) : stored;
    expect(payload).toMatchObject({ event: 'collection.created', data: { id: collection.body.id, name: 'Queued on PostgreSQL' } });
    expect(payload.environment).toEqual({ id: expect.any(String), name: api.headers['x-api-env'] });

    // Switched off, its queue is held; a write that fails leaves no delivery behind.
    const off = await send(engines[1]!.url, 'PUT', `/v1/webhook/${created[1]!.body.id}`, { active: false });
    expect(off.status).toBe(200);
    expect((await postgres.get(tables.webhook_delivery, queued.rows[0]!.id))?.status).toBe('suspended');
  });

  it('undoes a command alike, redoes it by undoing the undo, and refuses an undo twice', async () => {
    const made: Map<string, string>[] = [new Map(), new Map()];
    const projects = await onBoth(
      'POST',
      () => '/v1/project',
      () => ({ name: 'Canopy' }),
      made,
    );
    const renamed = await onBoth(
      'PUT',
      (i) => `/v1/project/${projects[i]!.body.id}`,
      () => ({ name: 'Canopy, galvanised' }),
      made,
    );
    const undone = await onBoth('POST', (i) => `/v1/command/${renamed[i]!.command}/undo`, undefined, made);
    expect(undone[1]!.body).toMatchObject({ description: 'Undo: Edit project', changed: [{ resource: 'project' }] });
    const back = await onBoth('GET', (i) => `/v1/project/${projects[i]!.body.id}`, undefined, made);
    expect(back[1]!.body.name).toBe('Canopy');
    expect((await postgres.get(tables.project, projects[1]!.body.id))?.name).toBe('Canopy');
    // Refused alike; the answer names each engine's own undo.
    for (const [i, engine] of engines.entries()) {
      const twice = await send(engine.url, 'POST', `/v1/command/${renamed[i]!.command}/undo`);
      expect(twice.status).toBe(409);
      expect(twice.body.errors[0].description).toContain(`by command ${undone[i]!.body.command_id}`);
    }
    // Undoing the undo is the redo.
    await onBoth('POST', (i) => `/v1/command/${undone[i]!.body.command_id}/undo`, undefined, made);
    expect((await postgres.get(tables.project, projects[1]!.body.id))?.name).toBe('Canopy, galvanised');
    // A later edit makes the first undo a conflict, named alike.
    await onBoth(
      'PUT',
      (i) => `/v1/project/${projects[i]!.body.id}`,
      () => ({ name: 'Canopy, painted' }),
      made,
    );
    for (const [i, engine] of engines.entries()) {
      const conflict = await send(engine.url, 'POST', `/v1/command/${projects[i]!.command}/undo`);
      expect(conflict.status).toBe(409);
      expect(conflict.body.errors).toEqual([
        expect.objectContaining({
          field: `project.${projects[i]!.body.id}`,
          description: expect.stringContaining('was changed since (name)'),
        }),
      ]);
    }
  });

  it('plans collections alike, finite and infinite, with a dry run that writes nothing, promise dates, a replan and an undo', async () => {
    // Press shop (Mon–Fri), stage Press allowing Pressing; the operator works 8 h a day there.
    // Old (1,080 min) planned infinite from Mon 2027-03-01 takes Mon–Wed, 360 a day: 120 free.
    const pressing = await onBoth(
      'POST',
      () => '/v1/activity',
      () => ({ description: 'Pressing', resource_type: 'employee' }),
      made,
    );
    const board = await onBoth(
      'POST',
      () => '/v1/board?with=stages,statuses',
      (i) => ({
        name: 'Press shop',
        workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false },
        statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
        stages: [{ name: 'Press', priority: 0, activities: [{ id: pressing[i]!.body.id, priority: 0 }] }],
      }),
      made,
    );
    await onBoth(
      'POST',
      () => '/v1/resource',
      (i) => ({
        name: 'Press operator',
        workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
        boards: [{ id: board[i]!.body.id, active: true, stages: [{ id: board[i]!.body.stages[0].id, percentage: 100, active: true }] }],
      }),
      made,
    );
    const collection = async (name: string, minutes: number) =>
      onBoth(
        'POST',
        () => '/v1/collection',
        (i) => ({ name, board_id: board[i]!.body.id, activities: [{ id: pressing[i]!.body.id, time: minutes }] }),
        made,
      );
    const planPath = (answers: Answer[]) => (i: number) => `/v1/collection/${answers[i]!.body.id}/board/${board[i]!.body.id}`;
    const old = await collection('Old', 1080);
    const planned = await onBoth('POST', planPath(old), () => ({ start: '2027-03-01' }), made);
    expect(planned[1]!.status, JSON.stringify(planned[1]!.body)).toBe(200);
    expect(planned[1]!.body.cards.map((c: { start_date: string; end_date: string }) => [c.start_date, c.end_date])).toEqual([
      ['2027-03-01', '2027-03-03'],
    ]);
    expect(planned[1]!.command).toMatch(/^[0-9a-f-]{36}$/);
    expect((await postgres.getWhereIn(tables.card, 'collection_id', [old[1]!.body.id])).map((c) => c.plan_id)).toEqual([
      planned[1]!.body.plan_id,
    ]);

    // A dry run answers the finite plan and leaves nothing in PostgreSQL: no card, change or command.
    const first = await collection('First', 300);
    const counts = async () => ({
      cards: (await postgres.list(tables.card, { limit: 0, offset: 0 })).count,
      commands: (await postgres.recentCommands(1000)).length,
      changeLogEnd: await postgres.feed.latest(),
    });
    const before = await counts();
    const dry = await onBoth('POST', planPath(first), () => ({ start: '2027-03-01', capacity: 'finite', dry_run: true }), made);
    expect(dry[1]!.body).toMatchObject({ dry_run: true, status: 'planned', start: '2027-03-01', end: '2027-03-03' });
    expect(dry[1]!.body.added_load.map((l: { minutes: number }) => l.minutes)).toEqual([100, 100, 100]);
    expect(dry[1]!.command).toBeNull();
    expect(await counts()).toEqual(before);
    expect((await postgres.get(tables.collection, first[1]!.body.id))?.status).toBe('not_planned');

    const finite = await onBoth('POST', planPath(first), () => ({ start: '2027-03-01', capacity: 'finite' }), made);
    expect(finite[1]!.body.cards.map((c: { start_date: string }) => c.start_date)).toEqual(['2027-03-01']);

    // Promise dates write nothing and are no command.
    const late = await collection('Late', 600);
    const promised = await onBoth(
      'POST',
      (i) => `/v1/board/${board[i]!.body.id}/promise_dates`,
      (i) => ({ collection_ids: [late[i]!.body.id], start: '2027-03-01' }),
      made,
    );
    expect(promised[1]!.status, JSON.stringify(promised[1]!.body)).toBe(200);
    expect(promised[1]!.body.data[0]).toMatchObject({ start: expect.any(String), end: expect.any(String) });
    expect(promised[1]!.command).toBeNull();

    // Replanning First from the week after, as one command, and undoing it puts its plan back.
    const replanned = await onBoth(
      'POST',
      () => '/v1/command/replan_collections',
      (i) => ({ board_id: board[i]!.body.id, collection_ids: [first[i]!.body.id], start: '2027-03-08' }),
      made,
    );
    expect(replanned[1]!.status, JSON.stringify(replanned[1]!.body)).toBe(200);
    expect(replanned[1]!.body.data[0].cards.map((c: { start_date: string }) => c.start_date)).toEqual(['2027-03-08']);
    await onBoth('POST', (i) => `/v1/command/${replanned[i]!.body.command_id}/undo`, undefined, made);
    const back = await postgres.getWhereIn(tables.card, 'collection_id', [first[1]!.body.id]);
    expect(back.map((c) => c.start_date)).toEqual(['2027-03-01']);
    // A plan onto a stage the board lacks is refused alike, naming the field, and writes nothing.
    const refused = await onBoth('POST', planPath(late), () => ({ stage_id: welderId }), made);
    expect(refused[1]!.status).toBe(422);
    expect((await postgres.get(tables.collection, late[1]!.body.id))?.status).toBe('not_planned');
  });

  it('loads the sample workshop alike, its collections planned, and removes exactly it', async () => {
    const loaded = await onBoth('POST', () => '/v1/sample_workshop', undefined, made);
    expect(loaded[1]!.status, JSON.stringify(loaded[1]!.body)).toBe(201);
    expect(loaded[1]!.body).toMatchObject({ loaded: true, boards: 1 });
    const sampleCards = await postgres.getWhereIn(tables.card, 'board_id', [loaded[1]!.body.board_id]);
    expect(sampleCards.length).toBeGreaterThan(0);
    expect((await onBoth('POST', () => '/v1/sample_workshop', undefined, made))[1]!.status).toBe(409);
    const removed = await onBoth('DELETE', () => '/v1/sample_workshop', undefined, made);
    expect(removed[1]!.body).toMatchObject({ loaded: false, boards: 0 });
    expect(await postgres.getWhereIn(tables.card, 'board_id', [loaded[1]!.body.board_id])).toEqual([]);
  });
});
