/**
 * The system database: which environments (tenants) exist and the API keys that open them.
 * Each environment's own data lives in a separate file (see `data-dir.ts`), so one
 * environment can never read another's rows, whatever a query does.
 *
 * API keys are stored as salted scrypt hashes: a copied database file does not give away
 * working keys. scrypt is deliberately slow, so a key that verified once is remembered in
 * memory by its SHA-256 digest; revoking a key forgets it.
 */
import { createHash, randomBytes, scryptSync, timingSafeEqual } from 'node:crypto';
import { uuidv7, nowTimestamp } from '../../shared/ids.js';
import { openDatabase, type SqliteDatabase } from './database.js';
import { systemMigrations } from './migrations/system/index.js';

export interface Environment {
  id: string;
  name: string;
  created_at: string;
}

export interface ApiKeyGrant {
  environment: Environment;
  keyId: string;
}

const scryptParams = { N: 16384, r: 8, p: 1 } as const;
const environmentNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

function hashKey(key: string, salt: Buffer): Buffer {
  return scryptSync(key, salt, 32, scryptParams);
}

export function isValidEnvironmentName(name: string): boolean {
  return environmentNamePattern.test(name);
}

export function generateApiKey(): string {
  return randomBytes(24).toString('base64url');
}

export class SystemStore {
  private readonly verified = new Map<string, ApiKeyGrant>();

  constructor(readonly db: SqliteDatabase) {}

  static open(file: string): SystemStore {
    return new SystemStore(openDatabase(file, systemMigrations));
  }

  close(): void {
    this.db.close();
  }

  findEnvironment(name: string): Environment | undefined {
    return this.db.prepare('SELECT id, name, created_at FROM environment WHERE name = ?').get(name) as
      | Environment
      | undefined;
  }

  listEnvironments(): Environment[] {
    return this.db.prepare('SELECT id, name, created_at FROM environment ORDER BY name').all() as Environment[];
  }

  createEnvironment(name: string): Environment {
    if (!isValidEnvironmentName(name)) {
      throw new Error(`environment name "${name}" must be 1-64 letters, digits, '.', '_' or '-'`);
    }
    const environment = { id: uuidv7(), name, created_at: nowTimestamp() };
    this.db
      .prepare('INSERT INTO environment (id, name, created_at) VALUES (@id, @name, @created_at)')
      .run(environment);
    return environment;
  }

  ensureEnvironment(name: string): Environment {
    return this.findEnvironment(name) ?? this.createEnvironment(name);
  }

  /** Stores a key for the environment; generates one when none is given. Returns it once. */
  addApiKey(environmentId: string, key: string = generateApiKey(), label: string | null = null) {
    if (key.length < 6 || key.length > 256) throw new Error('an API key must be 6-256 characters long');
    const salt = randomBytes(16);
    const id = uuidv7();
    this.db
      .prepare(
        `INSERT INTO api_key (id, environment_id, salt, hash, label, created_at)
         VALUES (?, ?, ?, ?, ?, ?)`,
      )
      .run(id, environmentId, salt.toString('hex'), hashKey(key, salt).toString('hex'), label, nowTimestamp());
    return { id, key };
  }

  /** Makes sure this exact key opens the environment (used by `--api-env E --api-key K`). */
  ensureApiKey(environmentId: string, key: string, label: string | null = null): void {
    const environment = this.db
      .prepare('SELECT name FROM environment WHERE id = ?')
      .get(environmentId) as { name: string } | undefined;
    if (environment && this.verifyApiKey(environment.name, key)) return;
    this.addApiKey(environmentId, key, label);
  }

  revokeApiKey(keyId: string): void {
    this.db.prepare('UPDATE api_key SET revoked_at = ? WHERE id = ?').run(nowTimestamp(), keyId);
    for (const [digest, grant] of this.verified) if (grant.keyId === keyId) this.verified.delete(digest);
  }

  /** Revokes every live key of the environment with this label (e.g. last launch's bridge key). */
  revokeApiKeys(environmentId: string, label: string): void {
    const ids = this.db
      .prepare('SELECT id FROM api_key WHERE environment_id = ? AND label = ? AND revoked_at IS NULL')
      .all(environmentId, label) as { id: string }[];
    for (const { id } of ids) this.revokeApiKey(id);
  }

  /** A key that still works (never its hash): who it opens, its label and when it was made. */
  findLiveApiKey(keyId: string): { id: string; environment_id: string; label: string | null; created_at: string } | undefined {
    return this.db
      .prepare('SELECT id, environment_id, label, created_at FROM api_key WHERE id = ? AND revoked_at IS NULL')
      .get(keyId) as { id: string; environment_id: string; label: string | null; created_at: string } | undefined;
  }

  countApiKeys(environmentId: string): number {
    const row = this.db
      .prepare('SELECT count(*) AS n FROM api_key WHERE environment_id = ? AND revoked_at IS NULL')
      .get(environmentId) as { n: number };
    return row.n;
  }

  /** The environment this key opens, or undefined. Constant-time hash comparison. */
  verifyApiKey(environmentName: string, key: string): ApiKeyGrant | undefined {
    if (key.length === 0 || key.length > 256) return undefined;
    const digest = createHash('sha256').update(environmentName).update('\0').update(key).digest('hex');
    const cached = this.verified.get(digest);
    if (cached) return cached;
    const environment = this.findEnvironment(environmentName);
    if (!environment) return undefined;
    const keys = this.db
      .prepare('SELECT id, salt, hash FROM api_key WHERE environment_id = ? AND revoked_at IS NULL')
      .all(environment.id) as { id: string; salt: string; hash: string }[];
    for (const row of keys) {
      const expected = Buffer.from(row.hash, 'hex');
      const actual = hashKey(key, Buffer.from(row.salt, 'hex'));
      if (expected.length === actual.length && timingSafeEqual(expected, actual)) {
        const grant = { environment, keyId: row.id };
        this.verified.set(digest, grant);
        return grant;
      }
    }
    return undefined;
  }
}
