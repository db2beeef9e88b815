/**
 * The team server's system data on PostgreSQL: which environments exist and the API keys that
 * open them, in the server's own `planner` schema, which no environment's role can read
 * (docs/architecture.md "Team server on PostgreSQL"). The same rules as the SQLite system
 * store (system.ts, whose file head says why): keys stored as keyed digests found by an index,
 * generated keys in the `pk_<id>_<secret>` form, keys from before digests checked once with
 * scrypt on the thread pool and then given their digest. The pepper is in this database, as it
 * is in SQLite's system file.
 *
 * An environment's schema is made before its row: a row is only ever seen with its schema.
 */
import { nowTimestamp, uuidv7 } from '../../../shared/ids.js';
import {
  apiKeyDigest,
  checkEnvironmentName,
  checkGivenApiKey,
  generatedApiKey,
  isGeneratedApiKey,
  legacyHash,
  maxLegacyChecks,
  noEnvironment,
  sameBytes,
  ApiKeyCheckBusy,
  type ApiKeyGrant,
  type Environment,
  type LegacyKeyRow,
} from '../system.js';
import { ensureEnvironmentSchema } from './environment-schemas.js';
import { environmentMigrations } from './migrations.js';
import { serverSchema, type PostgresPool } from './postgres-database.js';

const environmentColumns = 'id, name, created_at';

export class PostgresSystemStore {
  #pepper: Buffer | undefined;
  #legacyChecks = 0;

  constructor(private readonly pool: PostgresPool) {}

  private async rows<Row>(sql: string, params: unknown[] = []): Promise<Row[]> {
    return (await this.pool.query(sql, params)).rows as Row[];
  }

  private async pepper(): Promise<Buffer> {
    if (!this.#pepper) {
      const [row] = await this.rows<{ secret: string }>(`SELECT secret FROM ${serverSchema}.api_key_pepper WHERE id = 1`);
      this.#pepper = Buffer.from(row!.secret, 'hex');
    }
    return this.#pepper;
  }

  async findEnvironment(name: string): Promise<Environment | undefined> {
    const [row] = await this.rows<Environment>(`SELECT ${environmentColumns} FROM ${serverSchema}.environment WHERE name = $1`, [name]);
    return row;
  }

  async environmentById(id: string): Promise<Environment | undefined> {
    const [row] = await this.rows<Environment>(`SELECT ${environmentColumns} FROM ${serverSchema}.environment WHERE id = $1`, [id]);
    return row;
  }

  async listEnvironments(): Promise<Environment[]> {
    return this.rows<Environment>(`SELECT ${environmentColumns} FROM ${serverSchema}.environment ORDER BY name`);
  }

  /** Throws when the name is taken (or not a valid name). */
  async createEnvironment(name: string): Promise<Environment> {
    const taken = () => new Error(`an environment named "${name}" exists already`);
    if (await this.findEnvironment(name)) throw taken();
    const made = await this.insertEnvironment(name);
    if (!made) throw taken();
    return made;
  }

  /** The environment of this name, made when there is none; two nodes asking at once get one. */
  async ensureEnvironment(name: string): Promise<Environment> {
    return (await this.findEnvironment(name)) ?? (await this.insertEnvironment(name)) ?? (await this.findEnvironment(name))!;
  }

  /** Undefined when the name was taken meanwhile (the schema made for it stays, empty and unnamed). */
  private async insertEnvironment(name: string, id = uuidv7(), createdAt = nowTimestamp()): Promise<Environment | undefined> {
    checkEnvironmentName(name);
    await ensureEnvironmentSchema(this.pool, id, environmentMigrations);
    const [row] = await this.rows<Environment>(
      `INSERT INTO ${serverSchema}.environment (id, name, created_at) VALUES ($1, $2, $3)
       ON CONFLICT (name) DO NOTHING RETURNING ${environmentColumns}`,
      [id, name, createdAt],
    );
    return row;
  }

  /** Stores a key for the environment; generates one when none is given. Returns it once: only its digest is kept. */
  async addApiKey(environmentId: string, key?: string, label: string | null = null): Promise<{ id: string; key: string }> {
    if (key !== undefined) checkGivenApiKey(key);
    const id = uuidv7();
    const stored = key ?? generatedApiKey(id);
    await this.pool.query(
      `INSERT INTO ${serverSchema}.api_key (id, environment_id, digest, label, created_at) VALUES ($1, $2, $3, $4, $5)`,
      [id, environmentId, apiKeyDigest(await this.pepper(), environmentId, stored).toString('hex'), label, nowTimestamp()],
    );
    return { id, key: stored };
  }

  /** Makes sure this exact key opens the environment (`--api-env E --api-key K`), as system.ts does. */
  async ensureApiKey(environmentId: string, key: string, label: string | null = null): Promise<void> {
    checkGivenApiKey(key);
    const digest = apiKeyDigest(await this.pepper(), environmentId, key);
    if (await this.liveKeyByDigest(environmentId, digest)) return;
    for (const row of await this.legacyKeys(environmentId)) {
      if (sameBytes(row.hash, await legacyHash(key, row.salt))) {
        await this.giveDigest(row.id, digest.toString('hex'));
        return;
      }
    }
    await this.addApiKey(environmentId, key, label);
  }

  async revokeApiKey(keyId: string): Promise<void> {
    await this.pool.query(`UPDATE ${serverSchema}.api_key SET revoked_at = $1 WHERE id = $2`, [nowTimestamp(), keyId]);
  }

  /** Revokes every live key of the environment with this label. */
  async revokeApiKeys(environmentId: string, label: string): Promise<void> {
    await this.pool.query(
      `UPDATE ${serverSchema}.api_key SET revoked_at = $1 WHERE environment_id = $2 AND label = $3 AND revoked_at IS NULL`,
      [nowTimestamp(), environmentId, label],
    );
  }

  async findLiveApiKey(
    keyId: string,
  ): Promise<{ id: string; environment_id: string; label: string | null; created_at: string } | undefined> {
    const [row] = await this.rows<{ id: string; environment_id: string; label: string | null; created_at: string }>(
      `SELECT id, environment_id, label, created_at FROM ${serverSchema}.api_key WHERE id = $1 AND revoked_at IS NULL`,
      [keyId],
    );
    return row;
  }

  async countApiKeys(environmentId: string): Promise<number> {
    const [row] = await this.rows<{ n: number }>(
      `SELECT count(*)::integer AS n FROM ${serverSchema}.api_key WHERE environment_id = $1 AND revoked_at IS NULL`,
      [environmentId],
    );
    return row!.n;
  }

  /**
   * The environment this key opens, or undefined: one digest and the same lookups whether the
   * environment exists or not, as system.ts (whether it has keys from before digests comes with
   * the key's own lookup, so a wrong key costs two queries either way). A key from before
   * digests goes to scrypt on the thread pool when `mayCheckSlowly` agrees, at most
   * `maxLegacyChecks` at once on this node (ApiKeyCheckBusy beyond).
   */
  async verifyApiKey(
    environmentName: string,
    key: string,
    mayCheckSlowly: () => Promise<boolean> = async () => true,
  ): Promise<ApiKeyGrant | undefined> {
    if (key.length === 0 || key.length > 256) return undefined;
    const environment = await this.findEnvironment(environmentName);
    const environmentId = environment?.id ?? noEnvironment;
    const digest = apiKeyDigest(await this.pepper(), environmentId, key);
    const [found] = await this.rows<{ id: string | null; digest: string | null; has_legacy: boolean }>(
      `SELECT live.id, live.digest,
              EXISTS (SELECT 1 FROM ${serverSchema}.api_key WHERE environment_id = $2 AND digest IS NULL AND revoked_at IS NULL) AS has_legacy
         FROM (SELECT 1) AS one
         LEFT JOIN (SELECT id, digest FROM ${serverSchema}.api_key WHERE digest = $1 AND environment_id = $2 AND revoked_at IS NULL LIMIT 1) AS live ON true`,
      [digest.toString('hex'), environmentId],
    );
    if (environment && found?.id && sameBytes(found.digest!, digest)) return { environment, keyId: found.id };
    if (!environment || isGeneratedApiKey(key) || !found?.has_legacy || !(await mayCheckSlowly())) return undefined;
    const legacy = await this.legacyKeys(environmentId);
    if (this.#legacyChecks >= maxLegacyChecks) throw new ApiKeyCheckBusy();
    this.#legacyChecks++;
    try {
      for (const candidate of legacy) {
        if (sameBytes(candidate.hash, await legacyHash(key, candidate.salt)))
          return (await this.giveDigest(candidate.id, digest.toString('hex'))) ? { environment, keyId: candidate.id } : undefined;
      }
      return undefined;
    } finally {
      this.#legacyChecks--;
    }
  }

  private async liveKeyByDigest(environmentId: string, digest: Buffer): Promise<{ id: string; digest: string } | undefined> {
    const [row] = await this.rows<{ id: string; digest: string }>(
      `SELECT id, digest FROM ${serverSchema}.api_key WHERE digest = $1 AND environment_id = $2 AND revoked_at IS NULL LIMIT 1`,
      [digest.toString('hex'), environmentId],
    );
    return row;
  }

  private async legacyKeys(environmentId: string): Promise<LegacyKeyRow[]> {
    return this.rows<LegacyKeyRow>(
      `SELECT id, salt, hash FROM ${serverSchema}.api_key WHERE environment_id = $1 AND digest IS NULL AND revoked_at IS NULL`,
      [environmentId],
    );
  }

  private async giveDigest(keyId: string, digest: string): Promise<boolean> {
    const result = await this.pool.query(
      `UPDATE ${serverSchema}.api_key SET digest = $1, salt = NULL, hash = NULL WHERE id = $2 AND revoked_at IS NULL`,
      [digest, keyId],
    );
    return result.rowCount === 1;
  }
}
