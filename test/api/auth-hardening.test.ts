/**
 * API keys under attack (docs/API.md "Authentication"): wrong keys cost one digest and one
 * lookup, never a scrypt on the event loop, so a flood of them does not stall the server;
 * timing does not tell which environments exist; keys stored as scrypt hashes by earlier
 * versions keep working and get their digest on first use; failed authentication is limited
 * per client address, on the API and on the local API. Real server processes, real SQLite
 * files, real HTTP on 127.0.0.1 (from several loopback addresses, one per client).
 */
import { randomBytes, scryptSync } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LocalApi } from '../../electron/host/local-api.js';
import { openLocalInstance } from '../../electron/host/local-instance.js';
import { openDatabase } from '../../electron/store/database.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { systemMigrations } from '../../electron/store/migrations/system/index.js';
import { ApiKeyCheckBusy } from '../../electron/store/system.js';
import { tempDir } from '../helpers/api.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { closeAgents, loopbackAddress, requestFrom } from '../helpers/from-address.js';
import { startInstance, type Instance } from '../helpers/instance.js';
import { freePort } from '../helpers/ports.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';

const handKey = 'alpha-key-123';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;
}

function median(values: number[]): number {
  return percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );
}

/** A wrong key in the generated form: always checked, however many failures came before. */
function wrongGeneratedKey(): string {
  return `pk_${randomBytes(16).toString('hex')}_${randomBytes(24).toString('base64url')}`;
}

afterAll(() => closeAgents());

describe('wrong API keys against a server process', () => {
  let folder: string;
  let server: ServerProcess;
  let generatedKey: string;

  beforeAll(async () => {
    folder = tempDir('planner-auth-');
    const dataDir = DataDir.open(folder);
    const alpha = dataDir.system.ensureEnvironment('alpha');
    dataDir.system.ensureApiKey(alpha.id, handKey);
    generatedKey = dataDir.system.addApiKey(alpha.id).key;
    dataDir.system.ensureEnvironment('empty'); // an environment without keys
    dataDir.close();
    server = await startServerProcess(['--data-dir', folder]);
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  it('makes keys in the generated form pk_<key id>_<secret>', () => {
    expect(generatedKey).toMatch(/^pk_[0-9a-f]{32}_[A-Za-z0-9_-]{32}$/);
  });

  it('answers good requests in time while 8 loops send wrong keys from the same address', async () => {
    const url = `${server.url}/v1/project`;
    const end = Date.now() + 2_000;
    const wrongAnswers = new Map<number, number>();
    const attack = async (loop: number) => {
      for (let n = 0; n < 100_000 && Date.now() < end; n++) {
        // Half guess keys in the generated form (checked every time), half keys chosen by hand.
        const key = loop % 2 === 0 ? wrongGeneratedKey() : `guess-${loop}-${n}`;
        const answer = await requestFrom('127.0.0.1', url, { headers: { 'x-api-env': 'alpha', 'x-api-key': key } });
        wrongAnswers.set(answer.status, (wrongAnswers.get(answer.status) ?? 0) + 1);
      }
    };
    const attackers = Array.from({ length: 8 }, (_, loop) => attack(loop));
    const times: number[] = [];
    const statuses = new Set<number>();
    await new Promise((resolve) => setTimeout(resolve, 50));
    for (let n = 0; n < 100_000 && Date.now() < end; n++) {
      const started = performance.now();
      const answer = await requestFrom('127.0.0.1', url, { headers: { 'x-api-env': 'alpha', 'x-api-key': generatedKey } });
      times.push(performance.now() - started);
      statuses.add(answer.status);
    }
    await Promise.all(attackers);
    times.sort((a, b) => a - b);
    const wrong = [...wrongAnswers.values()].reduce((sum, n) => sum + n, 0);
    console.log(
      `good requests under a wrong-key flood: ${times.length} in 2 s, median ${percentile(times, 0.5).toFixed(1)} ms, p95 ${percentile(times, 0.95).toFixed(1)} ms; ` +
        `wrong-key requests answered: ${wrong} (${[...wrongAnswers].map(([status, n]) => `${n}× ${status}`).join(', ')})`,
    );
    expect([...statuses]).toEqual([200]);
    // Generous, so a busy machine does not fail it: with a scrypt per wrong key it was seconds.
    expect(percentile(times, 0.95)).toBeLessThan(400);
    expect(wrong).toBeGreaterThan(100);
    expect([...wrongAnswers.keys()].every((status) => status === 401 || status === 429)).toBe(true);
  });

  it('takes as long for a wrong key whether the environment exists, has no keys or does not exist', async () => {
    const url = `${server.url}/v1/project`;
    const environments = ['alpha', 'empty', 'no-such-environment'];
    const times = new Map<string, number[]>(environments.map((name) => [name, []]));
    // Each environment's guesses come from addresses of their own, 15 per address: under the
    // failure limit, so every key is really checked (a request without credentials is not counted).
    for (let n = 0; n < 60; n++) {
      for (const [index, name] of environments.entries()) {
        const address = loopbackAddress(10 + index, Math.floor(n / 15));
        if (n % 15 === 0) await requestFrom(address, url);
        const started = performance.now();
        const answer = await requestFrom(address, url, {
          headers: { 'x-api-env': name, 'x-api-key': `wrong-${n}-${randomBytes(4).toString('hex')}` },
        });
        times.get(name)!.push(performance.now() - started);
        expect(answer.status).toBe(401);
      }
    }
    const medians = environments.map((name) => median(times.get(name)!));
    console.log(`median of a wrong key: ${environments.map((name, i) => `${name} ${medians[i]!.toFixed(2)} ms`).join(', ')}`);
    // None of them runs scrypt (about 40 ms and more here, 157 ms before): all are a lookup.
    for (const value of medians) expect(value).toBeLessThan(20);
  });
});

describe('keys stored by earlier versions (scrypt hashes)', () => {
  let folder: string;
  let instance: Instance | undefined;

  /** A data folder as the previous version left it: system schema 2, keys as scrypt hashes. */
  function legacyFolder(keys: string[]): { environmentId: string; keyIds: string[] } {
    const db = openDatabase(DataDir.systemFile(folder), systemMigrations.slice(0, 2));
    const environmentId = '01900000-0000-7000-8000-000000000001';
    db.prepare('INSERT INTO environment (id, name, created_at) VALUES (?, ?, ?)').run(environmentId, 'alpha', '2026-01-01T00:00:00.000Z');
    const keyIds = keys.map((key, i) => {
      const salt = randomBytes(16);
      const id = `01900000-0000-7000-8000-00000000010${i}`;
      const hash = scryptSync(key, salt, 32, { N: 16384, r: 8, p: 1 });
      db.prepare('INSERT INTO api_key (id, environment_id, salt, hash, label, created_at) VALUES (?, ?, ?, ?, ?, ?)').run(
        id,
        environmentId,
        salt.toString('hex'),
        hash.toString('hex'),
        'first-start',
        '2026-01-01T00:00:00.000Z',
      );
      return id;
    });
    db.close();
    return { environmentId, keyIds };
  }

  const keyRow = (id: string) =>
    instance!.dataDir.system.db.prepare('SELECT digest, salt, hash FROM api_key WHERE id = ?').get(id) as Record<string, string | null>;

  beforeAll(() => {
    folder = tempDir('planner-legacy-keys-');
  });

  afterEach(async () => {
    await instance?.stop();
    instance = undefined;
    rmSync(folder, { recursive: true, force: true });
    folder = tempDir('planner-legacy-keys-');
  });

  afterAll(() => rmSync(folder, { recursive: true, force: true }));

  it('keeps a key made by the previous version working, and gives it a digest on first use', async () => {
    const { environmentId, keyIds } = legacyFolder([handKey, 'second-old-key']);
    instance = await startInstance(folder);
    const headers = { 'x-api-env': 'alpha', 'x-api-key': handKey };

    expect(keyRow(keyIds[0]!)).toEqual({ digest: null, salt: expect.any(String), hash: expect.any(String) });
    expect((await requestFrom('127.0.0.1', `${instance.baseUrl}/v1/project`, { headers })).status).toBe(200);
    // From now on it is found by its digest; the slow hash is gone.
    expect(keyRow(keyIds[0]!)).toEqual({ digest: expect.stringMatching(/^[0-9a-f]{64}$/), salt: null, hash: null });
    expect((await requestFrom('127.0.0.1', `${instance.baseUrl}/v1/project`, { headers })).status).toBe(200);
    expect(
      (await requestFrom('127.0.0.1', `${instance.baseUrl}/v1/project`, { headers: { ...headers, 'x-api-key': 'not-the-key' } })).status,
    ).toBe(401);

    // `--api-key` given again at start finds the old row instead of adding a second one.
    instance.dataDir.system.ensureApiKey(environmentId, 'second-old-key', 'cli');
    expect(instance.dataDir.system.countApiKeys(environmentId)).toBe(2);
    expect(keyRow(keyIds[1]!).digest).toMatch(/^[0-9a-f]{64}$/);
    expect(
      (await requestFrom('127.0.0.1', `${instance.baseUrl}/v1/project`, { headers: { ...headers, 'x-api-key': 'second-old-key' } })).status,
    ).toBe(200);
  });

  it('checks a wrong key against old keys on the thread pool, once per key, a few at a time', async () => {
    legacyFolder(['old-key-one', 'old-key-two']);
    instance = await startInstance(folder);
    const { system } = instance.dataDir;

    // The event loop stays free while scrypt runs: a timer set before the check fires long
    // before the check ends.
    const started = performance.now();
    const timer = new Promise<number>((resolve) => setTimeout(() => resolve(performance.now() - started), 0));
    const first = await system.verifyApiKey('alpha', 'never-the-key');
    const checkMs = performance.now() - started;
    const timerMs = await timer;
    expect(first).toBeUndefined();

    // The same wrong key again is answered from memory, without scrypt.
    const againStarted = performance.now();
    expect(await system.verifyApiKey('alpha', 'never-the-key')).toBeUndefined();
    const againMs = performance.now() - againStarted;
    console.log(
      `legacy check of a wrong key: ${checkMs.toFixed(1)} ms (timer fired after ${timerMs.toFixed(1)} ms); the same key again ${againMs.toFixed(2)} ms`,
    );
    expect(timerMs).toBeLessThan(checkMs / 2);
    expect(againMs).toBeLessThan(checkMs / 4);

    // At most two such checks run at once; the others are told to come back.
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, (_, i) => system.verifyApiKey('alpha', `guess-${i}`)));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(2);
    for (const outcome of outcomes.filter((o) => o.status === 'rejected'))
      expect((outcome as PromiseRejectedResult).reason).toBeInstanceOf(ApiKeyCheckBusy);

    // Over HTTP that is a 429 with Retry-After, never a 500.
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        requestFrom(loopbackAddress(20, i), `${instance!.baseUrl}/v1/project`, {
          headers: { 'x-api-env': 'alpha', 'x-api-key': `http-guess-${i}` },
        }),
      ),
    );
    expect(answers.every((a) => a.status === 401 || a.status === 429)).toBe(true);
    const busy = answers.find((a) => a.status === 429);
    expect(busy).toBeDefined();
    expect(busy!.headers['retry-after']).toBe('1');
    expectErrorBody(busy!.body, 10429, 'Too Many Requests');

    // None of this opened anything, and the right keys still work.
    expect(await system.verifyApiKey('alpha', 'old-key-two')).toMatchObject({ environment: { name: 'alpha' } });
  });
  it('past the failure limit still opens a key with a digest, but runs no scrypt for one without', async () => {
    const { environmentId, keyIds } = legacyFolder(['old-key-one']);
    const seeded = DataDir.open(folder);
    seeded.system.ensureApiKey(environmentId, handKey);
    seeded.close();
    instance = await startInstance(folder);
    const url = `${instance.baseUrl}/v1/project`;
    const flooding = loopbackAddress(21, 0);
    for (let i = 0; i < 20; i++)
      expect((await requestFrom(flooding, url, { headers: { 'x-api-env': 'alpha', 'x-api-key': wrongGeneratedKey() } })).status).toBe(401);
    // The hand-chosen key, found by its digest, opens from the flooding address itself.
    expect((await requestFrom(flooding, url, { headers: { 'x-api-env': 'alpha', 'x-api-key': handKey } })).status).toBe(200);
    // A key from before digests would need scrypt: not made past the limit, the key keeps no digest.
    const old = await requestFrom(flooding, url, { headers: { 'x-api-env': 'alpha', 'x-api-key': 'old-key-one' } });
    expect(old.status).toBe(429);
    expectErrorBody(old.body, 10429, 'Too Many Requests');
    expect(keyRow(keyIds[0]!).digest).toBeNull();
    // From an address under the limit it is checked, and opens.
    expect((await requestFrom(loopbackAddress(21, 1), url, { headers: { 'x-api-env': 'alpha', 'x-api-key': 'old-key-one' } })).status).toBe(
      200,
    );
    expect(keyRow(keyIds[0]!).digest).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('failed authentication is limited per client address', () => {
  let folder: string;
  let instance: Instance;
  let generatedKey: string;

  beforeAll(async () => {
    folder = tempDir('planner-auth-limit-');
    const dataDir = DataDir.open(folder);
    const alpha = dataDir.system.ensureEnvironment('alpha');
    dataDir.system.ensureApiKey(alpha.id, handKey);
    generatedKey = dataDir.system.addApiKey(alpha.id).key;
    dataDir.close();
    instance = await startInstance(folder);
  });

  afterAll(async () => {
    await instance.stop();
    rmSync(folder, { recursive: true, force: true });
  });

  const get = (address: string, headers: Record<string, string>) => requestFrom(address, `${instance.baseUrl}/v1/project`, { headers });

  it('answers 429 with Retry-After after 20 wrong keys from one address, and only to that address', async () => {
    const attacker = loopbackAddress(30, 0);
    const neighbour = loopbackAddress(30, 1);
    for (let i = 0; i < 20; i++) expect((await get(attacker, { 'x-api-env': 'alpha', 'x-api-key': `guess-${i}` })).status).toBe(401);
    const limited = await get(attacker, { 'x-api-env': 'alpha', 'x-api-key': 'guess-20' });
    expect(limited.status).toBe(429);
    expectErrorBody(limited.body, 10429, 'Too Many Requests');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(limited.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect(limited.headers['ratelimit-remaining']).toBe('0');

    // Over the limit every key is still checked, cheaply, and the right one opens, chosen by
    // hand or generated: a flood from a shared address locks no one out.
    expect((await get(attacker, { 'x-api-env': 'alpha', 'x-api-key': handKey })).status).toBe(200);
    expect((await get(attacker, { 'x-api-env': 'alpha', 'x-api-key': generatedKey })).status).toBe(200);
    expect((await get(attacker, { 'x-api-env': 'alpha', 'x-api-key': wrongGeneratedKey() })).status).toBe(429);

    // Another address is not affected.
    expect((await get(neighbour, { 'x-api-env': 'alpha', 'x-api-key': 'guess-x' })).status).toBe(401);
    expect((await get(neighbour, { 'x-api-env': 'alpha', 'x-api-key': handKey })).status).toBe(200);
  });

  it('counts wrong bearer tokens too, but neither successes nor requests without credentials', async () => {
    const address = loopbackAddress(30, 2);
    for (let i = 0; i < 40; i++) expect((await get(address, {})).status).toBe(401);
    for (let i = 0; i < 40; i++) expect((await get(address, { 'x-api-env': 'alpha', 'x-api-key': handKey })).status).toBe(200);
    for (let i = 0; i < 20; i++) expect((await get(address, { authorization: `Bearer not.a.token${i}` })).status).toBe(401);
    const limited = await get(address, { authorization: 'Bearer not.a.token' });
    expect(limited.status).toBe(429);
    expectErrorBody(limited.body, 10429, 'Too Many Requests');
  });

  it('limits wrong keys on the local API the same way', async () => {
    const localFolder = tempDir('planner-local-limit-');
    const local = await openLocalInstance(localFolder);
    const localApi = new LocalApi({ dataPath: localFolder, instance: async () => local });
    try {
      const port = await freePort();
      const outcome = await localApi.change({ enabled: true, port });
      if (outcome.status !== 'done' || !outcome.key) throw new Error(JSON.stringify(outcome));
      const url = `http://127.0.0.1:${port}/v1/project`;
      const attacker = loopbackAddress(40, 0);
      for (let i = 0; i < 20; i++)
        expect((await requestFrom(attacker, url, { headers: { 'x-api-env': 'local', 'x-api-key': `guess-${i}` } })).status).toBe(401);
      const limited = await requestFrom(attacker, url, { headers: { 'x-api-env': 'local', 'x-api-key': 'guess-20' } });
      expect(limited.status).toBe(429);
      expectErrorBody(limited.body, 10429, 'Too Many Requests');
      expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
      // The program holding the key carries on; another address is not limited.
      expect((await requestFrom(attacker, url, { headers: { 'x-api-env': 'local', 'x-api-key': outcome.key } })).status).toBe(200);
      expect((await requestFrom(loopbackAddress(40, 1), url, { headers: { 'x-api-env': 'local', 'x-api-key': 'guess-x' } })).status).toBe(
        401,
      );
    } finally {
      closeAgents();
      await localApi.close();
      await local.close();
      rmSync(localFolder, { recursive: true, force: true });
    }
  });
});
