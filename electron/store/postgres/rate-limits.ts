/**
 * Rate limits shared by every node of the team server (docs/architecture.md "Team server on
 * PostgreSQL", docs/API.md "Rate limits"). The API's `SlidingWindowLimiter`
 * (electron/api/rate-limit.ts) counts in one process's memory, so N nodes would each allow the
 * limit; this one counts in the database, with the same policy: at most `limit` events for a key
 * in any `windowMs` (a sliding window, not a fixed one, which would allow twice the limit across
 * a window's edge), the same keys (a key over 128 characters kept as its SHA-256 digest), and
 * the same answer (`allowed`, `remaining`, `resetSeconds`).
 *
 * One row per limiter and key holds the times counted in the window (at most `limit` of them).
 * `take` is one `INSERT … ON CONFLICT DO UPDATE … RETURNING`: PostgreSQL locks the row for the
 * update and evaluates it on the newest version, so two nodes counting one key at once count
 * in turn, and never both take the last free place. A refused event counts nothing, as in
 * memory. Rows whose newest time left the window are pruned (at most once a window per node),
 * instead of the in-memory limiter's least-recently-used bound on keys.
 *
 * Times come from the node's clock (injectable for tests), as in memory; nodes' clocks must
 * agree to well within a window, which NTP gives.
 */
import { createHash } from 'node:crypto';
import type { PostgresMigration, PostgresPool } from './postgres-database.js';
import { nowMs } from '../../../shared/clock.js';

/** Server migration (the `planner` schema): the counted times of every limiter's keys. */
export const rateLimitsMigration: PostgresMigration = {
  version: 3,
  name: 'rate-limits',
  async up(client) {
    // `times`: epoch milliseconds of the events counted, each within a window of the last take;
    // `expires_at`: the newest of them plus the window, after which the row counts nothing.
    await client.query(`
      CREATE TABLE planner.rate_limit (
        limiter text NOT NULL,
        key text NOT NULL,
        times bigint[] NOT NULL,
        allowed boolean NOT NULL,
        expires_at bigint NOT NULL,
        PRIMARY KEY (limiter, key)
      );
      CREATE INDEX rate_limit_expiry ON planner.rate_limit (expires_at);
      CREATE FUNCTION planner.rate_limit_recent(times bigint[], since bigint) RETURNS bigint[]
        LANGUAGE sql IMMUTABLE PARALLEL SAFE
        AS 'SELECT ARRAY(SELECT t FROM unnest(times) AS t WHERE t > since ORDER BY t)';
    `);
  },
};

/** The limits: the same options as the in-memory limiter (its `maxKeys` does not apply). */
export interface SharedRateLimitOptions {
  limit: number;
  windowMs: number;
}

/** Where a key stands: the shape of the API's `RateLimitState`, so its headers and 429 apply. */
export interface SharedRateLimitState {
  /** False when the key is at its limit (`take` then counted nothing). */
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until an event is free again (0 when nothing is counted). */
  resetSeconds: number;
}

const longestKeptKey = 128;

export class PostgresRateLimiter {
  private prunedAt = -Infinity;

  constructor(
    private readonly pool: PostgresPool,
    /** Which limit this is (`oauth`, `failed-authentication`): each counts its keys apart. */
    private readonly name: string,
    private readonly options: SharedRateLimitOptions,
  ) {}

  /** Counts one event for `key` unless it is at its limit, for all nodes; says where the key stands. */
  async take(key: string, now: number = nowMs()): Promise<SharedRateLimitState> {
    const { limit, windowMs } = this.options;
    const since = now - windowMs;
    const { rows } = await this.pool.query<{ times: number[]; allowed: boolean }>({
      // In SET, `r` is the row as it was: the recent times are worked out from it each time.
      // The times come back as float8, which pg reads as numbers (epoch ms are exact in a double).
      text: `
        INSERT INTO planner.rate_limit AS r (limiter, key, times, allowed, expires_at)
        VALUES ($1, $2, CASE WHEN $4::integer > 0 THEN ARRAY[$3::bigint] ELSE '{}'::bigint[] END, $4::integer > 0, $3::bigint + $5::bigint)
        ON CONFLICT (limiter, key) DO UPDATE SET
          allowed = cardinality(planner.rate_limit_recent(r.times, $6::bigint)) < $4::integer,
          times = CASE WHEN cardinality(planner.rate_limit_recent(r.times, $6::bigint)) < $4::integer
            THEN planner.rate_limit_recent(r.times, $6::bigint) || $3::bigint
            ELSE planner.rate_limit_recent(r.times, $6::bigint) END,
          expires_at = CASE WHEN cardinality(planner.rate_limit_recent(r.times, $6::bigint)) < $4::integer
            THEN greatest(r.expires_at, $3::bigint + $5::bigint) ELSE r.expires_at END
        RETURNING times::float8[] AS times, allowed`,
      values: [this.name, keyOf(key), now, limit, windowMs, since],
    });
    if (now - this.prunedAt >= windowMs) {
      this.prunedAt = now;
      await this.prune(now);
    }
    const row = rows[0]!;
    return this.state(row.allowed, row.times, now);
  }

  /** Where `key` stands, counting nothing. */
  async peek(key: string, now: number = nowMs()): Promise<SharedRateLimitState> {
    const { rows } = await this.pool.query<{ times: number[] }>({
      text: 'SELECT planner.rate_limit_recent(times, $3::bigint)::float8[] AS times FROM planner.rate_limit WHERE limiter = $1 AND key = $2',
      values: [this.name, keyOf(key), now - this.options.windowMs],
    });
    const recent = rows[0]?.times ?? [];
    return this.state(recent.length < this.options.limit, recent, now);
  }

  /** Deletes the rows of this limiter that count nothing any more at `now`; answers how many. */
  async prune(now: number = nowMs()): Promise<number> {
    const result = await this.pool.query('DELETE FROM planner.rate_limit WHERE limiter = $1 AND expires_at <= $2', [this.name, now]);
    return result.rowCount ?? 0;
  }

  private state(allowed: boolean, recent: number[], now: number): SharedRateLimitState {
    const { limit, windowMs } = this.options;
    const oldest = recent.length > 0 ? Math.min(...recent) : undefined;
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - recent.length),
      resetSeconds: oldest === undefined ? 0 : Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)),
    };
  }
}

function keyOf(key: string): string {
  return key.length > longestKeptKey ? createHash('sha256').update(key).digest('base64url') : key;
}
