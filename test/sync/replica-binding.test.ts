/**
 * No replica can be silenced (docs/API.md "Sync", "Replica ids"): a replica's push
 * bookkeeping belongs to the credential that registered it, a resent batch is recognised by
 * its content, a clock far ahead waits instead of winning, and a replica keeps everything the
 * remote did not apply. Real HTTP on 127.0.0.1, real SQLite files, a replica as a real server
 * process where the audit used one.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bookOf } from '../../electron/store/sync-book.js';
import { formatHlc } from '../../shared/hlc.js';
import { uuidv7 } from '../../shared/ids.js';
import { remoteUrlProblem } from '../../shared/sync.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import { startFaultProxy, type FaultProxy } from '../helpers/fault-proxy.js';
import { call, ok, remoteEnv, removeFolders, runSync, startClient, status, type ClientNode } from '../helpers/sync-cluster.js';
import {
  signInMemberOn,
  startInProcessClient,
  startInProcessRemote,
  type InProcessClient,
  type InProcessRemote,
} from '../helpers/sync-inprocess.js';

const hostileKey = 'hostile-key-1';
const hostileHeaders = { 'x-api-env': remoteEnv, 'x-api-key': hostileKey };
const now = () => formatHlc({ millis: Date.now(), counter: 0, node: 'hostile' });

/** A push as some caller, over real HTTP. */
function push(remote: InProcessRemote, headers: Record<string, string>, clientId: string, mutations: unknown[]) {
  return call({ url: remote.url, headers }, 'POST', '/v1/sync/push', { client_id: clientId, mutations });
}

const createProject = (mutationId: number, name: string, hlc = now()) => ({
  mutation_id: mutationId,
  resource: 'project',
  id: uuidv7(),
  op: 'create',
  fields: { name },
  hlc,
});

/** Every node id that the clocks of the remote's change feed show to this caller. */
async function nodeIdsSeenBy(remote: InProcessRemote, headers: Record<string, string>): Promise<string[]> {
  const page = await ok({ name: 'caller', url: remote.url, headers }, 'GET', '/v1/sync/changes?since=0&limit=5000');
  const nodes = new Set<string>();
  for (const change of page.changes as { clocks: Record<string, string> }[]) {
    for (const clock of Object.values(change.clocks)) nodes.add(clock.split('-').slice(2).join('-'));
  }
  return [...nodes];
}

async function remoteProjectNames(remote: InProcessRemote): Promise<string[]> {
  const list = await ok(remote, 'GET', '/v1/project?limit=1000&sort=name');
  return (list.data as { name: string }[]).map((p) => p.name);
}

/** An in-process remote and one replica of it, for a describe block; both stopped after it. */
function remoteWithClient(): { readonly remote: InProcessRemote; readonly client: InProcessClient } {
  const pair: { remote?: InProcessRemote; client?: InProcessClient } = {};
  beforeAll(async () => {
    pair.remote = await startInProcessRemote();
    pair.client = await startInProcessClient(pair.remote.url);
  });
  afterAll(async () => {
    await pair.client?.close();
    await pair.remote?.close();
  });
  return {
    get remote() {
      return pair.remote!;
    },
    get client() {
      return pair.client!;
    },
  };
}

describe("the audit's attack: a member pushing under other replicas' ids", () => {
  let remote: InProcessRemote;
  let replica: ClientNode;

  beforeAll(async () => {
    remote = await startInProcessRemote();
    replica = await startClient(remote, { proxy: false });
  });

  afterAll(async () => {
    await replica?.stop();
    await remote?.close();
    removeFolders();
  });

  it("is refused with 403, and the replica's later changes still reach the remote", async () => {
    await ok(replica, 'POST', '/v1/project', { name: 'Before the attack' }, 201);
    expect((await runSync(replica)).error).toBeNull();
    expect(await remoteProjectNames(remote)).toContain('Before the attack');

    const member = await signInMemberOn(remote, 'member@a.test');
    // The replica's id, as any member reads it from the clocks of the records it wrote.
    const [before] = (await ok(remote, 'GET', "/v1/project?filter=name:eq:'Before the attack'")).data as { id: string }[];
    const changes = (await ok({ name: 'member', url: remote.url, headers: member }, 'GET', '/v1/sync/changes?since=0&limit=5000'))
      .changes as { id: string; clocks: Record<string, string> }[];
    const replicaId = changes
      .find((c) => c.id === before!.id)!
      .clocks.name!.split('-')
      .slice(2)
      .join('-');
    expect(await nodeIdsSeenBy(remote, member)).toContain(replicaId);

    const answer = await push(remote, member, replicaId, [createProject(Number.MAX_SAFE_INTEGER, 'poison')]);
    expect(answer.status, JSON.stringify(answer.body)).toBe(403);
    expectErrorBody(answer.body, 10403, 'Forbidden');
    expect(answer.body.errors[0].field).toBe('client_id');

    await ok(replica, 'POST', '/v1/project', { name: 'After the attack' }, 201);
    // This run, or the one the change itself starts half a second later on a busy machine, pushes it.
    const summary = await runSync(replica);
    expect(summary.error).toBeNull();
    expect(await remoteProjectNames(remote)).toContain('After the attack');
    expect(await remoteProjectNames(remote)).not.toContain('poison');
    const after = await status(replica);
    expect(after).toMatchObject({ pending: 0, last_error: null });
  });
});

describe("the remote's bookkeeping of a replica id", () => {
  let remote: InProcessRemote;

  beforeAll(async () => {
    remote = await startInProcessRemote();
    remote.dataDir.system.ensureApiKey(remote.environment.id, hostileKey);
  });

  afterAll(async () => {
    await remote?.close();
  });

  it('belongs to the credential that registered it: another key is refused and moves no mark', async () => {
    const first = await push(remote, remote.headers, 'bound', [createProject(1, 'Bound 1')]);
    expect(first.body).toMatchObject({ last_mutation_id: 1, results: [{ mutation_id: 1, status: 'applied' }] });

    const hostile = await push(remote, hostileHeaders, 'bound', [createProject(1_000_000, 'Hostile')]);
    expect(hostile.status).toBe(403);
    expectErrorBody(hostile.body, 10403, 'Forbidden');

    const next = await push(remote, remote.headers, 'bound', [createProject(2, 'Bound 2')]);
    expect(next.body).toMatchObject({ last_mutation_id: 2, results: [{ mutation_id: 2, status: 'applied' }] });
    expect(await remoteProjectNames(remote)).toEqual(expect.arrayContaining(['Bound 1', 'Bound 2']));
    expect(await remoteProjectNames(remote)).not.toContain('Hostile');
  });

  it('answers duplicate only for the same content; other content at or below the mark is stale and not applied', async () => {
    const batch = [createProject(1, 'Resent 1'), createProject(2, 'Resent 2')];
    await push(remote, remote.headers, 'resend', batch);
    const again = await push(remote, remote.headers, 'resend', batch);
    expect(again.body.results).toEqual([
      expect.objectContaining({ mutation_id: 1, status: 'applied', duplicate: true, hash: expect.any(String) }),
      expect.objectContaining({ mutation_id: 2, status: 'applied', duplicate: true, hash: expect.any(String) }),
    ]);

    const other = await push(remote, remote.headers, 'resend', [
      { ...batch[1], fields: { name: 'Other content, same id' } },
      createProject(3, 'Resent 3'),
    ]);
    expect(other.status).toBe(200);
    expect(other.body.results[0]).toMatchObject({ mutation_id: 2, status: 'stale', error: { errors: [{ field: 'mutation_id' }] } });
    expect(other.body.results[1]).toMatchObject({ mutation_id: 3, status: 'applied' });
    expect(other.body.last_mutation_id).toBe(3);
    const names = await remoteProjectNames(remote);
    expect(names).toEqual(expect.arrayContaining(['Resent 1', 'Resent 2', 'Resent 3']));
    expect(names).not.toContain('Other content, same id');
  });

  it('answers a resent refusal as refused again, so the replica still learns why', async () => {
    const bad = { mutation_id: 1, resource: 'project', id: uuidv7(), op: 'create', fields: { name: '' }, hlc: now() };
    const first = await push(remote, remote.headers, 'refused', [bad]);
    expect(first.body.results[0]).toMatchObject({ status: 'rejected' });
    const again = await push(remote, remote.headers, 'refused', [bad]);
    expect(again.body.results[0]).toMatchObject({ status: 'rejected', duplicate: true, error: first.body.results[0].error });
  });

  it('defers a clock beyond the allowed skew: not applied, the mark stops before it, later mutations wait too', async () => {
    const ahead = formatHlc({ millis: Date.now() + 10 * 60_000, counter: 0, node: 'fast' });
    const slightlyAhead = formatHlc({ millis: Date.now() + 2 * 60_000, counter: 0, node: 'fast' });
    const answer = await push(remote, remote.headers, 'fast', [
      createProject(1, 'Slightly ahead', slightlyAhead),
      createProject(2, 'Far ahead', ahead),
      createProject(3, 'Behind it'),
    ]);
    expect(answer.body.results.map((r: { status: string }) => r.status)).toEqual(['applied', 'deferred', 'deferred']);
    expect(answer.body.results[1].error.errors[0].description).toMatch(/clock runs about 10 minute/);
    expect(answer.body.last_mutation_id).toBe(1);
    expect(answer.body.server_time).toEqual(expect.any(Number));
    const names = await remoteProjectNames(remote);
    expect(names).toContain('Slightly ahead');
    expect(names).not.toContain('Far ahead');
    expect(names).not.toContain('Behind it');
  });
});

describe('a replica keeps what the remote did not apply', () => {
  const pair = remoteWithClient();

  it("sends a change again under a new replica id when the old id's mark is past it", async () => {
    await ok(pair.client, 'POST', '/v1/project', { name: 'First' }, 201);
    expect((await runSync(pair.client)).error).toBeNull();
    const nodeId = (await nodeIdsSeenBy(pair.remote, pair.remote.headers))[0]!;
    // Its own credential moved the mark far ahead (a replica whose history was rolled back).
    const jump = await push(pair.remote, pair.remote.headers, nodeId, [createProject(1_000_000, 'Far ahead id')]);
    expect(jump.body.last_mutation_id).toBe(1_000_000);

    await ok(pair.client, 'POST', '/v1/project', { name: 'Second' }, 201);
    const summary = await runSync(pair.client);
    expect(summary.pushed).toBe(1);
    expect(summary.error).toMatch(/sent again/);
    expect(await remoteProjectNames(pair.remote)).toContain('Second');
    expect(await status(pair.client)).toMatchObject({ pending: 0 });
  });
});

describe('clocks', () => {
  it("tells a replica whose clock runs ahead of the remote's, in its status", async () => {
    const remote = await startInProcessRemote();
    // A remote an hour behind this computer: the proxy in front of it moves its clock back.
    const { createServer } = await import('node:http');
    const skewed = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => k !== 'host' && k !== 'content-length')) as Record<
          string,
          string
        >;
        void fetch(remote.url + req.url, { method: req.method, headers, ...(chunks.length ? { body: Buffer.concat(chunks) } : {}) }).then(
          async (answer) => {
            let text = await answer.text();
            text = text.replace(/"server_time":(\d+)/, (_, t: string) => `"server_time":${Number(t) - 3_600_000}`);
            res.writeHead(answer.status, { 'content-type': answer.headers.get('content-type') ?? 'application/json' });
            res.end(text);
          },
        );
      });
    });
    await new Promise<void>((resolve) => skewed.listen(0, '127.0.0.1', resolve));
    const port = (skewed.address() as { port: number }).port;
    const client = await startInProcessClient(`http://127.0.0.1:${port}`);
    try {
      await ok(client, 'POST', '/v1/project', { name: 'Clock' }, 201);
      const summary = await runSync(client);
      expect(summary.error).toMatch(/clock runs about 60 minute/);
      const now = await status(client);
      expect(now.clock_ahead_ms).toBeGreaterThan(3_500_000);
      expect(now.last_error).toMatch(/clock/);
    } finally {
      await client.close();
      await new Promise((resolve) => skewed.close(resolve));
      await remote.close();
    }
  });
});

describe('an encrypted remote', () => {
  const pair = remoteWithClient();

  it('refuses plain http to another computer unless explicitly allowed; loopback and https are fine', async () => {
    // An address the rule does not count as this computer, though it is (an IPv4-mapped IPv6
    // loopback address): the test's traffic stays on 127.0.0.1.
    const elsewhere = `http://[::ffff:127.0.0.1]:${new URL(pair.remote.url).port}`;
    const refused = await call(pair.client, 'PUT', '/v1/sync/settings', { remote_url: elsewhere, api_env: 'prod', api_key: 'remote-key' });
    expect(refused.status).toBe(422);
    expectErrorBody(refused.body, 10422, 'Unprocessable Content');
    expect(refused.body.errors[0]).toMatchObject({ field: 'remote_url', description: expect.stringMatching(/https/) });
    expect(await ok(pair.client, 'GET', '/v1/sync/settings')).toMatchObject({ remote_url: pair.remote.url, allow_insecure_http: false });

    const allowed = await ok(pair.client, 'PUT', '/v1/sync/settings', {
      remote_url: elsewhere,
      api_env: 'prod',
      api_key: 'remote-key',
      allow_insecure_http: true,
    });
    expect(allowed).toMatchObject({ remote_url: elsewhere, allow_insecure_http: true });
    const badFlag = await call(pair.client, 'PUT', '/v1/sync/settings', { remote_url: pair.remote.url, allow_insecure_http: 'yes' });
    expect(badFlag.status).toBe(422);
    expect(
      await ok(pair.client, 'PUT', '/v1/sync/settings', { remote_url: pair.remote.url, api_env: 'prod', api_key: 'remote-key' }),
    ).toMatchObject({ allow_insecure_http: false });
  });

  it('says why a remote address is refused', () => {
    expect(remoteUrlProblem('https://planner.example.com')).toBeNull();
    expect(remoteUrlProblem('http://127.0.0.1:4010')).toBeNull();
    expect(remoteUrlProblem('http://localhost:4010')).toBeNull();
    expect(remoteUrlProblem('http://[::1]:4010')).toBeNull();
    expect(remoteUrlProblem('http://planner.example.com')).toMatch(/https/);
    expect(remoteUrlProblem('http://127.0.0.1.evil.example')).toMatch(/https/);
    expect(remoteUrlProblem('http://planner.example.com', true)).toBeNull();
    expect(remoteUrlProblem('ftp://planner.example.com')).toMatch(/https/);
    expect(remoteUrlProblem('https://user:pw@planner.example.com')).toMatch(/user/);
  });
});

describe('property: honest and hostile pushes interleaved', () => {
  let remote: InProcessRemote;
  let proxy: FaultProxy;

  beforeAll(async () => {
    remote = await startInProcessRemote();
    remote.dataDir.system.ensureApiKey(remote.environment.id, hostileKey);
    proxy = await startFaultProxy(remote.url, { seed: 7 });
  });

  afterAll(async () => {
    await proxy?.close();
    await remote?.close();
  });

  type Step =
    | { kind: 'edit' }
    | { kind: 'sync'; loseAnswer: boolean }
    /**
     * Another credential (or the replica's own key misused, as a rolled-back copy of it would)
     * pushing under the honest replica's id or its own, with small or huge mutation ids.
     */
    | { kind: 'hostile'; underHonestId: boolean; sameKey: boolean; mutationId: number };

  const step: fc.Arbitrary<Step> = fc.oneof(
    fc.constant<Step>({ kind: 'edit' }),
    fc.boolean().map((loseAnswer): Step => ({ kind: 'sync', loseAnswer })),
    fc
      .record({
        underHonestId: fc.boolean(),
        sameKey: fc.boolean(),
        mutationId: fc.oneof(fc.integer({ min: 1, max: 20 }), fc.constant(Number.MAX_SAFE_INTEGER)),
      })
      .map((h): Step => ({ kind: 'hostile', ...h })),
  );

  it("never loses an honest replica's mutation", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        run++;
        const client = await startInProcessClient(proxy.url, `honest-${run}`);
        const made: string[] = [];
        try {
          for (const [i, s] of steps.entries()) {
            if (s.kind === 'edit') {
              const name = `Honest ${run}.${i}`;
              await ok(client, 'POST', '/v1/project', { name }, 201);
              made.push(name);
            } else if (s.kind === 'sync') {
              await proxy.set(s.loseAnswer ? { mode: 'drop-response', match: /\/v1\/sync\/push/ } : 'pass');
              await call(client, 'POST', '/v1/sync/run');
              await proxy.set('pass');
            } else {
              const honestId = pushIdOf(client);
              const clientId = s.underHonestId ? honestId : `hostile-${run}`;
              const before = markOf(clientId);
              const answer = await push(remote, s.sameKey ? remote.headers : hostileHeaders, clientId, [
                createProject(s.mutationId, `Hostile ${run}.${i}`),
              ]);
              expect([200, 403]).toContain(answer.status);
              // An id once registered keeps its owner, and a refused push moves no mark.
              if (before) expect(markOf(clientId)?.owner).toBe(before.owner);
              if (answer.status === 403) expect(markOf(clientId)).toEqual(before);
            }
          }
          // The honest replica syncs until its outbox is empty; every one of its projects is there.
          await proxy.set('pass');
          for (let round = 0; round < 4 && (await status(client)).pending > 0; round++) await call(client, 'POST', '/v1/sync/run');
          expect((await status(client)).pending).toBe(0);
          const names = new Set(await remoteProjectNames(remote));
          for (const name of made) expect(names.has(name), `${name} reached the remote`).toBe(true);
        } finally {
          await proxy.set('pass');
          await client.close();
        }
      }),
      { numRuns: 25, seed: 20261126, endOnFailure: true },
    );

    function pushIdOf(client: InProcessClient): string {
      const book = bookOf(client.instance.dataDir.environment(client.instance.environment.id));
      return book.getState<string>('push_client_id') ?? book.getState<string>('node_id')!;
    }

    function markOf(clientId: string) {
      return bookOf(remote.dataDir.environment(remote.environment.id)).replicaMark(clientId);
    }
  });
});
