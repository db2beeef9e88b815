/**
 * Memory stays bounded whatever callers send: the rate limiter keeps at most its cap of keys
 * and counts unknown OAuth clients under one key; the prepared-statement cache keeps at most
 * 500 statements however many filter shapes are asked for. Real HTTP on 127.0.0.1 (from many
 * loopback addresses, one per simulated client) against a real API on SQLite files; the
 * resident memory of this process (which runs the server) is printed before and after.
 */
import { rmSync } from 'node:fs';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlidingWindowLimiter } from '../../electron/api/rate-limit.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { tempDir } from '../helpers/api.js';
import { closeAgents, loopbackAddress, requestFrom } from '../helpers/from-address.js';
import { startInstance, type Instance } from '../helpers/instance.js';

const mib = (bytes: number) => bytes / 1024 / 1024;

// A full garbage collection before each reading, so the figures show what is kept, not what
// merely waits to be collected (a finalized SQLite statement frees its memory only then).
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

function residentMiB(): number {
  collectGarbage();
  return mib(process.memoryUsage().rss);
}

/**
 * The JavaScript heap in use after a full collection: what the process keeps. Where what could
 * leak is JavaScript data (keys in a Map), this is the measure that does not move with how
 * much freed memory the allocator still holds, as RSS does on a busy test run.
 */
function heapKeptMiB(): number {
  collectGarbage();
  return mib(process.memoryUsage().heapUsed);
}

afterAll(() => closeAgents());

/** Runs `count` jobs, `parallel` at a time. */
async function inBatches(count: number, parallel: number, job: (n: number) => Promise<void>): Promise<void> {
  for (let start = 0; start < count; start += parallel) {
    await Promise.all(Array.from({ length: Math.min(parallel, count - start) }, (_, i) => job(start + i)));
  }
}

describe('the prepared-statement cache', () => {
  let folder: string;
  let instance: Instance;
  const headers = { 'x-api-env': 'load', 'x-api-key': 'load-key-123' };

  beforeAll(async () => {
    folder = tempDir('planner-statements-');
    const dataDir = DataDir.open(folder);
    dataDir.system.ensureApiKey(dataDir.system.ensureEnvironment('load').id, headers['x-api-key']);
    dataDir.close();
    instance = await startInstance(folder);
  });

  afterAll(async () => {
    await instance.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps at most 500 statements, and memory stops growing, under 8,000 distinct filter shapes', { timeout: 180_000 }, async () => {
    const fields = ['name', 'description', 'code', 'external_ref', 'created_at', 'updated_at'];
    const ops = ['eq', 'gt', 'lt', 'contains', 'starts_with', 'ends_with'];
    // A distinct filter shape per request (fields and operators picked from n), values as parameters.
    const shape = (n: number) => {
      const atoms: string[] = [];
      let x = n;
      for (let k = 0; k < 60; k++) {
        atoms.push(`${fields[x % 6]}:${ops[Math.floor(x / 6) % 6]}:v`);
        x = Math.floor(x / 3) + k * 7 + n;
      }
      const filter = atoms.slice(0, 20 + (n % 40)).join(n % 2 ? ',or,' : ',and,') + `,and,name:not:eq:${n}`;
      return `filter=${encodeURIComponent(filter)}&sort=${fields[n % 6]}:desc,${fields[(n >> 3) % 6]}&limit=1`;
    };
    const address = loopbackAddress(52, 0);
    expect((await requestFrom(address, `${instance.baseUrl}/v1/project?limit=1`, { headers })).status).toBe(200);
    const store = instance.dataDir.environment(instance.dataDir.system.findEnvironment('load')!.id);
    // Each shape twice, so every one is worth keeping and the cap is what bounds the cache.
    const askFor = (from: number, to: number) =>
      inBatches(2 * (to - from), 25, async (i) => {
        const answer = await requestFrom(address, `${instance.baseUrl}/v1/project?${shape(from + (i >> 1))}`, { headers });
        expect(answer.status).toBe(200);
      });
    const before = residentMiB();
    await askFor(0, 4_000);
    const middle = residentMiB();
    const keptMiddle = store.cachedStatements;
    await askFor(4_000, 8_000);
    const after = residentMiB();
    console.log(
      `statement cache: 8,000 distinct filter shapes, each twice; statements kept ${keptMiddle} after 4,000 and ${store.cachedStatements} after 8,000 (cap 500); ` +
        `RSS ${before.toFixed(0)} → ${middle.toFixed(0)} → ${after.toFixed(0)} MiB`,
    );
    expect(store.cachedStatements).toBeLessThanOrEqual(500);
    // Once the cache is full, 4,000 more shapes add nothing that stays (about 70 MiB without a bound).
    expect(after - middle).toBeLessThan(30);
  });
});

describe('the OAuth rate limiter', () => {
  let folder: string;
  let instance: Instance;
  const limiter = new SlidingWindowLimiter({ limit: 20, windowMs: 60_000, maxKeys: 1_000 });

  beforeAll(async () => {
    folder = tempDir('planner-limiter-');
    instance = await startInstance(folder, { oauthRateLimit: limiter });
  });

  afterAll(async () => {
    await instance.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  const tokenRequest = (address: string, clientId: string) =>
    requestFrom(address, `${instance.baseUrl}/v1/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'refresh_token', refresh_token: 'x', client_id: clientId }).toString(),
    });

  it('counts every client id that names no application under one key', async () => {
    const address = loopbackAddress(50, 0);
    for (let i = 0; i < 20; i++) expect((await tokenRequest(address, `made-up-${i}`)).status).toBe(401);
    const limited = await tokenRequest(address, 'made-up-20');
    expect(limited.status).toBe(429);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
  });

  it(
    'stays within its cap of keys and memory under 6,000 requests with distinct 60,000-byte client ids',
    { timeout: 180_000 },
    async () => {
      const filler = 'A'.repeat(60_000);
      const before = residentMiB();
      const heapBefore = heapKeptMiB();
      let answered = 0;
      // 2,000 addresses, 3 requests each: twice as many clients as the limiter keeps.
      await inBatches(6_000, 50, async (n) => {
        const answer = await tokenRequest(loopbackAddress(51, n % 2_000), `${n}-${filler}`);
        expect([401, 429]).toContain(answer.status);
        answered++;
      });
      closeAgents();
      const after = residentMiB();
      const heapAfter = heapKeptMiB();
      console.log(
        `OAuth limiter: ${answered} requests with a 60,000-byte client_id from 2,000 addresses; keys kept ${limiter.size} (cap 1,000); heap kept ${heapBefore.toFixed(0)} → ${heapAfter.toFixed(0)} MiB; RSS ${before.toFixed(0)} → ${after.toFixed(0)} MiB`,
      );
      expect(answered).toBe(6_000);
      expect(limiter.size).toBeLessThanOrEqual(1_000);
      // 1,000 kept keys holding the 60,000-byte client ids would keep about 57 MiB.
      expect(heapAfter - heapBefore).toBeLessThan(30);
    },
  );
});
