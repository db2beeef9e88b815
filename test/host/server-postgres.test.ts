/**
 * `npm run server -- --database postgres://…`: nodes of the team server on one PostgreSQL
 * database (docs/architecture.md "Team server on PostgreSQL"), as real server processes on
 * 127.0.0.1 and a real throwaway cluster. Two nodes, each with a data folder of its own, share
 * the environments, keys and records of the database; what one writes the other answers. A
 * part of the API not on PostgreSQL yet answers 503 and writes nothing; a node refuses a
 * database a newer Planner migrated, and a URL that is no PostgreSQL one.
 */
import { readdirSync, rmSync } from 'node:fs';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { environmentSchemaOf } from '../../electron/store/postgres/environment-schemas.js';
import { serverMigrations } from '../../electron/store/postgres/migrations.js';
import { openPostgresDatabase } from '../../electron/store/postgres/postgres-database.js';
import { PostgresSystemStore } from '../../electron/store/postgres/system-store.js';
import { tempDir } from '../helpers/api.js';
import { startTeamDatabase, type TeamDatabase } from '../helpers/postgres.js';
import { runServerCommand, startServerProcess, type ServerProcess } from '../helpers/process.js';

const key = 'team-node-key-0123456789';
const headers = { 'x-api-key': key, 'x-api-env': 'team', 'content-type': 'application/json' };
const healthToken = 'team-node-health-token-0123';
const folders: string[] = [];
const folder = () => {
  const made = tempDir('planner-node-');
  folders.push(made);
  return made;
};

let team: TeamDatabase<0>;
let nodes: ServerProcess[] = [];

beforeAll(async () => {
  // The database only: the nodes migrate it themselves as they start.
  team = await startTeamDatabase('nodes', { nodes: 0 });
  for (let i = 0; i < 2; i++)
    nodes.push(
      await startServerProcess(['--data-dir', folder(), '--database', team.url, '--api-env', 'team', '--api-key', key], 60_000, {
        PLANNER_HEALTH_TOKEN: healthToken,
      }),
    );
}, 120_000);

afterAll(async () => {
  for (const node of nodes) await node.stop();
  nodes = [];
  await team?.stop();
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

async function call(node: ServerProcess, method: string, path: string, body?: unknown, extra: Record<string, string> = {}) {
  const response = await fetch(node.url + path, {
    method,
    headers: { ...headers, ...extra },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

describe('two nodes on one PostgreSQL database', () => {
  it('share the records: what one node writes, the other answers, and neither keeps them in its data folder', async () => {
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    const made = await call(a, 'POST', '/v1/board?with=stages', { name: 'Workshop', stages: [{ name: 'Sawing', priority: 0 }] });
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const seen = await call(b, 'GET', `/v1/board/${made.body.id}?with=stages`);
    expect(seen.status).toBe(200);
    expect(seen.body.stages.map((s: { name: string }) => s.name)).toEqual(['Sawing']);
    expect((await call(b, 'PUT', `/v1/board/${made.body.id}`, { name: 'Workshop north' })).status).toBe(200);
    expect((await call(a, 'GET', `/v1/board/${made.body.id}`)).body.name).toBe('Workshop north');
    const history = await call(a, 'GET', '/v1/command');
    expect(history.body.data.map((c: { description: string }) => c.description)).toEqual(['Edit board', 'Create board']);
    // The data folders hold this node's own files only: no environment database.
    for (const made of folders) expect(readdirSync(made).filter((name) => name.startsWith('env-'))).toEqual([]);
  });

  it('plans on either node: the sample workshop loaded on one is seen planned on the other', async () => {
    const [a, b] = nodes as [ServerProcess, ServerProcess];
    const loaded = await call(a, 'POST', '/v1/sample_workshop');
    expect(loaded.status, JSON.stringify(loaded.body)).toBe(201);
    const cards = await call(b, 'GET', `/v1/card?filter=board_id:eq:${loaded.body.board_id}`);
    expect(cards.body.count).toBeGreaterThan(0);
    expect((await call(b, 'DELETE', '/v1/sample_workshop')).body.loaded).toBe(false);
    // Signing in with OAuth runs there too (test/store/postgres/team-oauth.test.ts): a token it did not issue is a 401.
    const bearer = await call(a, 'GET', '/v1/board', undefined, { authorization: 'Bearer some-token' });
    expect(bearer.status).toBe(401);
    expect(bearer.body.errors[0].description).toContain('not valid');
  });

  it('answers 503 with the error body for a replica’s own sync state, which a team server does not keep', async () => {
    const [a] = nodes as [ServerProcess];
    const refused = await call(a, 'GET', '/v1/sync/status');
    expect(refused.status).toBe(503);
    expect(refused.body.errors[0].description).toContain('keeps no replica’s sync state');
  });

  it('refuses a wrong key with 401, and is ready while the database answers', async () => {
    const [a] = nodes as [ServerProcess];
    expect((await call(a, 'GET', '/v1/board', undefined, { 'x-api-key': 'team-node-key-wrong-0000' })).status).toBe(401);
    const ready = await fetch(`${a.url}/health/ready`, { headers: { 'x-health-token': healthToken } });
    expect(ready.status).toBe(200);
  });

  it('answers 503, not 500, for an environment whose records are missing from the database', async () => {
    const [a] = nodes as [ServerProcess];
    const pool = await openPostgresDatabase(team.url, serverMigrations);
    try {
      const system = new PostgresSystemStore(pool);
      const environment = await system.createEnvironment('lost');
      await system.addApiKey(environment.id, 'lost-environment-key-0123');
      // The operator dropped its schema and role by hand.
      const { schema, role } = environmentSchemaOf(environment.id);
      await pool.query(`DROP SCHEMA ${schema} CASCADE; DROP ROLE ${role}`);
      const res = await call(a, 'GET', '/v1/project', undefined, { 'x-api-env': 'lost', 'x-api-key': 'lost-environment-key-0123' });
      expect(res.status).toBe(503);
      expect(res.body.errors[0]).toMatchObject({ code: 10503, description: expect.stringContaining('not on the team database') });
    } finally {
      await pool.end();
    }
  });

  it('refuses to start on a database a newer Planner migrated, and on a URL that is no PostgreSQL one', async () => {
    const client = new pg.Client({ connectionString: team.url });
    await client.connect();
    try {
      await client.query("INSERT INTO planner.schema_migrations (version, name) VALUES (999, 'from a newer Planner')");
      const refused = await runServerCommand(['--port', '0', '--data-dir', folder(), '--database', team.url], 60_000);
      expect(refused.code).toBe(1);
      expect(refused.output).toContain('migrated by a newer Planner');
    } finally {
      await client.query('DELETE FROM planner.schema_migrations WHERE version = 999');
      await client.end();
    }
    const wrong = await runServerCommand(['--port', '0', '--data-dir', folder(), '--database', 'mysql://db.example/team']);
    expect(wrong.code).toBe(2);
    expect(wrong.output).toContain('--database must be a postgres:// URL');
  });
});
