/**
 * The OAuth bookkeeping of the team server on PostgreSQL (docs/architecture.md "Team server on
 * PostgreSQL", docs/API.md "OAuth"): signing keys, clients, authorization codes, token families
 * and refresh tokens. The SQLite counterpart is `OAuthStore` (oauth-store.ts), whose tables live
 * in the system database, not in an environment's: so these live in the server's own `planner`
 * schema (a server migration), which no environment's role can read. Codes, refresh tokens and
 * client secrets arrive here already digested, as there.
 *
 * The methods are `OAuthStore`'s, with `Promise` results. What several nodes change:
 *
 * - A code is redeemed at most once, even by two nodes at the same moment: the first use is one
 *   `UPDATE … WHERE used_at IS NULL RETURNING`, and the row lock it takes makes the other wait
 *   and then find the code used.
 * - A replayed code revokes what its first exchange gave. In one process the exchange links the
 *   code to its new sign-in before any other request runs; across nodes a replay can arrive
 *   between the two, so a replay also marks the code (`replayed_at`), and a sign-in linked to a
 *   marked code is revoked as it is linked. Both take the code's row lock, so one of the two
 *   always sees the other.
 * - A refresh token is used under row locks on the token and its family (`FOR UPDATE`), so two
 *   nodes using one token at once rotate it once, and the second use revokes the family,
 *   whichever nodes served them.
 * - The signing key is made once for all nodes (a unique index on the current key of an
 *   algorithm), so a token signed by one node verifies on every other.
 *
 * Not here: `environmentById`, which reads the environment registry (names), not OAuth state.
 * No foreign key to the environments either, unlike SQLite: the registry of environments on
 * PostgreSQL (`planner.environment_schemas`) is made when an environment's schema is, which need
 * not come first.
 */
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { nowTimestamp, uuidv7 } from '../../../shared/ids.js';
import {
  refreshDecision,
  type RefreshOutcome,
  type OAuthState,
  type RefreshRow,
  type SigningKey,
  type StoredClient,
  type StoredCode,
  type TokenFamily,
} from '../oauth-store.js';
import { bigintsAsNumbers, inTransaction, type PostgresClient, type PostgresMigration, type PostgresPool } from './postgres-database.js';
import { nowMs } from '../../../shared/clock.js';

/** Server migration (the `planner` schema): the tables of `OAuthStore` (SQLite system migration 2). */
export const oauthStateMigration: PostgresMigration = {
  version: 2,
  name: 'oauth-state',
  async up(client) {
    // Times of day as ISO 8601 text and expiries as epoch milliseconds, as in SQLite, so rows
    // come back in the shapes `OAuthStore` answers.
    await client.query(`
      CREATE TABLE planner.signing_key (
        id text PRIMARY KEY,
        algorithm text NOT NULL,
        secret text NOT NULL,
        created_at text NOT NULL,
        retired_at text
      );
      CREATE UNIQUE INDEX signing_key_current ON planner.signing_key (algorithm) WHERE retired_at IS NULL;
      CREATE TABLE planner.oauth_client (
        id text PRIMARY KEY,
        name text NOT NULL,
        redirect_uris jsonb NOT NULL,
        confidential boolean NOT NULL,
        secret_hash text,
        environment_id text,
        created_at text NOT NULL,
        updated_at text NOT NULL,
        deleted_at text
      );
      CREATE INDEX oauth_client_environment ON planner.oauth_client (environment_id);
      CREATE TABLE planner.oauth_token_family (
        id text PRIMARY KEY,
        client_id text NOT NULL,
        environment_id text NOT NULL,
        user_id text NOT NULL,
        created_at text NOT NULL,
        revoked_at text,
        revoked_reason text
      );
      CREATE INDEX oauth_token_family_client ON planner.oauth_token_family (client_id);
      CREATE TABLE planner.oauth_code (
        code_hash text PRIMARY KEY,
        client_id text NOT NULL,
        environment_id text NOT NULL,
        user_id text NOT NULL,
        redirect_uri text NOT NULL,
        code_challenge text,
        expires_at bigint NOT NULL,
        used_at text,
        family_id text,
        replayed_at text
      );
      CREATE INDEX oauth_code_expiry ON planner.oauth_code (expires_at);
      CREATE TABLE planner.oauth_refresh_token (
        token_hash text PRIMARY KEY,
        family_id text NOT NULL REFERENCES planner.oauth_token_family (id) ON DELETE CASCADE,
        created_at text NOT NULL,
        expires_at bigint NOT NULL,
        used_at text
      );
      CREATE INDEX oauth_refresh_token_family ON planner.oauth_refresh_token (family_id);
    `);
  },
};

type Queryable = Pick<PostgresPool | PostgresClient, 'query'>;

async function rows<Row extends pg.QueryResultRow>(db: Queryable, text: string, values: unknown[] = []): Promise<Row[]> {
  return (await db.query<Row>({ text, values, types: bigintsAsNumbers })).rows;
}

const codeColumns = 'client_id, environment_id, user_id, redirect_uri, code_challenge, expires_at, used_at, family_id';
const familyColumns = 'id, client_id, environment_id, user_id, revoked_at';
const clientColumns = 'id, name, redirect_uris, confidential, secret_hash, environment_id, created_at, updated_at';

function revoke(db: Queryable, familyId: string, reason: string): Promise<unknown> {
  return db.query('UPDATE planner.oauth_token_family SET revoked_at = $2, revoked_reason = $3 WHERE id = $1 AND revoked_at IS NULL', [
    familyId,
    nowTimestamp(),
    reason,
  ]);
}

export class PostgresOAuthStore implements OAuthState {
  private signing: SigningKey | undefined;
  private readonly keys = new Map<string, SigningKey>();

  constructor(
    private readonly pool: PostgresPool,
    /** The clock old codes are pruned by, in ms (the process clock, as `OAuthStore`'s). */
    private readonly now: () => number = nowMs,
  ) {}

  // ----------------------------------------------------------------------- signing keys

  /** The key new tokens are signed with; made on first use (HS256, 256 random bits), once for all nodes. */
  async signingKey(): Promise<SigningKey> {
    if (this.signing) return this.signing;
    const current = () =>
      rows<{ id: string; secret: string }>(
        this.pool,
        "SELECT id, secret FROM planner.signing_key WHERE retired_at IS NULL AND algorithm = 'HS256' ORDER BY created_at DESC, id DESC LIMIT 1",
      );
    let [row] = await current();
    if (!row) {
      // A node making it at the same moment conflicts on the current-key index: one key wins.
      await this.pool.query(
        "INSERT INTO planner.signing_key (id, algorithm, secret, created_at) VALUES ($1, 'HS256', $2, $3) ON CONFLICT DO NOTHING",
        [uuidv7(), randomBytes(32).toString('base64url'), nowTimestamp()],
      );
      [row] = await current();
    }
    this.signing = { id: row!.id, secret: Buffer.from(row!.secret, 'base64url') };
    return this.signing;
  }

  /** A key by its id (`kid`), retired ones included so tokens they signed can still be refused cleanly. */
  async keyById(id: string): Promise<(SigningKey & { retired: boolean }) | undefined> {
    const cached = this.keys.get(id);
    if (cached) return { ...cached, retired: false };
    const [row] = await rows<{ id: string; secret: string; retired_at: string | null }>(
      this.pool,
      "SELECT id, secret, retired_at FROM planner.signing_key WHERE id = $1 AND algorithm = 'HS256'",
      [id],
    );
    if (!row) return undefined;
    const key = { id: row.id, secret: Buffer.from(row.secret, 'base64url') };
    if (row.retired_at) return { ...key, retired: true };
    // Cached like OAuthStore does: nothing retires a key yet. Retiring one on a running team
    // server will have to reach every node's cache.
    this.keys.set(id, key);
    return { ...key, retired: false };
  }

  // ----------------------------------------------------------------------------- clients

  async insertClient(client: Omit<StoredClient, 'created_at' | 'updated_at'>): Promise<StoredClient> {
    const now = nowTimestamp();
    const [row] = await rows<StoredClient>(
      this.pool,
      `INSERT INTO planner.oauth_client (id, name, redirect_uris, confidential, secret_hash, environment_id, created_at, updated_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $7) RETURNING ${clientColumns}`,
      [client.id, client.name, JSON.stringify(client.redirect_uris), client.confidential, client.secret_hash, client.environment_id, now],
    );
    return row!;
  }

  /** A live client. */
  async client(id: string): Promise<StoredClient | undefined> {
    const [row] = await rows<StoredClient>(
      this.pool,
      `SELECT ${clientColumns} FROM planner.oauth_client WHERE id = $1 AND deleted_at IS NULL`,
      [id],
    );
    return row;
  }

  /** Live clients limited to one environment, oldest first. */
  async clientsOf(environmentId: string, limit: number, offset: number): Promise<{ count: number; rows: StoredClient[] }> {
    // One statement, so the count and the page are read from one snapshot.
    const found = await rows<StoredClient & { total: number }>(
      this.pool,
      `SELECT ${clientColumns}, count(*) OVER () AS total FROM planner.oauth_client
       WHERE environment_id = $1 AND deleted_at IS NULL ORDER BY created_at, id LIMIT $2 OFFSET $3`,
      [environmentId, limit, offset],
    );
    const count =
      found[0]?.total ??
      (
        await rows<{ n: number }>(
          this.pool,
          'SELECT count(*) AS n FROM planner.oauth_client WHERE environment_id = $1 AND deleted_at IS NULL',
          [environmentId],
        )
      )[0]!.n;
    return { count, rows: found.map(({ total: _total, ...client }) => client) };
  }

  async updateClient(id: string, changes: { name?: string; redirect_uris?: string[] }): Promise<StoredClient | undefined> {
    const [row] = await rows<StoredClient>(
      this.pool,
      `UPDATE planner.oauth_client SET name = coalesce($2, name), redirect_uris = coalesce($3::jsonb, redirect_uris), updated_at = $4
       WHERE id = $1 AND deleted_at IS NULL RETURNING ${clientColumns}`,
      [id, changes.name ?? null, changes.redirect_uris ? JSON.stringify(changes.redirect_uris) : null, nowTimestamp()],
    );
    return row;
  }

  /** Soft-deletes the client and revokes every sign-in made through it. */
  deleteClient(id: string): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      const now = nowTimestamp();
      const deleted = await client.query(
        'UPDATE planner.oauth_client SET deleted_at = $2, updated_at = $2 WHERE id = $1 AND deleted_at IS NULL',
        [id, now],
      );
      if (deleted.rowCount === 0) return false;
      await client.query(
        "UPDATE planner.oauth_token_family SET revoked_at = $2, revoked_reason = 'client deleted' WHERE client_id = $1 AND revoked_at IS NULL",
        [id, now],
      );
      return true;
    });
  }

  // ------------------------------------------------------------------------------- codes

  async insertCode(codeHash: string, code: Omit<StoredCode, 'used_at' | 'family_id'>): Promise<void> {
    // Codes live for seconds; whatever expired a while ago is of no use, reuse detection included.
    await this.pool.query('DELETE FROM planner.oauth_code WHERE expires_at < $1', [this.now() - 10 * 60_000]);
    await this.pool.query(
      `INSERT INTO planner.oauth_code (code_hash, client_id, environment_id, user_id, redirect_uri, code_challenge, expires_at)
       VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [codeHash, code.client_id, code.environment_id, code.user_id, code.redirect_uri, code.code_challenge, code.expires_at],
    );
  }

  /**
   * Marks the code used and returns it as it was before: a code whose `used_at` is already set
   * is being replayed, and a replay revokes the sign-in the code led to (now, or when it is
   * linked). A code of another client is not known to this one (and is not used up by the
   * attempt).
   */
  async takeCode(codeHash: string, clientId: string): Promise<StoredCode | undefined> {
    // The first use, in one statement: of two nodes redeeming at once, the second waits for the
    // first's row lock, then finds used_at set and updates nothing.
    const [first] = await rows<StoredCode>(
      this.pool,
      `UPDATE planner.oauth_code SET used_at = $3 WHERE code_hash = $1 AND client_id = $2 AND used_at IS NULL RETURNING ${codeColumns}`,
      [codeHash, clientId, nowTimestamp()],
    );
    if (first) return { ...first, used_at: null };
    return inTransaction(this.pool, async (client) => {
      const [replayed] = await rows<StoredCode>(
        client,
        `UPDATE planner.oauth_code SET replayed_at = coalesce(replayed_at, $3)
         WHERE code_hash = $1 AND client_id = $2 AND used_at IS NOT NULL RETURNING ${codeColumns}`,
        [codeHash, clientId, nowTimestamp()],
      );
      // A statement of its own: it sees a family linked (and so created) before the lock above was ours.
      if (replayed?.family_id) await revoke(client, replayed.family_id, 'authorization code reused');
      return replayed;
    });
  }

  /**
   * Remembers which sign-in a code led to, so a replayed code can revoke it; a code replayed
   * before this (on another node) revokes it here.
   */
  linkCodeToFamily(codeHash: string, familyId: string): Promise<void> {
    return inTransaction(this.pool, async (client) => {
      const [code] = await rows<{ replayed_at: string | null }>(
        client,
        'UPDATE planner.oauth_code SET family_id = $2 WHERE code_hash = $1 RETURNING replayed_at',
        [codeHash, familyId],
      );
      if (code?.replayed_at) await revoke(client, familyId, 'authorization code reused');
    });
  }

  // -------------------------------------------------------------------- families, tokens

  async createFamily(family: Omit<TokenFamily, 'id' | 'revoked_at'>): Promise<TokenFamily> {
    const id = uuidv7();
    await this.pool.query(
      'INSERT INTO planner.oauth_token_family (id, client_id, environment_id, user_id, created_at) VALUES ($1, $2, $3, $4, $5)',
      [id, family.client_id, family.environment_id, family.user_id, nowTimestamp()],
    );
    return { id, ...family, revoked_at: null };
  }

  async family(id: string): Promise<TokenFamily | undefined> {
    const [row] = await rows<TokenFamily>(this.pool, `SELECT ${familyColumns} FROM planner.oauth_token_family WHERE id = $1`, [id]);
    return row;
  }

  async revokeFamily(id: string, reason: string): Promise<void> {
    await revoke(this.pool, id, reason);
  }

  async insertRefreshToken(tokenHash: string, familyId: string, expiresAt: number): Promise<void> {
    await this.pool.query(
      'INSERT INTO planner.oauth_refresh_token (token_hash, family_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
      [tokenHash, familyId, nowTimestamp(), expiresAt],
    );
  }

  /**
   * Uses a refresh token: the first use rotates it; any later use is a replay, which revokes
   * the whole family (every refresh token and access token of that sign-in). A token of
   * another client is not known to this one (and is not used up by the attempt).
   *
   * The token's and family's rows are locked for the decision, so of two nodes using one token
   * at once, the second waits and then reads it as used.
   */
  useRefreshToken(tokenHash: string, clientId: string, now: number = nowMs()): Promise<RefreshOutcome> {
    return inTransaction(this.pool, async (client): Promise<RefreshOutcome> => {
      const [row] = await rows<RefreshRow>(
        client,
        `SELECT t.used_at, t.expires_at, f.id, f.client_id, f.environment_id, f.user_id, f.revoked_at
         FROM planner.oauth_refresh_token t JOIN planner.oauth_token_family f ON f.id = t.family_id
         WHERE t.token_hash = $1 FOR UPDATE`,
        [tokenHash],
      );
      const { outcome, revoke: revoking, markUsed } = refreshDecision(row, clientId, now);
      if (revoking) await revoke(client, revoking.familyId, revoking.reason);
      if (markUsed)
        await client.query('UPDATE planner.oauth_refresh_token SET used_at = $2 WHERE token_hash = $1', [tokenHash, nowTimestamp()]);
      return outcome;
    });
  }
}
