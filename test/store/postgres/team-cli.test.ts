/**
 * The server's admin commands on a team database (docs/deployment.md "On PostgreSQL"): `user
 * add --database` makes a user who can sign in at once on any node, and `client add` (here
 * through PLANNER_DATABASE_URL) registers a client every node knows. Run as real processes
 * against a throwaway cluster; the data folder of neither command holds anything of them.
 */
import { existsSync, rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PostgresSystemStore } from '../../../electron/store/postgres/system-store.js';
import { tables } from '../../../electron/api/tables.js';
import { teamRecordStores } from '../../../electron/api/team-records.js';
import { tempDir } from '../../helpers/api.js';
import { signInForCode, tokenRequest } from '../../helpers/oauth-flow.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';
import { runServerCommand } from '../../helpers/process.js';
import { startTeamNodes, type TeamNodes } from '../../helpers/team-nodes.js';

let team: TeamDatabase;
let nodes: TeamNodes | undefined;
const redirect = 'https://desk.example/cb';

beforeAll(async () => {
  team = await startTeamDatabase('cli');
}, 120_000);

afterAll(async () => {
  await nodes?.close();
  await team?.stop();
});

const userArgs = (email: string, password: string) => [
  '--api-env',
  'acme',
  '--email',
  email,
  '--password',
  password,
  '--role',
  'admin',
  '--firstname',
  'Root',
];

describe('npm run server -- user add / client add on a team database', () => {
  it('creates a user and a client in PostgreSQL that sign in through either node', async () => {
    const user = await runServerCommand(['user', 'add', '--database', team.url, ...userArgs('Root@Example.com', 'long enough pw')]);
    expect(user.code, user.output).toBe(0);
    expect(user.output).toContain('root@example.com');
    expect(user.output).not.toContain('long enough pw');

    const client = await runServerCommand(['client', 'add', '--name', 'Desk', '--redirect-uri', redirect, '--api-env', 'acme'], 30_000, {
      PLANNER_DATABASE_URL: team.url,
    });
    expect(client.code, client.output).toBe(0);
    const clientId = /client_id: (\S+)/.exec(client.output)![1]!;
    const secret = /client_secret: (\S+)/.exec(client.output)![1]!;

    // In the database: the environment, and the user in its schema with a password.
    const environment = await new PostgresSystemStore(team.nodes[0]).findEnvironment('acme');
    expect(environment).toBeDefined();
    const records = teamRecordStores(team.nodes[0])(environment!);
    const [stored] = (await records.list(tables.user, { limit: 10, offset: 0 })).rows;
    expect(stored).toMatchObject({ email: 'root@example.com', firstname: 'Root', status: 'active', role: 'admin' });
    expect(await records.passwordHashOf(stored!.id)).toBeTruthy();

    nodes = await startTeamNodes(team);
    const [a, b] = nodes.urls as [string, string];
    const code = await signInForCode(
      a,
      { client_id: clientId, redirect_uri: redirect, state: 'k' },
      { environment: 'acme', email: 'root@example.com', password: 'long enough pw' },
    );
    const tokens = await tokenRequest(b, {
      grant_type: 'authorization_code',
      code,
      client_id: clientId,
      client_secret: secret,
      redirect_uri: redirect,
    });
    expect(tokens.status, JSON.stringify(tokens.body)).toBe(200);
    const me = await fetch(`${a}/v1/me`, { headers: { authorization: `Bearer ${tokens.body.access_token}` } });
    expect(((await me.json()) as { user: unknown }).user).toMatchObject({ email: 'root@example.com', role: 'admin' });
  });

  it('refuses a user twice, a weak password, and a data folder beside the database, writing nothing', async () => {
    const twice = await runServerCommand(['user', 'add', '--database', team.url, ...userArgs('root@example.com', 'long enough pw')]);
    expect(twice.code).not.toBe(0);
    expect(twice.output).toMatch(/already exists/);
    const weak = await runServerCommand(['user', 'add', '--database', team.url, ...userArgs('weak@example.com', 'short')]);
    expect(weak.code).not.toBe(0);
    expect(weak.output).toMatch(/at least 8 characters/);
    const folder = tempDir('planner-cli-');
    const both = await runServerCommand([
      'user',
      'add',
      '--database',
      team.url,
      '--data-dir',
      folder,
      ...userArgs('x@example.com', 'long enough pw'),
    ]);
    expect(both.code).toBe(2);
    expect(both.output).toMatch(/--data-dir or --database, not both/);
    expect(existsSync(`${folder}/system.sqlite`)).toBe(false);
    rmSync(folder, { recursive: true, force: true });
    const environment = await new PostgresSystemStore(team.nodes[0]).findEnvironment('acme');
    const users = await teamRecordStores(team.nodes[0])(environment!).list(tables.user, { limit: 10, offset: 0 });
    expect(users.rows.map((u) => u.email)).toEqual(['root@example.com']);
  });
});
