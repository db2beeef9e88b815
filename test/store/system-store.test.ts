/**
 * Environments and API keys on both engines (docs/architecture.md "Team server on
 * PostgreSQL"): the SQLite system store (system.ts) and the PostgreSQL one
 * (postgres/system-store.ts) pass the same tests against a real SQLite file and a real
 * PostgreSQL cluster; then what only several nodes can do, on two pools of one database.
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../shared/ids.js';
import { legacyScrypt, SystemStore, type ApiKeyGrant, type Environment } from '../../electron/store/system.js';
import { environmentSchemaOf } from '../../electron/store/postgres/environment-schemas.js';
import { serverMigrations } from '../../electron/store/postgres/migrations.js';
import { openPostgresDatabase, type PostgresPool } from '../../electron/store/postgres/postgres-database.js';
import { PostgresSystemStore } from '../../electron/store/postgres/system-store.js';
import { startPostgres, type PostgresCluster } from '../helpers/postgres.js';
import { tempDir } from '../helpers/api.js';

/** The system store's operations as both engines answer them (SQLite's synchronously). */
interface Systems {
  name: string;
  createEnvironment(name: string): Promise<Environment>;
  ensureEnvironment(name: string): Promise<Environment>;
  findEnvironment(name: string): Promise<Environment | undefined>;
  listEnvironments(): Promise<Environment[]>;
  addApiKey(environmentId: string, key?: string, label?: string | null): Promise<{ id: string; key: string }>;
  ensureApiKey(environmentId: string, key: string, label?: string | null): Promise<void>;
  revokeApiKey(keyId: string): Promise<void>;
  revokeApiKeys(environmentId: string, label: string): Promise<void>;
  countApiKeys(environmentId: string): Promise<number>;
  findLiveApiKey(keyId: string): Promise<{ id: string; environment_id: string; label: string | null } | undefined>;
  verifyApiKey(environmentName: string, key: string, mayCheckSlowly?: () => Promise<boolean>): Promise<ApiKeyGrant | undefined>;
  /** Stores a key the way versions before digests did: salt and scrypt hash only. */
  addLegacyKey(environmentId: string, key: string): Promise<string>;
}

const legacyRow = (environmentId: string, key: string) => {
  const salt = randomBytes(16);
  return { id: uuidv7(), environmentId, salt: salt.toString('hex'), hash: scryptSync(key, salt, 32, legacyScrypt).toString('hex') };
};

const folder = tempDir('planner-system-');
let sqlite: SystemStore;
let cluster: PostgresCluster;
let pools: PostgresPool[] = [];
let url: string;

beforeAll(async () => {
  sqlite = SystemStore.open(join(folder, 'system.sqlite'));
  cluster = await startPostgres();
  url = await cluster.database('system');
  pools = [await openPostgresDatabase(url, serverMigrations), await openPostgresDatabase(url, serverMigrations)];
});

afterAll(async () => {
  sqlite?.close();
  for (const pool of pools) await pool.end();
  await cluster?.stop();
  rmSync(folder, { recursive: true, force: true });
});

function sqliteSystems(): Systems {
  return {
    name: 'sqlite',
    createEnvironment: async (name) => sqlite.createEnvironment(name),
    ensureEnvironment: async (name) => sqlite.ensureEnvironment(name),
    findEnvironment: async (name) => sqlite.findEnvironment(name),
    listEnvironments: async () => sqlite.listEnvironments(),
    addApiKey: async (id, key, label) => sqlite.addApiKey(id, key, label),
    ensureApiKey: async (id, key, label) => sqlite.ensureApiKey(id, key, label),
    revokeApiKey: async (id) => sqlite.revokeApiKey(id),
    revokeApiKeys: async (id, label) => sqlite.revokeApiKeys(id, label),
    countApiKeys: async (id) => sqlite.countApiKeys(id),
    findLiveApiKey: async (id) => sqlite.findLiveApiKey(id),
    verifyApiKey: (name, key, mayCheckSlowly) => sqlite.verifyApiKey(name, key, mayCheckSlowly),
    addLegacyKey: async (environmentId, key) => {
      const row = legacyRow(environmentId, key);
      sqlite.db
        .prepare('INSERT INTO api_key (id, environment_id, salt, hash, created_at) VALUES (?, ?, ?, ?, ?)')
        .run(row.id, environmentId, row.salt, row.hash, '2026-01-01T00:00:00Z');
      return row.id;
    },
  };
}

function postgresSystems(): Systems {
  const store = new PostgresSystemStore(pools[0]!);
  return {
    name: 'postgres',
    createEnvironment: (name) => store.createEnvironment(name),
    ensureEnvironment: (name) => store.ensureEnvironment(name),
    findEnvironment: (name) => store.findEnvironment(name),
    listEnvironments: () => store.listEnvironments(),
    addApiKey: (id, key, label) => store.addApiKey(id, key, label),
    ensureApiKey: (id, key, label) => store.ensureApiKey(id, key, label),
    revokeApiKey: (id) => store.revokeApiKey(id),
    revokeApiKeys: (id, label) => store.revokeApiKeys(id, label),
    countApiKeys: (id) => store.countApiKeys(id),
    findLiveApiKey: (id) => store.findLiveApiKey(id),
    verifyApiKey: (name, key, mayCheckSlowly) => store.verifyApiKey(name, key, mayCheckSlowly),
    addLegacyKey: async (environmentId, key) => {
      const row = legacyRow(environmentId, key);
      await pools[0]!.query('INSERT INTO planner.api_key (id, environment_id, salt, hash, created_at) VALUES ($1, $2, $3, $4, $5)', [
        row.id,
        environmentId,
        row.salt,
        row.hash,
        '2026-01-01T00:00:00Z',
      ]);
      return row.id;
    },
  };
}

describe.each([{ make: sqliteSystems }, { make: postgresSystems }])('the system store', ({ make }) => {
  let systems: Systems;
  beforeAll(() => {
    systems = make();
  });

  it('makes, finds and lists environments, and refuses a bad or taken name', async () => {
    const made = await systems.createEnvironment('workshop');
    expect(made).toMatchObject({ name: 'workshop' });
    expect(await systems.findEnvironment('workshop')).toEqual(made);
    expect(await systems.ensureEnvironment('workshop')).toEqual(made);
    expect(await systems.findEnvironment('nowhere')).toBeUndefined();
    await systems.createEnvironment('assembly');
    expect((await systems.listEnvironments()).map((e) => e.name)).toEqual(['assembly', 'workshop']);
    await expect(systems.createEnvironment('two words')).rejects.toThrow(`environment name "two words" must be 1-64 letters`);
    await expect(systems.createEnvironment('workshop')).rejects.toThrow();
  });

  it('opens an environment with its own keys only, until they are revoked', async () => {
    const workshop = (await systems.findEnvironment('workshop'))!;
    const assembly = (await systems.findEnvironment('assembly'))!;
    const generated = await systems.addApiKey(workshop.id, undefined, 'bridge');
    expect(generated.key).toMatch(/^pk_[0-9a-f]{32}_[A-Za-z0-9_-]{32}$/);
    await systems.ensureApiKey(assembly.id, 'hand-chosen-key');
    await systems.ensureApiKey(assembly.id, 'hand-chosen-key');
    expect(await systems.countApiKeys(assembly.id)).toBe(1);

    expect(await systems.verifyApiKey('workshop', generated.key)).toEqual({ environment: workshop, keyId: generated.id });
    expect(await systems.verifyApiKey('assembly', generated.key)).toBeUndefined();
    expect(await systems.verifyApiKey('workshop', 'hand-chosen-key')).toBeUndefined();
    expect((await systems.verifyApiKey('assembly', 'hand-chosen-key'))?.environment).toEqual(assembly);
    expect(await systems.verifyApiKey('nowhere', generated.key)).toBeUndefined();
    expect(await systems.verifyApiKey('workshop', '')).toBeUndefined();
    await expect(systems.addApiKey(workshop.id, 'short')).rejects.toThrow('an API key must be 6-256 characters long');

    expect(await systems.findLiveApiKey(generated.id)).toMatchObject({ environment_id: workshop.id, label: 'bridge' });
    await systems.revokeApiKeys(workshop.id, 'bridge');
    expect(await systems.verifyApiKey('workshop', generated.key)).toBeUndefined();
    expect(await systems.findLiveApiKey(generated.id)).toBeUndefined();
    const other = await systems.addApiKey(workshop.id);
    await systems.revokeApiKey(other.id);
    expect(await systems.verifyApiKey('workshop', other.key)).toBeUndefined();
  });

  it('takes a key from before digests once with scrypt, and then by its digest', async () => {
    const legacy = await systems.createEnvironment('legacy');
    const keyId = await systems.addLegacyKey(legacy.id, 'old-hand-key');
    expect(await systems.verifyApiKey('legacy', 'wrong-old-key')).toBeUndefined();
    expect(await systems.verifyApiKey('legacy', 'old-hand-key')).toEqual({ environment: legacy, keyId });
    // Found by its digest now: the same key again, and still one key.
    expect(await systems.verifyApiKey('legacy', 'old-hand-key')).toEqual({ environment: legacy, keyId });
    expect(await systems.countApiKeys(legacy.id)).toBe(1);
  });

  it('makes no scrypt check when its caller is over the failure limit, and finds a key by its digest all the same', async () => {
    const older = await systems.createEnvironment('older');
    const keyId = await systems.addLegacyKey(older.id, 'old-key-kept');
    await systems.ensureApiKey(older.id, 'new-hand-key');
    let asked = 0;
    const overTheLimit = async () => {
      asked++;
      return false;
    };
    expect((await systems.verifyApiKey('older', 'new-hand-key', overTheLimit))?.environment).toEqual(older);
    expect(asked).toBe(0);
    // The right key from before digests is not checked now: it would take scrypt.
    expect(await systems.verifyApiKey('older', 'old-key-kept', overTheLimit)).toBeUndefined();
    expect(asked).toBe(1);
    // It is, once the caller is under the limit again.
    expect(await systems.verifyApiKey('older', 'old-key-kept', async () => true)).toEqual({ environment: older, keyId });
  });
});

describe('the system store on PostgreSQL', () => {
  it('gives each environment its schema before its row, and two nodes making one name make one', async () => {
    const stores = pools.map((pool) => new PostgresSystemStore(pool));
    const made = await Promise.all([stores[0]!.ensureEnvironment('shared'), stores[1]!.ensureEnvironment('shared')]);
    expect(made[0]).toEqual(made[1]);
    const { schema } = environmentSchemaOf(made[0]!.id);
    const found = await pools[1]!.query('SELECT 1 FROM information_schema.schemata WHERE schema_name = $1', [schema]);
    expect(found.rowCount).toBe(1);
  });

  it('lets a key made through one node open the environment through the other', async () => {
    const [one, two] = pools.map((pool) => new PostgresSystemStore(pool));
    const environment = await one!.ensureEnvironment('across');
    const { id, key } = await one!.addApiKey(environment.id);
    expect(await two!.verifyApiKey('across', key)).toEqual({ environment, keyId: id });
  });

  it('keeps the keys where no environment role can read them', async () => {
    const environment = (await new PostgresSystemStore(pools[0]!).findEnvironment('across'))!;
    const { role } = environmentSchemaOf(environment.id);
    const client = await pools[0]!.connect();
    try {
      await client.query('BEGIN');
      await client.query(`SET LOCAL ROLE ${pg.escapeIdentifier(role)}`);
      await expect(client.query('SELECT digest FROM planner.api_key')).rejects.toThrow(/permission denied/);
    } finally {
      await client.query('ROLLBACK');
      client.release();
    }
  });
});
