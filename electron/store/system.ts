/**
 * The system database: which environments (tenants) exist and the API keys that open them.
 * Each environment's own data lives in a separate file (see `data-dir.ts`), so one
 * environment can never read another's rows, whatever a query does.
 *
 * API keys are stored as keyed digests, HMAC-SHA256(pepper, environment id NUL key), found by
 * an index: a wrong key costs one digest and one lookup, whichever environment it names, and
 * never a scrypt per stored key on the only thread (docs/API.md "Authentication").
 *  - Why not a password hash: a generated key holds 192 random bits, which no one can guess
 *    fast or slow, and a slow hash per request is what let a flood of wrong keys stall the
 *    server. Keys chosen by hand (`--api-key`) are the weaker kind; failed authentication is
 *    rate-limited per address for them (electron/api/auth.ts).
 *  - Why keyed: the digest of a hand-chosen key cannot be tested offline from the digests alone.
 *    The pepper lives in this database (`api_key_pepper`) rather than in a file beside it: the
 *    signing keys of access tokens live here already, so a copy of this file opens the instance
 *    anyway, and a second file would have to travel with every backup or all keys would stop.
 *  - Generated keys read `pk_<key id>_<secret>`: the id says which key a program holds, and
 *    the form says the key was generated, never typed.
 *  - Keys stored before system migration 3 have only a scrypt hash. The first time such a key
 *    is presented it is checked with scrypt on the thread pool (never on the event loop), a few
 *    at a time, and then gets its digest; a wrong key is tried against them once only.
 */
import { createHmac, randomBytes, scrypt, scryptSync, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { uuidv7, nowTimestamp } from '../../shared/ids.js';
import { openDatabase, type SqliteDatabase, type SqliteStatement } from './database.js';
import { fixedTextStatements, type StatementCache } from './statement-cache.js';
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

const environmentNamePattern = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const generatedKeyPattern = /^pk_[0-9a-f]{32}_[A-Za-z0-9_-]{32}$/;

/** How keys were hashed before system migration 3 (scrypt, 16 MiB each). */
export const legacyScrypt: ScryptOptions = { N: 16384, r: 8, p: 1 };
/** Legacy scrypt checks running at once, at most: each holds a thread of the pool and 16 MiB. */
export const maxLegacyChecks = 2;
/** Wrong keys remembered so they never run scrypt twice (64-character digests: about 150 kB). */
const maxRefusedLegacyKeys = 1_000;
/** Digested in place of an environment that does not exist, so the work is the same. */
export const noEnvironment = '00000000-0000-0000-0000-000000000000';

/** More legacy key checks than `maxLegacyChecks` are under way: try again in a moment. */
export class ApiKeyCheckBusy extends Error {
  constructor() {
    super('too many API key checks at once');
  }
}

export function isValidEnvironmentName(name: string): boolean {
  return environmentNamePattern.test(name);
}

export function checkEnvironmentName(name: string): void {
  if (!isValidEnvironmentName(name)) throw new Error(`environment name "${name}" must be 1-64 letters, digits, '.', '_' or '-'`);
}

/** A key this app generated (`pk_<id>_<secret>`, 192 random bits): not one to guess. */
export function isGeneratedApiKey(key: string): boolean {
  return generatedKeyPattern.test(key);
}

export function generatedApiKey(id: string): string {
  return `pk_${id.replace(/-/g, '')}_${randomBytes(24).toString('base64url')}`;
}

export function legacyHash(key: string, salt: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(key, Buffer.from(salt, 'hex'), 32, legacyScrypt, (error, hash) => (error ? reject(error) : resolve(hash)));
  });
}

export function sameBytes(expectedHex: string, actual: Buffer): boolean {
  const expected = Buffer.from(expectedHex, 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/** The keyed digest a key is stored and found by; bound to its environment (see the file head). */
export function apiKeyDigest(pepper: Buffer, environmentId: string, key: string): Buffer {
  return createHmac('sha256', pepper).update(environmentId).update('\0').update(key).digest();
}

/** An API key given by hand must be 6 to 256 characters (a generated one always is). */
export function checkGivenApiKey(key: string): void {
  if (key.length < 6 || key.length > 256) throw new Error('an API key must be 6-256 characters long');
}

export interface LegacyKeyRow {
  id: string;
  salt: string;
  hash: string;
}

export class SystemStore {
  /** The few statements of this store, each prepared once (fixed texts; bounded anyway). */
  readonly statements: StatementCache;
  private pepperBytes: Buffer | undefined;
  private legacyChecks = 0;
  /** Digests of keys that matched no legacy key, least recently presented first. */
  private readonly refusedLegacyKeys = new Map<string, true>();

  constructor(readonly db: SqliteDatabase) {
    this.statements = fixedTextStatements(db);
  }

  static open(file: string): SystemStore {
    return new SystemStore(openDatabase(file, systemMigrations));
  }

  close(): void {
    this.statements.clear();
    this.db.close();
  }

  /** The statement of a fixed text, with the shape of its rows named by the caller. */
  private sql<Row = unknown>(text: string): SqliteStatement<Row> {
    return this.statements.rows<Row>(text);
  }

  private get pepper(): Buffer {
    this.pepperBytes ??= Buffer.from(this.sql<{ secret: string }>('SELECT secret FROM api_key_pepper WHERE id = 1').get()!.secret, 'hex');
    return this.pepperBytes;
  }

  /** The keyed digest a key is stored and found by; bound to its environment. */
  private digestOf(environmentId: string, key: string): Buffer {
    return apiKeyDigest(this.pepper, environmentId, key);
  }

  findEnvironment(name: string): Environment | undefined {
    return this.sql<Environment>('SELECT id, name, created_at FROM environment WHERE name = ?').get(name);
  }

  listEnvironments(): Environment[] {
    return this.sql<Environment>('SELECT id, name, created_at FROM environment ORDER BY name').all();
  }

  createEnvironment(name: string): Environment {
    checkEnvironmentName(name);
    const environment = { id: uuidv7(), name, created_at: nowTimestamp() };
    this.sql('INSERT INTO environment (id, name, created_at) VALUES (@id, @name, @created_at)').run(environment);
    return environment;
  }

  ensureEnvironment(name: string): Environment {
    return this.findEnvironment(name) ?? this.createEnvironment(name);
  }

  /**
   * Stores a key for the environment; generates one (`pk_<id>_<secret>`) when none is given.
   * Returns it once: only its digest is kept.
   */
  addApiKey(environmentId: string, key?: string, label: string | null = null) {
    if (key !== undefined) checkGivenApiKey(key);
    const id = uuidv7();
    const stored = key ?? generatedApiKey(id);
    this.sql('INSERT INTO api_key (id, environment_id, digest, label, created_at) VALUES (?, ?, ?, ?, ?)').run(
      id,
      environmentId,
      this.digestOf(environmentId, stored).toString('hex'),
      label,
      nowTimestamp(),
    );
    return { id, key: stored };
  }

  /**
   * Makes sure this exact key opens the environment (used by `--api-env E --api-key K`). A key
   * an older version stored as a scrypt hash only is found once, here at start (never for a
   * request), and gets its digest.
   */
  ensureApiKey(environmentId: string, key: string, label: string | null = null): void {
    checkGivenApiKey(key);
    const digest = this.digestOf(environmentId, key);
    if (this.liveKeyByDigest(environmentId, digest)) return;
    for (const row of this.legacyKeys(environmentId)) {
      if (sameBytes(row.hash, scryptSync(key, Buffer.from(row.salt, 'hex'), 32, legacyScrypt))) {
        this.giveDigest(row.id, digest);
        return;
      }
    }
    this.addApiKey(environmentId, key, label);
  }

  revokeApiKey(keyId: string): void {
    this.sql('UPDATE api_key SET revoked_at = ? WHERE id = ?').run(nowTimestamp(), keyId);
  }

  /** Revokes every live key of the environment with this label (e.g. last launch's bridge key). */
  revokeApiKeys(environmentId: string, label: string): void {
    const ids = this.sql<{ id: string }>('SELECT id FROM api_key WHERE environment_id = ? AND label = ? AND revoked_at IS NULL').all(
      environmentId,
      label,
    );
    for (const { id } of ids) this.revokeApiKey(id);
  }

  /** A key that still works (never its digest): who it opens, its label and when it was made. */
  findLiveApiKey(keyId: string): { id: string; environment_id: string; label: string | null; created_at: string } | undefined {
    return this.sql<{ id: string; environment_id: string; label: string | null; created_at: string }>(
      'SELECT id, environment_id, label, created_at FROM api_key WHERE id = ? AND revoked_at IS NULL',
    ).get(keyId);
  }

  countApiKeys(environmentId: string): number {
    const row = this.sql<{ n: number }>('SELECT count(*) AS n FROM api_key WHERE environment_id = ? AND revoked_at IS NULL').get(
      environmentId,
    )!;
    return row.n;
  }

  /**
   * The environment this key opens, or undefined. One digest and the same lookups whether the
   * environment exists or not, so timing does not tell which names exist; the stored digest is
   * compared in constant time. Only a key that is not in the generated form, against an
   * environment that still has keys from before digests, may go on to the legacy scrypt check,
   * and only when `mayCheckSlowly` agrees (the caller's client is under its failure limit): it
   * throws ApiKeyCheckBusy when `maxLegacyChecks` are under way.
   */
  async verifyApiKey(
    environmentName: string,
    key: string,
    mayCheckSlowly: () => Promise<boolean> = async () => true,
  ): Promise<ApiKeyGrant | undefined> {
    if (key.length === 0 || key.length > 256) return undefined;
    const environment = this.findEnvironment(environmentName);
    const environmentId = environment?.id ?? noEnvironment;
    const digest = this.digestOf(environmentId, key);
    const row = this.liveKeyByDigest(environmentId, digest);
    const legacy = this.legacyKeys(environmentId);
    if (environment && row && sameBytes(row.digest, digest)) return { environment, keyId: row.id };
    if (!environment || legacy.length === 0 || isGeneratedApiKey(key)) return undefined;
    return this.verifyLegacyApiKey(environment, key, digest.toString('hex'), legacy, mayCheckSlowly);
  }

  private async verifyLegacyApiKey(
    environment: Environment,
    key: string,
    digest: string,
    legacy: LegacyKeyRow[],
    mayCheckSlowly: () => Promise<boolean>,
  ): Promise<ApiKeyGrant | undefined> {
    if (this.refusedLegacyKeys.delete(digest)) {
      this.refusedLegacyKeys.set(digest, true);
      return undefined;
    }
    if (!(await mayCheckSlowly()) || !this.db.open) return undefined;
    if (this.legacyChecks >= maxLegacyChecks) throw new ApiKeyCheckBusy();
    this.legacyChecks++;
    try {
      for (const row of legacy) {
        const hash = await legacyHash(key, row.salt);
        if (!this.db.open) return undefined;
        if (sameBytes(row.hash, hash)) return this.giveDigest(row.id, digest) ? { environment, keyId: row.id } : undefined;
      }
      this.refusedLegacyKeys.set(digest, true);
      if (this.refusedLegacyKeys.size > maxRefusedLegacyKeys) this.refusedLegacyKeys.delete(this.refusedLegacyKeys.keys().next().value!);
      return undefined;
    } finally {
      this.legacyChecks--;
    }
  }

  private liveKeyByDigest(environmentId: string, digest: Buffer): { id: string; digest: string } | undefined {
    return this.sql<{ id: string; digest: string }>(
      'SELECT id, digest FROM api_key WHERE digest = ? AND environment_id = ? AND revoked_at IS NULL LIMIT 1',
    ).get(digest.toString('hex'), environmentId);
  }

  private legacyKeys(environmentId: string): LegacyKeyRow[] {
    return this.sql<LegacyKeyRow>(
      'SELECT id, salt, hash FROM api_key WHERE environment_id = ? AND digest IS NULL AND revoked_at IS NULL',
    ).all(environmentId);
  }

  /** A legacy key was matched: from now on it is found by its digest, and its scrypt hash goes. */
  private giveDigest(keyId: string, digest: Buffer | string): boolean {
    const hex = typeof digest === 'string' ? digest : digest.toString('hex');
    return (
      this.sql('UPDATE api_key SET digest = ?, salt = NULL, hash = NULL WHERE id = ? AND revoked_at IS NULL').run(hex, keyId).changes === 1
    );
  }
}
