/**
 * Every list and record a resource answers reads the same from both store engines
 * (docs/architecture.md "The asynchronous store boundary"). A workshop is
 * written through the API into SQLite, copied into a real PostgreSQL cluster
 * (copy-from-sqlite.ts), and served twice over HTTP on 127.0.0.1: once from its SQLite file, once
 * with `recordsOf` naming the PostgreSQL environment. The second server has no synchronous store
 * (a part still on it answers 503), so every answer compared here came from PostgreSQL.
 *
 * For each resource with a list route: the list as it is, with every relation loaded (`with`),
 * every computed extra (`include`), the archived records too, sorted, paged and filtered; and
 * its first records one by one with their relations. Then a board's capacity in every view and
 * the resources' schedules.
 */
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../../electron/api/app.js';
import type { ResourceModule } from '../../electron/api/resource.js';
import { resourceModules } from '../../electron/api/resources/index.js';
import type { StoredRecord } from '../../shared/fields.js';
import { copyToPostgres } from '../../electron/store/postgres/copy-from-sqlite.js';
import { PostgresRecordStore } from '../../electron/store/postgres/record-store.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { addDays, today } from '../../shared/dates.js';
import { must } from '../helpers/bench-seed.js';
import { startTeamDatabase, type TeamDatabase } from '../helpers/postgres.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let api: TestApi;
let team: TeamDatabase<1>;
let onPostgres: FastifyInstance;
let postgresUrl: string;
let annaId: string;
let attachment: { id: string; collection_id: string };
/** Bytes of a file that is not text, so nothing on the way may read it as such. */
const photo = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 31 + (i >> 8)) & 0xff));

/** The records whose lists and records are compared: every resource with a list route. */
const listed = resourceModules.filter((module) => module.path && !module.without?.includes('list'));

beforeAll(async () => {
  api = await startTestApi({ environment: 'workshop', key: 'workshop-key-123' });
  // The sample workshop: activities, a board with stages, resources with an absence, orders
  // with rows planned as collections of cards, and time entries (docs/API.md "Sample workshop").
  await must(api, 'POST', '/v1/sample_workshop');
  // What the sample does not have: labels on cards, a checklist, a comment, a project, an archived activity and users.
  const boards = (await must(api, 'GET', '/v1/board?with=stages')).data as { id: string }[];
  const boardId = boards[0]!.id;
  const label = await must(api, 'POST', `/v1/board/${boardId}/label`, { name: 'Rush', color: 'red' });
  const cards = (await must(api, 'GET', '/v1/card?limit=3')).data as { id: string; collection_id: string }[];
  const card = cards[0]!;
  await must(api, 'PUT', `/v1/collection/${card.collection_id}/card/${card.id}`, { labels: [{ id: label.id }] });
  const checklist = await must(api, 'POST', `/v1/collection/${card.collection_id}/checklist`, { name: 'Before shipping' });
  await must(api, 'POST', `/v1/collection/${card.collection_id}/checklist/${checklist.id}/item`, { description: 'Photos taken' });
  await must(api, 'POST', `/v1/collection/${card.collection_id}/card/${card.id}/checklist`, { name: 'Welds checked' });
  await must(api, 'POST', `/v1/collection/${card.collection_id}/comment`, { text: 'Customer asked for Friday', card_id: card.id });
  await must(api, 'POST', '/v1/project', { name: 'Extension 2027' });
  const archived = await must(api, 'POST', '/v1/activity', { description: 'Old welding', hourly_rate: 40 });
  await must(api, 'PUT', `/v1/activity/${archived.id}`, { archive: true });
  for (const email of ['anna@example.com', 'ben@example.com']) await must(api, 'POST', '/v1/user', { email, role: 'member' });
  // An uploaded file, whose content the copy takes into the database.
  const form = new FormData();
  form.append('file', new Blob([photo], { type: 'image/png' }), 'weld-seam.png');
  const uploaded = await fetch(`${api.baseUrl}/v1/collection/${card.collection_id}/attachment/upload`, {
    method: 'POST',
    headers: api.headers,
    body: form,
  });
  expect(uploaded.status).toBe(201);
  attachment = { ...((await uploaded.json()) as { id: string }), collection_id: card.collection_id };
  // A company holiday on every resource, and a timer running for Anna.
  await must(api, 'POST', '/v1/schedule_deviation/holidays', { description: 'Shop outing', start_date: addDays(today(), 10) });
  const anna = ((await must(api, 'GET', '/v1/user?sort=email')).data as { id: string; email: string }[]).find(
    (u) => u.email === 'anna@example.com',
  )!;
  await must(api, 'POST', '/v1/time_tracking/start', { card_id: card.id, user_id: anna.id });
  annaId = anna.id;
  // Capacity counts what is left of each card after the time tracked on it: every read capacity makes.
  await must(api, 'PUT', `/v1/board/${boardId}`, { capacity_method: 'remaining_time' });
  const resources = (await must(api, 'GET', '/v1/resource')).data as { id: string }[];
  // Cards with resources: the by-resource and by-group views share a card's minutes among them.
  for (const [i, planned] of ((await must(api, 'GET', '/v1/card?limit=6')).data as { id: string; collection_id: string }[]).entries())
    await must(api, 'PUT', `/v1/collection/${planned.collection_id}/card/${planned.id}?update_without_delete_nested=true`, {
      resources: [{ id: resources[i % 2]!.id }],
    });
  await must(api, 'POST', '/v1/group', { name: 'Day shift', resources: resources.slice(0, 2).map((r) => ({ id: r.id })) });

  team = await startTeamDatabase('reads', { nodes: 1 });
  const copied = await copyToPostgres(api.dataDir, team.nodes[0]);
  expect(copied.matches).toBe(true);
  const pool = team.nodes[0];
  onPostgres = await buildApi({ dataDir: api.dataDir, recordsOf: (environment) => new PostgresRecordStore(pool, environment.id) });
  await onPostgres.listen({ host: '127.0.0.1', port: 0 });
  const address = onPostgres.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  postgresUrl = `http://127.0.0.1:${address.port}`;
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

/** The Monday of the current week: the sample workshop plans from today. */
function mondayOfThisWeek(): string {
  const date = today();
  const weekday = (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
  return addDays(date, -weekday);
}

async function answerOf(base: string, path: string): Promise<{ status: number; body: unknown }> {
  const response = await fetch(base + path, { headers: api.headers });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

/** A few records of the resource as stored, and the path of their list (a nested one names their parents). */
function storedOf(module: ResourceModule): { record: StoredRecord; list: string }[] {
  const store = api.dataDir.environment(api.environment.id);
  const parents = module.parents ?? [];
  // A record under a parent it does not have (a collection's checklist is no card's) is not listed there.
  const underParents = (record: StoredRecord) => parents.every((entry) => entry.inherited || record[entry.field] !== null);
  const records = store.list(module.table, { limit: 100, offset: 0 }).rows.filter(underParents).slice(0, 3);
  return records.map((record) => {
    let list = `/v1${module.path!}`;
    for (const [i, entry] of parents.entries()) {
      // An inherited parent is named by the next parent's record (a checklist item's collection is its checklist's).
      const inner = parents[i + 1];
      const id =
        entry.inherited && inner ? store.get(inner.module().table, record[inner.field] as string)?.[entry.field] : record[entry.field];
      list = list.replace(`:${entry.param}`, String(id));
    }
    return { record, list };
  });
}

/** Every query compared for a list at `path`. */
function listQueries(module: ResourceModule): string[] {
  const relations = Object.keys(module.relations ?? {});
  const queries = ['', '?limit=2&offset=1', '?sort=created_at:desc', `?filter=${encodeURIComponent('created_at:gt:2000-01-01')}`];
  if (relations.length > 0) queries.push(`?with=${relations.join(',')}`);
  if (module.rules?.includes) queries.push(`?include=${module.rules.includes.join(',')}`);
  if ('archived_at' in module.table.fields) queries.push('?archived=true');
  return queries;
}

describe('lists and records read the same from SQLite and from PostgreSQL', () => {
  it('has a workshop with records of most resources, so the comparisons below compare something', () => {
    const withRecords = listed.filter((module) => storedOf(module).length > 0).map((module) => module.spec.name);
    expect(withRecords).toEqual(
      expect.arrayContaining([
        'activity',
        'board',
        'stage',
        'label',
        'resource',
        'schedule_deviation',
        'order',
        'order_row',
        'collection',
        'card',
        'checklist',
        'comment',
        'project',
        'time_tracking',
        'user',
      ]),
    );
  });

  for (const module of listed) {
    it(`${module.spec.name} (${module.path}): its lists and records`, async () => {
      const stored = storedOf(module);
      const lists = stored.length > 0 ? [...new Set(stored.map((s) => s.list))] : module.parents?.length ? [] : [`/v1${module.path!}`];
      for (const list of lists) {
        for (const query of listQueries(module)) {
          const fromSqlite = await answerOf(api.baseUrl, list + query);
          expect(fromSqlite.status, `${list}${query} on SQLite`).toBe(200);
          expect(await answerOf(postgresUrl, list + query), `${list}${query}`).toEqual(fromSqlite);
        }
      }
      if (module.without?.includes('get')) return;
      const relations = Object.keys(module.relations ?? {});
      for (const { record, list } of stored) {
        const path = `${list}/${record.id}${relations.length > 0 ? `?with=${relations.join(',')}` : ''}`;
        const fromSqlite = await answerOf(api.baseUrl, path);
        expect(fromSqlite.status, `${path} on SQLite`).toBe(200);
        expect(await answerOf(postgresUrl, path), path).toEqual(fromSqlite);
      }
    });
  }

  it('computes the same capacity of a board in every view, its planned time less what was tracked', async () => {
    const board = ((await answerOf(api.baseUrl, '/v1/board')).body as { data: { id: string }[] }).data[0]!;
    const monday = mondayOfThisWeek();
    const range = `date_range_start=${monday}&date_range_end=${addDays(monday, 55)}`;
    let planned = 0;
    for (const view of ['stage', 'resource', 'resource_type/stage', 'group']) {
      for (const frame of ['day', 'week']) {
        const path = `/v1/board/${board.id}/capacity/${view}?${range}&time_frame=${frame}`;
        const fromSqlite = await answerOf(api.baseUrl, path);
        expect(fromSqlite.status, path).toBe(200);
        if (view !== 'resource_type/stage') planned += JSON.stringify(fromSqlite.body).match(/"time_planned":[1-9]/g)?.length ?? 0;
        expect(await answerOf(postgresUrl, path), path).toEqual(fromSqlite);
      }
    }
    // The sample's cards are planned in the range, so planned minutes are compared, not only zeros.
    expect(planned).toBeGreaterThan(0);
  });

  it('gives the same schedules of the resources, one by one, per day, per month and per day of a month', async () => {
    const resources = ((await answerOf(api.baseUrl, '/v1/resource')).body as { data: { id: string }[] }).data;
    const monday = mondayOfThisWeek();
    const [year, month] = monday.split('-');
    const paths = [
      `/v1/schedule?filter=${encodeURIComponent(`date:gte:${monday},and,date:lte:${addDays(monday, 27)}`)}&limit=1000`,
      `/v1/schedule/${year}`,
      `/v1/schedule/${year}/${month}`,
      ...resources.map((r) => `/v1/resource/${r.id}/schedule`),
    ];
    for (const path of paths) {
      const fromSqlite = await answerOf(api.baseUrl, path);
      expect(fromSqlite.status, path).toBe(200);
      expect(await answerOf(postgresUrl, path), path).toEqual(fromSqlite);
    }
  });

  it('answers the same for the caller, the running timer, the company holidays, a printed plan, the undo history and the sample', async () => {
    const board = ((await answerOf(api.baseUrl, '/v1/board')).body as { data: { id: string }[] }).data[0]!;
    const monday = mondayOfThisWeek();
    const paths = [
      '/v1/me',
      `/v1/time_tracking/running?user_id=${annaId}`,
      '/v1/schedule_deviation/holidays',
      `/v1/board/${board.id}/print?start=${monday}&end=${addDays(monday, 13)}&format=json`,
      '/v1/command?limit=1000',
      '/v1/sample_workshop',
    ];
    for (const path of paths) {
      const fromSqlite = await answerOf(api.baseUrl, path);
      expect(fromSqlite.status, path).toBe(200);
      expect(await answerOf(postgresUrl, path), path).toEqual(fromSqlite);
    }
    const running = (await answerOf(postgresUrl, paths[1]!)).body as { data: { user_id: string } | null };
    expect(running.data?.user_id).toBe(annaId);
    // Every write of the seeding was a command, in the order it was done.
    const commands = (await answerOf(postgresUrl, '/v1/command?limit=1000')).body as { data: { description: string }[] };
    expect(commands.data.length).toBeGreaterThan(10);
    expect(commands.data[0]!.description).toBe('Create group');
  });

  it('sends an uploaded file, to a planner and to a replica, from the database as from the data folder', async () => {
    for (const path of [
      `/v1/collection/${attachment.collection_id}/attachment/${attachment.id}/download`,
      `/v1/sync/attachment/${attachment.id}/content`,
    ]) {
      const fromPostgres = await fetch(postgresUrl + path, { headers: api.headers });
      expect(fromPostgres.status, path).toBe(200);
      expect(Buffer.from(await fromPostgres.arrayBuffer()).equals(photo), path).toBe(true);
    }
    // A replica sending the same content again is told it is there already, on either engine.
    const again = await fetch(`${postgresUrl}/v1/sync/attachment/${attachment.id}/content`, {
      method: 'PUT',
      headers: { ...api.headers, 'content-type': 'application/octet-stream' },
      body: photo,
    });
    expect(again.status).toBe(200);
  });

  it('answers a text match on a column that holds no text, as SQLite does, rather than a 500 (found by the fuzz run)', async () => {
    for (const path of ['/v1/stage?filter=priority:contains:1', '/v1/board?filter=own_backlog:starts_with:x']) {
      const fromSqlite = await answerOf(api.baseUrl, path);
      expect(fromSqlite.status, path).toBe(200);
      expect(await answerOf(postgresUrl, path), path).toEqual(fromSqlite);
    }
  });

  it('answers 503, not the data folder’s, for a replica’s own sync state, which PostgreSQL does not keep', async () => {
    const status = await answerOf(postgresUrl, '/v1/sync/status');
    expect(status.status).toBe(503);
    expect(status.body).toMatchObject({ errors: [{ description: expect.stringContaining('keeps no replica’s sync state') }] });
    expect((await answerOf(api.baseUrl, '/v1/sync/status')).status).toBe(200);
  });
});

describe('scenarios on the team server', () => {
  it("keeps its own scenarios: a data folder's is not copied to the team server, which makes and reads its own", async () => {
    const send = (base: string, method: string, path: string, extra: Record<string, string> = {}, body?: unknown) =>
      fetch(base + path, {
        method,
        headers: { ...api.headers, ...extra, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
    const made = await send(api.baseUrl, 'POST', '/v1/scenario', {}, { name: 'What if' });
    expect(made.status).toBe(201);
    const { id } = (await made.json()) as { id: string };
    expect(await (await send(postgresUrl, 'GET', '/v1/scenario')).json()).toEqual({ data: [] });
    const elsewhere = await send(postgresUrl, 'GET', '/v1/activity', { 'x-planner-scenario': id });
    expect(elsewhere.status).toBe(404);
    expect(await elsewhere.json()).toMatchObject({ errors: [{ description: expect.stringContaining('x-planner-scenario') }] });

    const onTeam = await send(postgresUrl, 'POST', '/v1/scenario', {}, { name: 'What if on the team server' });
    expect(onTeam.status).toBe(201);
    const team = (await onTeam.json()) as { id: string };
    const fromSqlite = await answerOf(api.baseUrl, '/v1/activity');
    const inTeamScenario = await send(postgresUrl, 'GET', '/v1/activity', { 'x-planner-scenario': team.id });
    expect(inTeamScenario.status).toBe(200);
    expect(await inTeamScenario.json()).toEqual(fromSqlite.body);
    expect((await send(api.baseUrl, 'GET', '/v1/activity', { 'x-planner-scenario': id })).status).toBe(200);
  });
});
