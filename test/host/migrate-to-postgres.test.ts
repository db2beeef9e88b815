/**
 * `npm run server -- migrate-to-postgres` (docs/API.md "Moving a remote to PostgreSQL") on a
 * realistic SQLite remote: two environments written through the API (boards, stages,
 * resources with their schedules, activities with rates, cards, time entries, a deleted card, a
 * webhook), copied by the command as a real process into a real PostgreSQL cluster, checked by
 * its report and read back through the PostgreSQL stores.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeCopy } from '../../electron/host/migrate-cli.js';
import { formatHlc } from '../../shared/hlc.js';
import { uuidv7 } from '../../shared/ids.js';
import { DataDirLock } from '../../electron/store/data-dir-lock.js';
import { environmentSchemaOf, withEnvironment } from '../../electron/store/postgres/environment-schemas.js';
import { replicaMark } from '../../electron/store/postgres/push-marks.js';
import { serverMigrations } from '../../electron/store/postgres/migrations.js';
import { openPostgresDatabase, type PostgresPool } from '../../electron/store/postgres/postgres-database.js';
import { PostgresOAuthStore } from '../../electron/store/postgres/oauth-state.js';
import { PostgresRecordStore } from '../../electron/store/postgres/record-store.js';
import { PostgresSystemStore } from '../../electron/store/postgres/system-store.js';
import { tables } from '../../electron/store/tables.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { must, random, seedResourcesOnBoard, seedStatusAndActivities, workdays } from '../helpers/bench-seed.js';
import { runPostgresTool, startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { runServerCommand } from '../helpers/process.js';

let cluster: PostgresCluster;
let url: string;
let pool: PostgresPool;
let folder: string;
const counts = { workshop: { card: 0, time_tracking: 0, resource: 0 }, office: { project: 0 } };
let deletedCard: string;
let clientId: string;
const pendingDelivery = uuidv7();
/** When the failed delivery is due again: its wait comes along. */
const retryAt = Date.parse('2030-01-01T00:00:00Z');
/** Bytes of every value, so the copy is checked byte for byte. */
const drawing = Buffer.from(Array.from({ length: 70_000 }, (_, i) => (i * 7) % 256));
let environmentIds: Record<string, string>;

async function seedWorkshop(api: TestApi): Promise<void> {
  const board = await must(api, 'POST', '/v1/board?with=stages', {
    name: 'Workshop',
    stages: [
      { name: 'Sawing', priority: 0 },
      { name: 'Welding', priority: 1 },
      { name: 'Painting', priority: 2 },
    ],
  });
  const stageIds = (board.stages as { id: string }[]).map((s) => s.id);
  const activities = await seedStatusAndActivities(api, board.id);
  await must(api, 'PUT', `/v1/activity/${activities[0]}`, { hourly_rate: 42.5, billable: true });
  const next = random(7);
  const resources = await seedResourcesOnBoard(api, {
    boardId: board.id,
    stageIds,
    count: 4,
    next,
    body: (r) => ({ name: `Fitter ${r}`, type: 'employee', workdays: workdays.fullWeek }),
  });
  counts.workshop.resource = resources.length;
  const cards: string[] = [];
  let lastCollection = '';
  for (let c = 0; c < 3; c++) {
    const collection = await must(api, 'POST', '/v1/collection', { name: `SO-10${c} Ørsted B.V.`, board_id: board.id });
    lastCollection = collection.id;
    for (const stage of stageIds)
      cards.push(
        (
          await must(api, 'POST', `/v1/collection/${collection.id}/card`, {
            name: `Frame ${c}`,
            stage_id: stage,
            start_date: '2026-11-02',
            end_date: '2026-11-03',
          })
        ).id,
      );
  }
  deletedCard = cards.pop()!;
  const deleted = await api.http('DELETE', `/v1/collection/${lastCollection}/card/${deletedCard}`);
  expect(deleted.status).toBe(204);
  counts.workshop.card = cards.length;
  // Two uploads, one of them twice: content is kept once by its checksum.
  for (const content of [drawing, drawing, Buffer.from('cutting list: 12 × 40 mm')]) {
    const form = new FormData();
    form.append('file', new Blob([content], { type: 'application/octet-stream' }), 'drawing.bin');
    const uploaded = await fetch(`${api.baseUrl}/v1/collection/${lastCollection}/attachment/upload`, {
      method: 'POST',
      headers: api.headers,
      body: form,
    });
    expect(uploaded.status).toBe(201);
  }
  for (let e = 0; e < 6; e++)
    await must(api, 'POST', '/v1/time_tracking', {
      card_id: cards[e % cards.length],
      activity_id: activities[0],
      start: `2026-11-0${2 + (e % 3)}T${String(7 + e).padStart(2, '0')}:00:00Z`,
      duration: 45,
    });
  counts.workshop.time_tracking = 6;
  await must(api, 'POST', '/v1/webhook', { url: 'https://example.com/planner', event_types: ['card.created', 'card.updated'] });
  // A replica's push: its mark comes along, so its next push is checked against it.
  const hlc = formatHlc({ millis: Date.now(), counter: 0, node: 'replica1' });
  const pushed = await api.http('POST', '/v1/sync/push', {
    client_id: 'replica-workshop-1',
    mutations: [{ mutation_id: 1, resource: 'project', id: uuidv7(), op: 'create', fields: { name: 'Pushed offline' }, hlc }],
  });
  expect(pushed.status, JSON.stringify(pushed.body)).toBe(200);
}

beforeAll(async () => {
  cluster = await startPostgres();
  url = await cluster.database('team');
  const api = await startTestApi({ environment: 'workshop', key: 'workshop-key-123' });
  folder = api.dataDir.path;
  await seedWorkshop(api);
  const office = api.dataDir.system.ensureEnvironment('office');
  api.dataDir.system.ensureApiKey(office.id, 'office-key-123');
  const officeStore = api.dataDir.environment(office.id);
  for (let p = 0; p < 3; p++) officeStore.insert(tables.project, { name: `Project ${p}`, code: `P-${p}` });
  counts.office.project = 3;
  // A delivery that failed and waits for its retry, as the webhook worker leaves one.
  const hook = (await must(api, 'GET', '/v1/webhook')).data[0] as { id: string };
  const workshopDb = api.dataDir.environment(api.environment.id).db;
  workshopDb
    .prepare(
      `INSERT INTO webhook_delivery (id, webhook_id, event_id, event, resource, record_id, status, attempts, due_at, payload, created_at, updated_at, next_attempt_at)
       VALUES (?, ?, ?, 'card.created', 'card', ?, 'failed', 2, ?, '{}', ?, ?, ?)`,
    )
    .run(
      pendingDelivery,
      hook.id,
      uuidv7(),
      uuidv7(),
      retryAt,
      '2026-11-02T08:00:00Z',
      '2026-11-02T08:00:00Z',
      new Date(retryAt).toISOString(),
    );
  environmentIds = { workshop: api.environment.id, office: office.id };
  await api.app.close();
  api.dataDir.close();
  // An OAuth client, as an admin registers one.
  const client = await runServerCommand([
    'client',
    'add',
    '--data-dir',
    folder,
    '--name',
    'Shop floor',
    '--redirect-uri',
    'https://planner.example.com/callback',
  ]);
  expect(client.code, client.output).toBe(0);
  clientId = /client_id: (\S+)/.exec(client.output)![1]!;
  const user = await runServerCommand([
    'user',
    'add',
    '--data-dir',
    folder,
    '--api-env',
    'workshop',
    '--email',
    'anna@example.com',
    '--password',
    'a long passphrase 42',
    '--role',
    'admin',
  ]);
  expect(user.code, user.output).toBe(0);
  pool = await openPostgresDatabase(url, serverMigrations);
}, 120_000);

afterAll(async () => {
  await pool?.end();
  await cluster?.stop();
  if (folder) rmSync(folder, { recursive: true, force: true });
});

const migrate = (args: string[], env: Record<string, string> = {}) =>
  runServerCommand(['migrate-to-postgres', '--data-dir', folder, ...args], 120_000, env);

describe('migrate-to-postgres', () => {
  it('refuses a data folder that a server is using, and copies nothing', async () => {
    const lock = DataDirLock.acquire(folder, 'server');
    try {
      const run = await migrate([], { PLANNER_DATABASE_URL: url });
      expect(run.code).toBe(1);
      expect(run.output).toMatch(/in use/);
    } finally {
      lock.release();
    }
    expect(await new PostgresSystemStore(pool).listEnvironments()).toEqual([]);
  });

  it('refuses what is not a PostgreSQL URL', async () => {
    const run = await migrate(['--database', 'mysql://planner@127.0.0.1/team']);
    expect(run.code).toBe(2);
    expect(run.output).toContain('--database must be a postgres:// URL');
  });

  it('copies every environment and reports each table the same on both sides', async () => {
    const run = await migrate([], { PLANNER_DATABASE_URL: url });
    expect(run.output).toContain('Copied 2 environments (office, workshop) and 2 API keys to PostgreSQL.');
    expect(run.output).toMatch(/Checked \d+ tables: each has the same rows in SQLite and PostgreSQL \(count and SHA-256\)\./);
    // The deleted card is copied too (as deleted): the trash and sync need it.
    expect(run.output).toContain(
      `same     workshop card: ${counts.workshop.card + 1} rows in SQLite, ${counts.workshop.card + 1} in PostgreSQL`,
    );
    expect(run.output).toContain('same     office project: 3 rows in SQLite, 3 in PostgreSQL');
    // The sync bookkeeping and the undo history of the API's writes come along.
    expect(run.output).toMatch(/same {5}workshop sync_clock: \d+ rows in SQLite, \d+ in PostgreSQL/);
    expect(run.output).toMatch(/same {5}workshop command: \d+ rows in SQLite, \d+ in PostgreSQL/);
    expect(run.output).toContain('same     workshop attachment content: 2 rows in SQLite, 2 in PostgreSQL');
    expect(run.output).toContain('same     workshop webhook_secret: 1 row in SQLite, 1 in PostgreSQL');
    expect(run.output).toContain('same     (server) oauth_client: 1 row in SQLite, 1 in PostgreSQL');
    expect(run.output).toContain('same     workshop sync_client: 1 row in SQLite, 1 in PostgreSQL');
    expect(run.output).toContain('same     workshop user_password: 1 row in SQLite, 1 in PostgreSQL');
    expect(run.output).toContain('same     workshop attachment: 3 rows in SQLite, 3 in PostgreSQL');
    expect(run.output).not.toContain('DIFFER');
    expect(run.output).not.toContain('Not copied yet');
    expect(run.code).toBe(0);
  });

  it('leaves keys that open the same environments, and records the stores read back', async () => {
    const system = new PostgresSystemStore(pool);
    expect((await system.verifyApiKey('workshop', 'workshop-key-123'))?.environment.id).toBe(environmentIds.workshop);
    expect((await system.verifyApiKey('office', 'office-key-123'))?.environment.id).toBe(environmentIds.office);
    expect(await system.verifyApiKey('office', 'workshop-key-123')).toBeUndefined();

    const workshop = new PostgresRecordStore(pool, environmentIds.workshop!);
    expect((await workshop.list(tables.card, { limit: 100, offset: 0 })).count).toBe(counts.workshop.card);
    expect(await workshop.get(tables.card, deletedCard)).toBeUndefined();
    expect(await workshop.get(tables.card, deletedCard, { includeDeleted: true })).toMatchObject({ id: deletedCard });
    const entries = await workshop.list(tables.time_tracking, { limit: 100, offset: 0, sort: [{ field: 'start', direction: 'asc' }] });
    expect(entries.count).toBe(counts.workshop.time_tracking);
    expect(entries.rows[0]).toMatchObject({ duration: 45, start: '2026-11-02T07:00:00Z', running: false });
    const resources = await workshop.list(tables.resource, { limit: 10, offset: 0 });
    expect(resources.count).toBe(counts.workshop.resource);
    expect(resources.rows[0]!.workdays).toEqual(workdays.fullWeek);
    const collections = await workshop.list(tables.collection, { filter: undefined, limit: 10, offset: 0 });
    expect(collections.rows.map((c) => c.name)).toContain('SO-100 Ørsted B.V.');
    const hooks = await workshop.list(tables.webhook, { limit: 10, offset: 0 });
    expect(hooks.rows[0]!.event_types).toEqual(['card.created', 'card.updated']);

    const content = await pool.query<{ bytes: number; content: Buffer }>(
      `SELECT bytes, content FROM ${environmentSchemaOf(environmentIds.workshop!).schema}.attachment_content ORDER BY bytes DESC`,
    );
    expect(content.rows.map((row) => row.bytes)).toEqual([drawing.length, Buffer.byteLength('cutting list: 12 × 40 mm')]);
    expect(Buffer.compare(content.rows[0]!.content, drawing)).toBe(0);

    expect(await new PostgresOAuthStore(pool).client(clientId)).toMatchObject({
      id: clientId,
      name: 'Shop floor',
      redirect_uris: ['https://planner.example.com/callback'],
      confidential: true,
    });

    const mark = await withEnvironment(pool, environmentIds.workshop!, (client) => replicaMark(client, 'replica-workshop-1'));
    expect(mark).toMatchObject({ last: 1, owner: expect.any(String) });
    expect(Object.keys(mark!.batch)).toEqual(['1']);

    const [due] = (
      await pool.query<{ due_at: string; status: string }>(
        `SELECT due_at::text AS due_at, status FROM ${environmentSchemaOf(environmentIds.workshop!).schema}.webhook_delivery WHERE id = $1`,
        [pendingDelivery],
      )
    ).rows;
    expect(due).toEqual({ due_at: String(retryAt), status: 'failed' });

    const office = new PostgresRecordStore(pool, environmentIds.office!);
    expect((await office.list(tables.project, { limit: 10, offset: 0 })).count).toBe(counts.office.project);
    expect((await office.list(tables.card, { limit: 10, offset: 0 })).count).toBe(0);
  });

  it('copies into a database that pg_dump backs up and pg_restore brings back whole (docs/deployment.md "Backups")', async () => {
    const backup = join(folder, 'team.dump');
    await runPostgresTool('pg_dump', ['--format=custom', `--file=${backup}`, `--dbname=${url}`]);
    const restoredUrl = await cluster.database('restored');
    await runPostgresTool('pg_restore', ['--exit-on-error', `--dbname=${restoredUrl}`, backup]);

    const restored = await openPostgresDatabase(restoredUrl, serverMigrations);
    try {
      // Every table of every schema (the server's and each environment's), row for row.
      const fingerprints = async (database: PostgresPool) => {
        const found = await database.query<{ name: string }>(
          `SELECT format('%I.%I', table_schema, table_name) AS name FROM information_schema.tables
           WHERE table_type = 'BASE TABLE' AND table_schema NOT IN ('pg_catalog', 'information_schema') ORDER BY 1`,
        );
        const prints: Record<string, string> = {};
        for (const { name } of found.rows) {
          const row = await database.query<{ print: string }>(
            `SELECT count(*) || ' ' || coalesce(md5(string_agg(t::text, E'\\n' ORDER BY t::text)), '') AS print FROM ${name} t`,
          );
          prints[name] = row.rows[0]!.print;
        }
        return prints;
      };
      const before = await fingerprints(pool);
      expect(Object.keys(before).length).toBeGreaterThan(40);
      expect(await fingerprints(restored)).toEqual(before);
      // And it serves: the keys open their environments, the records read back.
      expect((await new PostgresSystemStore(restored).verifyApiKey('workshop', 'workshop-key-123'))?.environment.id).toBe(
        environmentIds.workshop,
      );
      const cards = await new PostgresRecordStore(restored, environmentIds.workshop!).list(tables.card, { limit: 100, offset: 0 });
      expect(cards.count).toBe(counts.workshop.card);
    } finally {
      await restored.end();
    }
  });

  it('refuses to copy into a database that has those environments already, and changes nothing', async () => {
    const before = await new PostgresRecordStore(pool, environmentIds.office!).list(tables.project, { limit: 10, offset: 0 });
    const run = await migrate(['--database', url]);
    expect(run.code).toBe(1);
    expect(run.output).toContain('The database has');
    expect(run.output).toContain('nothing was copied');
    const after = await new PostgresRecordStore(pool, environmentIds.office!).list(tables.project, { limit: 10, offset: 0 });
    expect(after).toEqual(before);
  });

  it('says plainly when a table differs', () => {
    const text = describeCopy({
      environments: ['workshop'],
      apiKeys: 1,
      matches: false,
      tables: [
        {
          environment: 'workshop',
          table: 'card',
          sqliteRows: 3,
          postgresRows: 2,
          sqliteChecksum: 'a'.repeat(64),
          postgresChecksum: 'b'.repeat(64),
        },
      ],
    });
    expect(text).toContain('Checked 1 tables: 1 DIFFER.');
    expect(text).toContain('DIFFERS  workshop card: 3 rows in SQLite, 2 in PostgreSQL, sha256 aaaaaaaaaaaa vs bbbbbbbbbbbb');
  });
});
