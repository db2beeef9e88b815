/**
 * Benchmark: the right credentials behind a reverse proxy while wrong ones flood through it
 * (audit 2, N2; docs/API.md "Authentication", "Rate limits"). A real server process
 * (`npm run server`, SQLite) behind a proxy of the bench's own on 127.0.0.1 that appends each
 * client's address to X-Forwarded-For (test/helpers/forwarding-proxy.ts), as nginx does.
 *
 * An attacker (203.0.113.66) sends wrong API keys from `floods` loops and junk refresh tokens
 * naming the app's OAuth client from one more: first alone for `seconds` (what a wrong request
 * costs: answered per second, and the server's CPU time per 1,000, from /proc on Linux), then
 * for `seconds` more while a replica (198.51.100.7) reads with the environment's hand-chosen
 * key (as `--api-key-file` gives it), one request after the other, and a desktop app
 * (198.51.100.8) refreshes its sign-in every 50 ms. Printed per server: the flood's figures,
 * and for the key and the refresh how many succeeded of how many, with p50 and p95.
 *
 * Servers, side by side in one run: this code without `--trust-proxy` (every client counts as
 * the proxy) and with it (each client apart); with PLANNER_BENCH_BASELINE=<another checkout of
 * Planner, with its node_modules>, first that checkout's server the same way (the code before a
 * change). Exits non-zero when this code refuses a right key or refresh, or a server fails.
 */
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { createClient } from '../../electron/api/oauth/clients.js';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { tempDir } from '../helpers/api.js';
import { percentile } from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';
import { startForwardingProxy, testClientHeader } from '../helpers/forwarding-proxy.js';
import { openSignInPage, pkcePair, submitSignIn, tokenRequest } from '../helpers/oauth-flow.js';
import { startServerProcess } from '../helpers/process.js';

const seconds = benchSize(5, 1);
const floods = benchSize(8, 2);
const environment = 'bench';
const handKey = 'bench-key-chosen-by-hand';
const email = 'planner@bench.test';
const password = 'planner-pass-1';
const redirectUri = 'http://127.0.0.1:5555/cb';
/** The proxy connects to the server from here: the address `--trust-proxy` names. */
const proxyAddress = '127.0.0.2';
const attacker = '203.0.113.66';

interface Calls {
  statuses: Map<number, number>;
  latencies: number[];
}

interface Figures {
  /** The flood alone: its answers, per second, and the server's CPU time per 1,000 of them. */
  alone: { answers: Map<number, number>; perSecond: number; cpuMsPerThousand: number | undefined };
  /** The flood beside the right credentials. */
  wrong: Map<number, number>;
  key: Calls;
  refresh: Calls;
}

/** CPU time (user and system) of a process so far, in ms, where /proc says (Linux); else undefined. */
function cpuMs(pid: number): number | undefined {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    // utime and stime, in clock ticks of 10 ms (Linux's USER_HZ).
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return undefined;
  }
}

const calls = (): Calls => ({ statuses: new Map(), latencies: [] });
const count = (statuses: Map<number, number>, status: number) => statuses.set(status, (statuses.get(status) ?? 0) + 1);

/** A data folder with the environment, its hand-chosen key, a public OAuth client and a planner who may sign in. */
async function seededFolder(): Promise<{ folder: string; clientId: string }> {
  const folder = tempDir('planner-bench-proxy-');
  const dataDir = DataDir.open(folder);
  try {
    const made = dataDir.system.ensureEnvironment(environment);
    dataDir.system.ensureApiKey(made.id, handKey);
    const client = createClient(dataDir.system, {
      name: 'Planner desktop',
      redirect_uris: [redirectUri],
      confidential: false,
      environment_id: null,
    });
    await createUserWithPassword(
      requestContext({ kind: 'api-key', environment: made }, recordsOf(dataDir.environment(made.id))),
      { email, role: 'member' },
      password,
    );
    return { folder, clientId: client.client.id };
  } finally {
    dataDir.close();
  }
}

/** Signs the planner in (directly, before the flood) and answers the refresh token. */
async function signIn(server: string, clientId: string): Promise<string> {
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
  if (!code) throw new Error(`the planner could not sign in: ${answer.status}`);
  const tokens = await tokenRequest(server, {
    grant_type: 'authorization_code',
    code,
    redirect_uri: redirectUri,
    client_id: clientId,
    code_verifier: verifier,
  });
  if (tokens.status !== 200) throw new Error(`the code was not exchanged: ${tokens.status}`);
  return tokens.body.refresh_token as string;
}

async function measure(proxy: string, serverPid: number, clientId: string, refreshToken: string): Promise<Figures> {
  const send = (client: string, path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    fetch(proxy + path, { ...init, headers: { ...init.headers, [testClientHeader]: client } });
  const form = (fields: Record<string, string>) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(fields).toString(),
  });

  /** The attacker's loops until `until`, counting their answers in `answers`. */
  const flood = (until: number, answers: Map<number, number>) => {
    const wrongKeys = async (loop: number) => {
      for (let i = 0; performance.now() < until && i < 1_000_000; i++) {
        const answer = await send(attacker, '/v1/project?limit=1', {
          headers: { 'x-api-env': environment, 'x-api-key': `guess-${loop}-${i}` },
        });
        await answer.arrayBuffer();
        count(answers, answer.status);
      }
    };
    const junkRefreshes = async () => {
      for (let i = 0; performance.now() < until && i < 1_000_000; i++) {
        const answer = await send(
          attacker,
          '/v1/oauth/token',
          form({ grant_type: 'refresh_token', refresh_token: `junk-${i}`, client_id: clientId }),
        );
        await answer.arrayBuffer();
        count(answers, answer.status);
      }
    };
    return [...Array.from({ length: floods }, (_, loop) => wrongKeys(loop)), junkRefreshes()];
  };

  const alone = new Map<number, number>();
  const cpuBefore = cpuMs(serverPid);
  const aloneBegan = performance.now();
  await Promise.all(flood(aloneBegan + seconds * 1000, alone));
  const aloneMs = performance.now() - aloneBegan;
  const cpuAfter = cpuMs(serverPid);
  const answered = [...alone.values()].reduce((a, b) => a + b, 0);

  const figures: Figures = {
    alone: {
      answers: alone,
      perSecond: answered / (aloneMs / 1000),
      cpuMsPerThousand: cpuBefore === undefined || cpuAfter === undefined ? undefined : ((cpuAfter - cpuBefore) / answered) * 1000,
    },
    wrong: new Map(),
    key: calls(),
    refresh: calls(),
  };
  const until = performance.now() + seconds * 1000;
  const replica = async () => {
    for (let i = 0; performance.now() < until && i < 1_000_000; i++) {
      const started = performance.now();
      const answer = await send('198.51.100.7', '/v1/project?limit=1', { headers: { 'x-api-env': environment, 'x-api-key': handKey } });
      await answer.arrayBuffer();
      figures.key.latencies.push(performance.now() - started);
      count(figures.key.statuses, answer.status);
    }
  };
  const desktopApp = async () => {
    let token = refreshToken;
    for (let i = 0; performance.now() < until && i < 100_000; i++) {
      const started = performance.now();
      const answer = await send(
        '198.51.100.8',
        '/v1/oauth/token',
        form({ grant_type: 'refresh_token', refresh_token: token, client_id: clientId }),
      );
      const body = (await answer.json()) as { refresh_token?: string };
      figures.refresh.latencies.push(performance.now() - started);
      count(figures.refresh.statuses, answer.status);
      // A refused refresh leaves the token unused: the app sends it again, as the sync client does.
      if (answer.status === 200 && body.refresh_token) token = body.refresh_token;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  await Promise.all([...flood(until, figures.wrong), replica(), desktopApp()]);
  figures.key.latencies.sort((a, b) => a - b);
  figures.refresh.latencies.sort((a, b) => a - b);
  return figures;
}

interface Target {
  label: string;
  args: string[];
  checkout?: string;
  /** This code: a right key or refresh refused is a failure of the bench. */
  mustOpen: boolean;
}

const baseline = process.env.PLANNER_BENCH_BASELINE;
const targets: Target[] = [
  ...(baseline ? [{ label: 'before (baseline checkout)', args: [], checkout: baseline, mustOpen: false }] : []),
  { label: 'now, proxy not trusted', args: [], mustOpen: true },
  { label: 'now, --trust-proxy', args: ['--trust-proxy', proxyAddress], mustOpen: true },
];

const { folder: seeded, clientId } = await seededFolder();
const folders = [seeded];
const rows: { target: Target; figures: Figures }[] = [];
try {
  for (const target of targets) {
    // Each server a copy of the same data, so each starts with no counts.
    const folder = tempDir('planner-bench-proxy-');
    folders.push(folder);
    cpSync(seeded, folder, { recursive: true });
    const server = await startServerProcess(['--data-dir', folder, ...target.args], 60_000, {}, target.checkout);
    const proxy = await startForwardingProxy(server.url, { from: proxyAddress });
    try {
      const refreshToken = await signIn(server.url, clientId);
      rows.push({ target, figures: await measure(proxy.url, server.child.pid!, clientId, refreshToken) });
    } finally {
      await proxy.close();
      await server.stop();
    }
  }
} finally {
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
}

const statuses = (map: Map<number, number>) =>
  [...map]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${n}× ${status}`)
    .join(', ');
const succeeded = (c: Calls) => `${c.statuses.get(200) ?? 0} of ${c.latencies.length}`;
const p = (c: Calls, q: number) => (c.latencies.length ? percentile(c.latencies, q).toFixed(1) : '-');
console.log(
  `\nA flood through a proxy from ${attacker}: ${floods} wrong-key loops and 1 junk-refresh loop, ${seconds} s alone, then ${seconds} s beside a replica's hand-chosen key and a desktop app's refresh; node ${process.version}`,
);
console.log('\nThe flood alone:');
console.log('| server                     | answers                               | per s | server CPU ms per 1,000 |');
console.log('|----------------------------|---------------------------------------|-------|-------------------------|');
for (const { target, figures } of rows) {
  const cpu = figures.alone.cpuMsPerThousand;
  console.log(
    `| ${target.label.padEnd(26)} | ${statuses(figures.alone.answers).padEnd(37)} | ${figures.alone.perSecond.toFixed(0).padStart(5)} | ${(cpu === undefined ? '-' : cpu.toFixed(0)).padStart(23)} |`,
  );
}
console.log('\nThe right credentials during the flood:');
console.log(
  '| server                     | flood answers                         | key: 200 of n | p50 ms | p95 ms | refresh: 200 of n | p50 ms | p95 ms |',
);
console.log(
  '|----------------------------|---------------------------------------|---------------|--------|--------|-------------------|--------|--------|',
);
for (const { target, figures } of rows) {
  console.log(
    `| ${target.label.padEnd(26)} | ${statuses(figures.wrong).padEnd(37)} | ${succeeded(figures.key).padStart(13)} | ${p(figures.key, 0.5).padStart(6)} | ${p(figures.key, 0.95).padStart(6)} | ${succeeded(figures.refresh).padStart(17)} | ${p(figures.refresh, 0.5).padStart(6)} | ${p(figures.refresh, 0.95).padStart(6)} |`,
  );
}
const refused = rows.filter(
  ({ target, figures }) =>
    target.mustOpen &&
    (figures.key.statuses.get(200) !== figures.key.latencies.length ||
      figures.refresh.statuses.get(200) !== figures.refresh.latencies.length),
);
for (const { target } of refused) console.log(`FAILED: ${target.label} refused a right key or refresh during the flood.`);
process.exitCode = refused.length > 0 ? 1 : 0;
