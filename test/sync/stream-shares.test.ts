/**
 * The live channel's streams are shared out so that no caller takes what the others need
 * (docs/API.md "Sync", "Live updates"; security audit N4): a signed-in user has a share across
 * all their OAuth clients, an API key one of its own, an environment one of the process's, and a
 * new stream of an owner at its share displaces that owner's oldest (which a replica waits a
 * while after, rather than displacing back). Real HTTP on 127.0.0.1 against an instance in this
 * process with small shares; users signed in through the real OAuth flow.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createClient } from '../../electron/api/oauth/clients.js';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';
import { LiveChannel } from '../../electron/sync/live.js';
import { httpRemote, type RemoteApi } from '../../electron/sync/remote.js';
import { nowMs, startClockAt } from '../../shared/clock.js';
import { expectErrorBody } from '../helpers/api-errors.js';
import type { Environment } from '../../electron/store/system.js';
import { prepareFolder, startInstance, type Instance } from '../helpers/instance.js';
import { signInForCode, tokenRequest } from '../helpers/oauth-flow.js';
import { waitFor } from '../helpers/sync-cluster.js';

const limits = { maxStreams: 8, maxPerEnvironment: 6, maxPerUser: 2, maxPerKey: 3 };
const redirectUri = 'https://app.example.com/callback';
const password = 'pass-word-123';
const environments = [
  { name: 'prod', key: 'prod-key-123' },
  { name: 'other', key: 'other-key-123' },
];

let folder: ReturnType<typeof prepareFolder>;
let instance: Instance;
let tokens: Record<'member1' | 'member2' | 'guest' | 'otherMember', Record<string, string>>;

/** An open stream: its answer's status, what it has said so far, and whether it has ended. */
interface Opened {
  status: number;
  text(): string;
  ended(): boolean;
  close(): void;
}
const opened: Opened[] = [];

async function open(headers: Record<string, string>): Promise<Opened> {
  const controller = new AbortController();
  const response = await fetch(`${instance.baseUrl}/v1/sync/stream`, { headers, signal: controller.signal });
  let text = '';
  let ended = response.status !== 200;
  const stream: Opened = { status: response.status, text: () => text, ended: () => ended, close: () => controller.abort() };
  opened.push(stream);
  if (response.status !== 200) {
    text = await response.text();
    return stream;
  }
  void (async () => {
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        text += decoder.decode(value, { stream: true });
      }
    } catch {
      // Closed by this test.
    }
    ended = true;
  })();
  await waitFor(() => text.includes('event: change'), 'the first event', 5_000, 10);
  return stream;
}

async function openMany(count: number, headers: Record<string, string>): Promise<Opened[]> {
  const out: Opened[] = [];
  for (let i = 0; i < count; i++) out.push(await open(headers));
  return out;
}

const key = (name: string) => ({ 'x-api-env': name, 'x-api-key': `${name}-key-123` });

/** A fresh instance with small shares, and users signed in: a member through two OAuth clients, a guest, a member of another environment. */
beforeEach(async () => {
  folder = prepareFolder(environments);
  instance = await startInstance(folder.folder, { streamLimits: limits, oauthRateLimit: { limit: 1000, windowMs: 60_000 } });
  const clients = [1, 2].map((n) =>
    createClient(instance.dataDir.system, { name: `App ${n}`, redirect_uris: [redirectUri], confidential: true, environment_id: null }),
  );
  const [prod, other] = folder.environments as [Environment, Environment];
  const signIn = async (environment: Environment, email: string, role: string, client: (typeof clients)[number]) => {
    const store = instance.dataDir.environment(environment.id);
    if (!store.db.prepare('SELECT 1 FROM user WHERE email = ?').get(email))
      await createUserWithPassword(requestContext({ kind: 'api-key', environment }, recordsOf(store)), { email, role }, password);
    const code = await signInForCode(
      instance.baseUrl,
      { client_id: client.client.id, redirect_uri: redirectUri, state: 'st' },
      { environment: environment.name, email, password },
    );
    const answer = await tokenRequest(instance.baseUrl, {
      grant_type: 'authorization_code',
      code,
      client_id: client.client.id,
      client_secret: client.client_secret!,
      redirect_uri: redirectUri,
    });
    expect(answer.status, JSON.stringify(answer.body)).toBe(200);
    return { authorization: `Bearer ${answer.body.access_token as string}` };
  };
  tokens = {
    member1: await signIn(prod, 'member@prod.test', 'member', clients[0]!),
    member2: await signIn(prod, 'member@prod.test', 'member', clients[1]!),
    guest: await signIn(prod, 'guest@prod.test', 'guest', clients[0]!),
    otherMember: await signIn(other, 'member@other.test', 'member', clients[0]!),
  };
});

afterEach(async () => {
  for (const stream of opened.splice(0)) stream.close();
  await instance.stop();
  folder.remove();
});

describe('the shares of the live channel', () => {
  it("gives one user a share across OAuth clients: beyond it, the user's own oldest stream makes way", async () => {
    const first = await openMany(2, tokens.member1);
    // Through a second OAuth client the same member is the same owner: each new stream displaces their oldest.
    const second = await openMany(2, tokens.member2);
    expect([...first, ...second].map((s) => s.status)).toEqual([200, 200, 200, 200]);
    await waitFor(() => first.every((s) => s.ended()), 'the first two to be displaced', 5_000, 10);
    for (const stream of first) expect(stream.text()).toContain('event: displaced');
    expect(second.some((s) => s.ended())).toBe(false);
    // Everyone else still gets theirs: the environment's key, a guest, a user of another environment.
    expect((await open(key('prod'))).status).toBe(200);
    expect((await open(tokens.guest)).status).toBe(200);
    expect((await open(tokens.otherMember)).status).toBe(200);
    expect(second.some((s) => s.ended())).toBe(false);
  });

  it('refuses an owner of an environment at its share with 429, and leaves the rest of the process to the other environments', async () => {
    // prod's share of 6: the key's 3, the member's 2 and the guest's 1.
    const keyStreams = await openMany(3, key('prod'));
    await openMany(2, tokens.member1);
    await openMany(1, tokens.guest);
    const refused = await open(tokens.guest);
    expect(refused.status).toBe(429);
    expectErrorBody(JSON.parse(refused.text()), 10429, 'Too Many Requests');
    expect(JSON.parse(refused.text()).errors[0].description).toMatch(/on this environment/);
    // An owner at its own share still replaces its oldest: that takes nothing from anyone.
    expect((await open(key('prod'))).status).toBe(200);
    await waitFor(() => keyStreams[0]!.ended(), "the key's oldest to make way", 5_000, 10);

    // The other environment has the two the process has left, and then the process is full.
    expect((await openMany(2, key('other'))).map((s) => s.status)).toEqual([200, 200]);
    const full = await fetch(`${instance.baseUrl}/v1/sync/stream`, { headers: tokens.otherMember });
    expect(full.status).toBe(429);
    expect(full.headers.get('retry-after')).toBe('30');
    const body = (await full.json()) as { errors: { description: string }[] };
    expectErrorBody(body, 10429, 'Too Many Requests');
    expect(body.errors[0]!.description).toMatch(/on this server/);
  });

  it('makes a displaced replica wait before it opens its stream again, however long the stream lasted', async () => {
    const credentials = { remote_url: instance.baseUrl, api_env: 'prod', api_key: 'prod-key-123' };
    const remote = httpRemote(() => credentials, { timeoutMs: 5_000 });
    let opens = 0;
    const counted: RemoteApi = { ...remote, stream: (signal) => (opens++, remote.stream!(signal)) };
    const states: boolean[] = [];
    const channel = new LiveChannel({
      remote: counted,
      // A failure waits 30-60 s: far longer than this test looks.
      timing: { retryMs: 60_000, maxRetryMs: 60_000, absentRetryMs: 60_000, silenceMs: 60_000, unreachableMaxRetryMs: 60_000 },
      configured: () => true,
      onSeq: () => undefined,
      onState: (up) => states.push(up),
    });
    const lasted = 31_000;
    try {
      channel.ensure();
      await waitFor(() => states.includes(true), 'the replica to listen', 5_000, 10);
      // Its stream has lasted long enough to be reopened at once had it ended on its own (live.ts).
      startClockAt(nowMs() + lasted);
      // Two more of the key's streams, then a third: the replica's, the oldest, makes way.
      const others = await openMany(3, key('prod'));
      await waitFor(() => states.at(-1) === false, "the replica's stream to be displaced", 5_000, 10);
      await new Promise((wait) => setTimeout(wait, 1_500));
      expect(opens).toBe(1);
      expect(others.some((s) => s.ended())).toBe(false);
    } finally {
      startClockAt(nowMs() - lasted);
      await channel.stop();
    }
  });
});
