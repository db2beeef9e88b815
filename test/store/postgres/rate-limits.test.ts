/**
 * Rate limits counted in the database for all nodes (docs/architecture.md "Team server on
 * PostgreSQL"): the in-memory limiter's sliding-window policy, with one count shared by every
 * node. Two pools are two nodes on one real PostgreSQL cluster; the clock is passed in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../../shared/ids.js';
import { SlidingWindowLimiter } from '../../../electron/api/rate-limit.js';
import { PostgresRateLimiter } from '../../../electron/store/postgres/rate-limits.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

let team: TeamDatabase;
let pools: TeamDatabase['nodes'];

const limits = { limit: 5, windowMs: 60_000 };
const t0 = Date.UTC(2026, 10, 27, 9, 0, 0);

beforeAll(async () => {
  team = await startTeamDatabase('limits');
  pools = team.nodes;
});

afterAll(() => team?.stop());

/** The same limit on each node, as each node's OAuth routes would make it. */
function onBothNodes(name = 'oauth', options = limits): [PostgresRateLimiter, PostgresRateLimiter] {
  return [new PostgresRateLimiter(pools[0], name, options), new PostgresRateLimiter(pools[1], name, options)];
}

const rowsOf = async (name: string) =>
  (await pools[0].query<{ n: number }>('SELECT count(*)::integer AS n FROM planner.rate_limit WHERE limiter = $1', [name])).rows[0]!.n;

describe('rate limits shared by all nodes', () => {
  it('allows the limit in total for requests spread over both nodes at once, and refuses the next on either', async () => {
    const nodes = onBothNodes();
    for (let round = 0; round < 20; round++) {
      const key = `10.0.0.${round}|token|${uuidv7()}`;
      // Twelve requests at the same moment, six through each node.
      const states = await Promise.all(Array.from({ length: 12 }, (_, i) => nodes[i % 2]!.take(key, t0 + i)));
      expect(states.filter((s) => s.allowed)).toHaveLength(limits.limit);
      expect(states.every((s) => s.limit === limits.limit)).toBe(true);
      for (const node of nodes) expect(await node.take(key, t0 + 20)).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 60 });
    }
  });

  it('counts requests of both nodes in turn with the answers of the in-memory limiter', async () => {
    const nodes = onBothNodes();
    const memory = new SlidingWindowLimiter(limits);
    const key = '10.0.1.1|authorize|unknown';
    // Seven requests 10 s apart, alternating nodes: the 6th and 7th are over the limit.
    for (let i = 0; i < 7; i++) {
      const now = t0 + i * 10_000;
      expect(await nodes[i % 2]!.take(key, now)).toEqual(memory.take(key, now));
    }
    expect(await nodes[0].peek(key, t0 + 61_000)).toEqual(memory.peek(key, t0 + 61_000));
  });

  it('frees places as the window slides past them, and a new window starts fresh', async () => {
    const nodes = onBothNodes();
    const key = '10.0.2.1|accept';
    for (let i = 0; i < 5; i++) expect((await nodes[i % 2]!.take(key, t0 + i * 1_000)).allowed).toBe(true);
    expect(await nodes[1].take(key, t0 + 59_000)).toEqual({ allowed: false, limit: 5, remaining: 0, resetSeconds: 1 });
    // The first request (t0) has left the window at t0 + 60 s: one place, not five.
    expect(await nodes[0].take(key, t0 + 60_001)).toEqual({ allowed: true, limit: 5, remaining: 0, resetSeconds: 1 });
    expect((await nodes[1].take(key, t0 + 60_002)).allowed).toBe(false);
    // A whole window later nothing is counted any more.
    const fresh = t0 + 10 * 60_000;
    expect(await nodes[1].peek(key, fresh)).toEqual({ allowed: true, limit: 5, remaining: 5, resetSeconds: 0 });
    for (let i = 0; i < 5; i++) expect((await nodes[i % 2]!.take(key, fresh + i)).allowed).toBe(true);
    expect((await nodes[0].take(key, fresh + 5)).allowed).toBe(false);
  });

  it('peeks without counting, keeps limits and keys apart, and counts a long key under its digest', async () => {
    const [node] = onBothNodes('failed-authentication', { limit: 2, windowMs: 60_000 });
    const [other] = onBothNodes('oauth-apart', { limit: 2, windowMs: 60_000 });
    for (let i = 0; i < 4; i++) expect((await node!.peek('10.0.3.1', t0)).allowed).toBe(true);
    await node!.take('10.0.3.1', t0);
    await node!.take('10.0.3.1', t0);
    expect((await node!.take('10.0.3.1', t0)).allowed).toBe(false);
    expect((await node!.take('10.0.3.2', t0)).allowed).toBe(true);
    expect((await other!.take('10.0.3.1', t0)).allowed).toBe(true);

    const long = `10.0.3.3|token|${'x'.repeat(300)}`;
    await node!.take(long, t0);
    await node!.take(long, t0);
    expect((await node!.take(long, t0)).allowed).toBe(false);
    const { rows } = await pools[0].query<{ key: string }>("SELECT key FROM planner.rate_limit WHERE limiter = 'failed-authentication'");
    expect(Math.max(...rows.map((r) => r.key.length))).toBeLessThanOrEqual(128);
  });

  it('prunes the rows that count nothing any more, and only those', async () => {
    const [node] = onBothNodes('pruned', limits);
    await node!.take('10.0.4.1', t0);
    await node!.take('10.0.4.2', t0 + 30_000);
    expect(await rowsOf('pruned')).toBe(2);
    expect(await node!.prune(t0 + 60_000)).toBe(1);
    expect(await rowsOf('pruned')).toBe(1);
    // A take once a window prunes on its own.
    await node!.take('10.0.4.3', t0 + 200_000);
    expect(await rowsOf('pruned')).toBe(1);
  });
});
