/**
 * Load test: one user holding as many live streams as they can (audit 2, N4; docs/API.md "Sync",
 * "Live updates"). A real server process (`npm run server`, SQLite) with two environments. A
 * member of `alpha` signs in through two OAuth clients, as one person with two apps, and opens
 * `perClient` streams through each, one after the other, keeping every one open that the server
 * keeps open. While they hold them, three others open a stream `rounds` times each and time its
 * first event: a user of the other environment, another user of `alpha`, and `alpha`'s own key
 * (an admin replica). Printed per server: what the member's streams were answered, how many the
 * member holds at the end, the others' statuses with p50 and p95 to the first event, and the
 * server's RSS before and while the streams are held. Everything on 127.0.0.1.
 *
 * With PLANNER_BENCH_BASELINE=<another checkout of Planner, with its node_modules>, that
 * checkout's server first, the same way (the code before a change). Exits non-zero when this
 * code refuses one of the others a stream, or lets the member hold more than the user's share.
 */
import { get, type ClientRequest, type IncomingMessage } from 'node:http';
import { readFileSync, rmSync } from 'node:fs';
import { createClient } from '../../electron/api/oauth/clients.js';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';
import { defaultStreamLimits } from '../../electron/api/sync/stream-routes.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { tempDir } from '../helpers/api.js';
import { percentile } from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';
import { openSignInPage, pkcePair, submitSignIn, tokenRequest } from '../helpers/oauth-flow.js';
import { startServerProcess } from '../helpers/process.js';

/** Through each client: 101 as in the audit, past a credential's old limit of 100. */
const perClient = benchSize(101, 12);
const rounds = benchSize(20, 3);
const redirectUri = 'http://127.0.0.1:5555/cb';
const password = 'bench-pass-123';
const alphaKey = 'alpha-key-chosen-by-hand';

interface Seeded {
  folder: string;
  clients: string[];
}

/** Two environments, `alpha` with its key, two public OAuth clients, and the users who sign in. */
async function seededFolder(): Promise<Seeded> {
  const folder = tempDir('planner-bench-streams-');
  const dataDir = DataDir.open(folder);
  try {
    const alpha = dataDir.system.ensureEnvironment('alpha');
    dataDir.system.ensureApiKey(alpha.id, alphaKey);
    const beta = dataDir.system.ensureEnvironment('beta');
    const clients = [1, 2].map(
      (n) =>
        createClient(dataDir.system, { name: `Planner app ${n}`, redirect_uris: [redirectUri], confidential: false, environment_id: null })
          .client.id,
    );
    for (const [environment, email] of [
      [alpha, 'member@alpha.test'],
      [alpha, 'planner@alpha.test'],
      [beta, 'member@beta.test'],
    ] as const) {
      const ctx = requestContext({ kind: 'api-key', environment }, recordsOf(dataDir.environment(environment.id)));
      await createUserWithPassword(ctx, { email, role: 'member' }, password);
    }
    return { folder, clients };
  } finally {
    dataDir.close();
  }
}

async function signIn(server: string, clientId: string, environment: string, email: string): Promise<Record<string, string>> {
  const { verifier, challenge } = pkcePair();
  const page = await openSignInPage(server, {
    client_id: clientId,
    redirect_uri: redirectUri,
    response_type: 'code',
    state: 'bench',
    code_challenge: challenge,
    code_challenge_method: 'S256',
  });
  const answer = await submitSignIn(server, page, { environment, email, password });
  const code = answer.location ? new URL(answer.location).searchParams.get('code') : null;
  if (!code) throw new Error(`${email} could not sign in: ${answer.status}`);
  const tokens = await tokenRequest(server, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: clientId,
    code_verifier: verifier,
  });
  if (tokens.status !== 200) throw new Error(`the code of ${email} was not exchanged: ${tokens.status}`);
  return { authorization: `Bearer ${tokens.body.access_token as string}` };
}

/** A stream: its status, the ms to its first event (200 only), and whether the server ended it. */
interface Stream {
  status: number;
  firstEventMs: number;
  ended(): boolean;
  displaced(): boolean;
  close(): void;
}

/** Opens a stream and waits for its first event (or its refusal); gives up after 10 s. */
function openStream(server: string, headers: Record<string, string>): Promise<Stream> {
  const url = new URL('/v1/sync/stream', server);
  const started = performance.now();
  return new Promise((resolve) => {
    const refused = { status: 0, firstEventMs: NaN, ended: () => true, displaced: () => false, close: () => undefined };
    const timer = setTimeout(() => {
      request.destroy();
      resolve(refused);
    }, 10_000);
    const request: ClientRequest = get(
      url,
      { headers: { accept: 'text/event-stream', ...headers }, agent: false },
      (response: IncomingMessage) => {
        let text = '';
        let ended = false;
        let first = true;
        const stream: Stream = {
          status: response.statusCode ?? 0,
          firstEventMs: NaN,
          ended: () => ended,
          displaced: () => text.includes('event: displaced'),
          close: () => request.destroy(),
        };
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => {
          // Only the last event matters once the first one is in: keep the text small.
          text = first ? text + chunk : chunk;
          if (first && (stream.status !== 200 || text.includes('event: change'))) {
            first = false;
            clearTimeout(timer);
            stream.firstEventMs = performance.now() - started;
            resolve(stream);
          }
        });
        response.on('end', () => {
          ended = true;
          if (first) {
            clearTimeout(timer);
            resolve(stream);
          }
        });
        response.on('error', () => (ended = true));
      },
    );
    request.on('error', () => {
      clearTimeout(timer);
      resolve(refused);
    });
  });
}

function rssMiB(pid: number): number | undefined {
  try {
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024);
  } catch {
    return undefined;
  }
}

interface Others {
  statuses: Map<number, number>;
  latencies: number[];
}

interface Figures {
  member: Map<number, number>;
  held: number;
  displaced: number;
  others: Record<string, Others>;
  rss: { before?: number; held?: number };
}

const count = (map: Map<number, number>, status: number) => map.set(status, (map.get(status) ?? 0) + 1);

async function measure(server: string, pid: number, clients: string[]): Promise<Figures> {
  const member = await Promise.all(clients.map((client) => signIn(server, client, 'alpha', 'member@alpha.test')));
  const others: Record<string, Record<string, string>> = {
    'a user of beta': await signIn(server, clients[0]!, 'beta', 'member@beta.test'),
    'another user of alpha': await signIn(server, clients[0]!, 'alpha', 'planner@alpha.test'),
    "alpha's key (an admin replica)": { 'x-api-env': 'alpha', 'x-api-key': alphaKey },
  };
  const figures: Figures = { member: new Map(), held: 0, displaced: 0, others: {}, rss: { before: rssMiB(pid) } };
  const memberStreams: Stream[] = [];
  try {
    for (const headers of member) {
      for (let i = 0; i < perClient; i++) {
        const stream = await openStream(server, headers);
        count(figures.member, stream.status);
        if (stream.status === 200) memberStreams.push(stream);
      }
    }
    // Let the displaced ones' ends arrive.
    await new Promise((resolve) => setTimeout(resolve, 300));
    figures.rss.held = rssMiB(pid);
    for (const [label, headers] of Object.entries(others)) {
      const calls: Others = { statuses: new Map(), latencies: [] };
      for (let i = 0; i < rounds; i++) {
        const stream = await openStream(server, headers);
        count(calls.statuses, stream.status);
        if (stream.status === 200) calls.latencies.push(stream.firstEventMs);
        stream.close();
      }
      calls.latencies.sort((a, b) => a - b);
      figures.others[label] = calls;
    }
    figures.held = memberStreams.filter((s) => !s.ended()).length;
    figures.displaced = memberStreams.filter((s) => s.displaced()).length;
  } finally {
    for (const stream of memberStreams) stream.close();
  }
  return figures;
}

interface Target {
  label: string;
  checkout?: string;
  /** This code: another caller refused, or the member over the user's share, fails the bench. */
  mustShare: boolean;
}

const baseline = process.env.PLANNER_BENCH_BASELINE;
const targets: Target[] = [
  ...(baseline ? [{ label: 'before (baseline checkout)', checkout: baseline, mustShare: false }] : []),
  { label: 'now', mustShare: true },
];

const seeded = await seededFolder();
const rows: { target: Target; figures: Figures }[] = [];
try {
  for (const target of targets) {
    const server = await startServerProcess(['--data-dir', seeded.folder], 60_000, {}, target.checkout);
    try {
      rows.push({ target, figures: await measure(server.url, server.child.pid!, seeded.clients) });
    } finally {
      await server.stop();
    }
  }
} finally {
  rmSync(seeded.folder, { recursive: true, force: true });
}

const statuses = (map: Map<number, number>) =>
  [...map]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${n}× ${status}`)
    .join(', ');
const p = (latencies: number[], q: number) => (latencies.length ? percentile(latencies, q).toFixed(1) : '-');
console.log(
  `\nOne member of alpha opens ${perClient} live streams through each of two OAuth clients and holds them; meanwhile three others open a stream ${rounds} times each (share of a user ${defaultStreamLimits.maxPerUser}, of a key ${defaultStreamLimits.maxPerKey}, of an environment ${defaultStreamLimits.maxPerEnvironment}, of the process ${defaultStreamLimits.maxStreams}); node ${process.version}`,
);
console.log("\n| server | the member's streams | held at the end | displaced | RSS MiB before → held |");
console.log('|---|---|---|---|---|');
for (const { target, figures } of rows) {
  console.log(
    `| ${target.label} | ${statuses(figures.member)} | ${figures.held} | ${figures.displaced} | ${figures.rss.before ?? '-'} → ${figures.rss.held ?? '-'} |`,
  );
}
console.log('\n| server | who | answers | first event p50 ms | p95 ms |');
console.log('|---|---|---|---|---|');
for (const { target, figures } of rows) {
  for (const [who, calls] of Object.entries(figures.others)) {
    console.log(`| ${target.label} | ${who} | ${statuses(calls.statuses)} | ${p(calls.latencies, 0.5)} | ${p(calls.latencies, 0.95)} |`);
  }
}
const failed = rows.filter(
  ({ target, figures }) =>
    target.mustShare &&
    (figures.held > defaultStreamLimits.maxPerUser || Object.values(figures.others).some((c) => c.statuses.get(200) !== rounds)),
);
for (const { target } of failed) console.log(`FAILED: ${target.label} let one user keep others from their streams.`);
process.exitCode = failed.length > 0 ? 1 : 0;
