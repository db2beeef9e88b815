/**
 * The OAuth tables of the system database (migration system/0002-oauth): signing keys,
 * clients, authorization codes, token families and refresh tokens. Codes, refresh tokens and
 * client secrets arrive here already digested; nothing that works as a credential is stored.
 */
import { randomBytes } from 'node:crypto';
import { nowTimestamp, uuidv7 } from '../../shared/ids.js';
import type { SqliteDatabase, SqliteStatement } from './database.js';
import { fixedTextStatements, type StatementCache } from './statement-cache.js';
import type { Environment, SystemStore } from './system.js';
import { nowMs } from '../../shared/clock.js';

export interface SigningKey {
  id: string;
  secret: Uint8Array;
}

export interface StoredClient {
  id: string;
  name: string;
  redirect_uris: string[];
  confidential: boolean;
  secret_hash: string | null;
  environment_id: string | null;
  created_at: string;
  updated_at: string;
}

export interface StoredCode {
  client_id: string;
  environment_id: string;
  user_id: string;
  redirect_uri: string;
  code_challenge: string | null;
  expires_at: number;
  used_at: string | null;
  family_id: string | null;
}

export interface TokenFamily {
  id: string;
  client_id: string;
  environment_id: string;
  user_id: string;
  revoked_at: string | null;
}

export type RefreshOutcome =
  /** `expiresAt`: when the used refresh token would have expired (ms), so a sign-in with a fixed end (the floor's shift) keeps it. */
  | { kind: 'rotated'; family: TokenFamily; expiresAt: number }
  | { kind: 'reused'; family: TokenFamily }
  | { kind: 'revoked' | 'expired' | 'unknown' };

/** A refresh token's row joined with its family's, as both engines read it to use the token. */
export interface RefreshRow extends TokenFamily {
  used_at: string | null;
  expires_at: number;
}

/**
 * What using a refresh token comes to, the same on both engines (this store and
 * postgres/oauth-state.ts), which then write what it says: the first use rotates the token
 * (`markUsed`); a later use is a replay, which revokes the whole family (`revoke`); a token of
 * another client is not known to this one and is not used up by the attempt.
 */
export function refreshDecision(
  row: RefreshRow | undefined,
  clientId: string,
  now: number,
): { outcome: RefreshOutcome; revoke?: { familyId: string; reason: string }; markUsed?: boolean } {
  if (!row || row.client_id !== clientId) return { outcome: { kind: 'unknown' } };
  const family: TokenFamily = {
    id: row.id,
    client_id: row.client_id,
    environment_id: row.environment_id,
    user_id: row.user_id,
    revoked_at: row.revoked_at,
  };
  if (row.used_at) return { outcome: { kind: 'reused', family }, revoke: { familyId: family.id, reason: 'refresh token reused' } };
  if (family.revoked_at) return { outcome: { kind: 'revoked' } };
  if (row.expires_at <= now) return { outcome: { kind: 'expired' } };
  // Number(): PostgreSQL's bigint column may arrive as text.
  return { outcome: { kind: 'rotated', family, expiresAt: Number(row.expires_at) }, markUsed: true };
}

interface ClientRow extends Omit<StoredClient, 'redirect_uris' | 'confidential'> {
  redirect_uris: string;
  confidential: number;
}

function clientOf(row: ClientRow): StoredClient {
  // Written by this store as JSON.stringify of the client's list of URI strings.
  return { ...row, redirect_uris: JSON.parse(row.redirect_uris) as string[], confidential: row.confidential === 1 };
}

const stores = new WeakMap<SystemStore, OAuthStore>();

/** The methods of OAuth's state, the same on both engines. */
const stateMethods = [
  'signingKey',
  'keyById',
  'insertClient',
  'client',
  'clientsOf',
  'updateClient',
  'deleteClient',
  'insertCode',
  'takeCode',
  'linkCodeToFamily',
  'createFamily',
  'family',
  'revokeFamily',
  'insertRefreshToken',
  'useRefreshToken',
] as const;

/**
 * OAuth's state on either engine, asynchronous: this file's OAuthStore (through
 * `sqliteOAuthState`) or a team server's PostgresOAuthStore (postgres/oauth-state.ts), which
 * every node shares. The methods are OAuthStore's, with `Promise` results.
 */
export type OAuthState = {
  [M in (typeof stateMethods)[number]]: (...args: Parameters<OAuthStore[M]>) => Promise<ReturnType<OAuthStore[M]>>;
};

/** The SQLite store as OAuthState: each method answers at once, as a promise. */
export function sqliteOAuthState(store: OAuthStore): OAuthState {
  const state: Record<string, (...args: unknown[]) => Promise<unknown>> = {};
  for (const method of stateMethods) {
    // Each of these is a method of the store, called with the arguments OAuthState gives it.
    const call = store[method] as (...args: unknown[]) => unknown;
    state[method] = async (...args) => call.apply(store, args);
  }
  // Built above with one entry per method of OAuthState.
  return state as OAuthState;
}

export class OAuthStore {
  /** Fixed statement texts, each prepared once (bounded anyway). */
  readonly statements: StatementCache;
  private signing: SigningKey | undefined;
  private readonly keys = new Map<string, SigningKey>();

  private constructor(private readonly db: SqliteDatabase) {
    this.statements = fixedTextStatements(db);
  }

  /** The one OAuthStore of a system database. */
  static of(system: SystemStore): OAuthStore {
    let store = stores.get(system);
    if (!store) {
      store = new OAuthStore(system.db);
      stores.set(system, store);
    }
    return store;
  }

  /** The statement of a fixed text, with the shape of its rows named by the caller. */
  private sql<Row = unknown>(text: string): SqliteStatement<Row> {
    return this.statements.rows<Row>(text);
  }

  environmentById(id: string): Environment | undefined {
    return this.sql<Environment>('SELECT id, name, created_at FROM environment WHERE id = ?').get(id);
  }

  // ----------------------------------------------------------------------- signing keys

  /** The key new tokens are signed with; made on first use (HS256, 256 random bits). */
  signingKey(): SigningKey {
    if (this.signing) return this.signing;
    // The row shape of this store's own SQL text (SQLite gives untyped rows).
    let row = this.sql(
      "SELECT id, secret FROM signing_key WHERE retired_at IS NULL AND algorithm = 'HS256' ORDER BY created_at DESC, id DESC LIMIT 1",
    ).get() as { id: string; secret: string } | undefined;
    if (!row) {
      row = { id: uuidv7(), secret: randomBytes(32).toString('base64url') };
      this.sql("INSERT INTO signing_key (id, algorithm, secret, created_at) VALUES (?, 'HS256', ?, ?)").run(
        row.id,
        row.secret,
        nowTimestamp(),
      );
    }
    this.signing = { id: row.id, secret: Buffer.from(row.secret, 'base64url') };
    return this.signing;
  }

  /** A key by its id (`kid`), retired ones included so tokens they signed can still be refused cleanly. */
  keyById(id: string): (SigningKey & { retired: boolean }) | undefined {
    const cached = this.keys.get(id);
    if (cached) return { ...cached, retired: false };
    // The row shape of this store's own SQL text (SQLite gives untyped rows).
    const row = this.sql("SELECT id, secret, retired_at FROM signing_key WHERE id = ? AND algorithm = 'HS256'").get(id) as
      { id: string; secret: string; retired_at: string | null } | undefined;
    if (!row) return undefined;
    const key = { id: row.id, secret: Buffer.from(row.secret, 'base64url') };
    if (row.retired_at) return { ...key, retired: true };
    this.keys.set(id, key);
    return { ...key, retired: false };
  }

  // ----------------------------------------------------------------------------- clients

  insertClient(client: Omit<StoredClient, 'created_at' | 'updated_at'>): StoredClient {
    const now = nowTimestamp();
    this.sql(
      `INSERT INTO oauth_client (id, name, redirect_uris, confidential, secret_hash, environment_id, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ).run(
      client.id,
      client.name,
      JSON.stringify(client.redirect_uris),
      client.confidential ? 1 : 0,
      client.secret_hash,
      client.environment_id,
      now,
      now,
    );
    return this.client(client.id)!;
  }

  /** A live client. */
  client(id: string): StoredClient | undefined {
    const row = this.sql<ClientRow>('SELECT * FROM oauth_client WHERE id = ? AND deleted_at IS NULL').get(id);
    return row ? clientOf(row) : undefined;
  }

  /** Live clients limited to one environment, oldest first. */
  clientsOf(environmentId: string, limit: number, offset: number): { count: number; rows: StoredClient[] } {
    const { n } = this.sql<{ n: number }>('SELECT count(*) AS n FROM oauth_client WHERE environment_id = ? AND deleted_at IS NULL').get(
      environmentId,
    )!;
    const rows = this.sql<ClientRow>(
      'SELECT * FROM oauth_client WHERE environment_id = ? AND deleted_at IS NULL ORDER BY created_at, id LIMIT ? OFFSET ?',
    ).all(environmentId, limit, offset);
    return { count: n, rows: rows.map(clientOf) };
  }

  updateClient(id: string, changes: { name?: string; redirect_uris?: string[] }): StoredClient | undefined {
    const current = this.client(id);
    if (!current) return undefined;
    this.sql('UPDATE oauth_client SET name = ?, redirect_uris = ?, updated_at = ? WHERE id = ?').run(
      changes.name ?? current.name,
      JSON.stringify(changes.redirect_uris ?? current.redirect_uris),
      nowTimestamp(),
      id,
    );
    return this.client(id);
  }

  /** Soft-deletes the client and revokes every sign-in made through it. */
  deleteClient(id: string): boolean {
    return this.db.transaction(() => {
      const now = nowTimestamp();
      const result = this.sql('UPDATE oauth_client SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL').run(
        now,
        now,
        id,
      );
      if (result.changes === 0) return false;
      this.sql(
        "UPDATE oauth_token_family SET revoked_at = ?, revoked_reason = 'client deleted' WHERE client_id = ? AND revoked_at IS NULL",
      ).run(now, id);
      return true;
    })();
  }

  // ------------------------------------------------------------------------------- codes

  insertCode(codeHash: string, code: Omit<StoredCode, 'used_at' | 'family_id'>): void {
    // Codes live for seconds; whatever expired a while ago is of no use, reuse detection included.
    this.sql('DELETE FROM oauth_code WHERE expires_at < ?').run(nowMs() - 10 * 60_000);
    this.sql(
      `INSERT INTO oauth_code (code_hash, client_id, environment_id, user_id, redirect_uri, code_challenge, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?)`,
    ).run(codeHash, code.client_id, code.environment_id, code.user_id, code.redirect_uri, code.code_challenge, code.expires_at);
  }

  /**
   * Marks the code used and returns it as it was before: a code whose `used_at` is already set
   * is being replayed. The read and the mark are one transaction. A code of another client is
   * not known to this one (and is not used up by the attempt).
   */
  takeCode(codeHash: string, clientId: string): StoredCode | undefined {
    return this.db.transaction(() => {
      const row = this.sql<StoredCode>('SELECT * FROM oauth_code WHERE code_hash = ?').get(codeHash);
      if (!row || row.client_id !== clientId) return undefined;
      if (!row.used_at) this.sql('UPDATE oauth_code SET used_at = ? WHERE code_hash = ?').run(nowTimestamp(), codeHash);
      return row;
    })();
  }

  /** Remembers which sign-in a code led to, so a replayed code can revoke it. */
  linkCodeToFamily(codeHash: string, familyId: string): void {
    this.sql('UPDATE oauth_code SET family_id = ? WHERE code_hash = ?').run(familyId, codeHash);
  }

  // -------------------------------------------------------------------- families, tokens

  createFamily(family: Omit<TokenFamily, 'id' | 'revoked_at'>): TokenFamily {
    const id = uuidv7();
    this.sql('INSERT INTO oauth_token_family (id, client_id, environment_id, user_id, created_at) VALUES (?, ?, ?, ?, ?)').run(
      id,
      family.client_id,
      family.environment_id,
      family.user_id,
      nowTimestamp(),
    );
    return { id, ...family, revoked_at: null };
  }

  family(id: string): TokenFamily | undefined {
    return this.sql<TokenFamily>('SELECT id, client_id, environment_id, user_id, revoked_at FROM oauth_token_family WHERE id = ?').get(id);
  }

  revokeFamily(id: string, reason: string): void {
    this.sql('UPDATE oauth_token_family SET revoked_at = ?, revoked_reason = ? WHERE id = ? AND revoked_at IS NULL').run(
      nowTimestamp(),
      reason,
      id,
    );
  }

  insertRefreshToken(tokenHash: string, familyId: string, expiresAt: number): void {
    this.sql('INSERT INTO oauth_refresh_token (token_hash, family_id, created_at, expires_at) VALUES (?, ?, ?, ?)').run(
      tokenHash,
      familyId,
      nowTimestamp(),
      expiresAt,
    );
  }

  /**
   * Uses a refresh token: the first use rotates it; any later use is a replay, which revokes
   * the whole family (every refresh token and access token of that sign-in). A token of
   * another client is not known to this one (and is not used up by the attempt).
   */
  useRefreshToken(tokenHash: string, clientId: string, now: number = nowMs()): RefreshOutcome {
    return this.db.transaction((): RefreshOutcome => {
      // The row shape of this store's own SQL text (SQLite gives untyped rows).
      const row = this.sql(
        `SELECT t.used_at, t.expires_at, f.id, f.client_id, f.environment_id, f.user_id, f.revoked_at
         FROM oauth_refresh_token t JOIN oauth_token_family f ON f.id = t.family_id WHERE t.token_hash = ?`,
      ).get(tokenHash) as RefreshRow | undefined;
      const { outcome, revoke, markUsed } = refreshDecision(row, clientId, now);
      if (revoke) this.revokeFamily(revoke.familyId, revoke.reason);
      if (markUsed) this.sql('UPDATE oauth_refresh_token SET used_at = ? WHERE token_hash = ?').run(nowTimestamp(), tokenHash);
      return outcome;
    })();
  }
}
