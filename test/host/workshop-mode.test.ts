/**
 * Workshop mode (docs/decisions/workshop-mode.md) over real HTTPS on 127.0.0.1, on a real local
 * instance: off by default; its certificate is made once per data folder and a client pinned to
 * its fingerprint connects; an unpaired device gets the pairing page and nothing else; pairing
 * refuses a wrong, expired or used code and voids a code after a few wrong tries; a paired key
 * opens the floor page and the floor's routes and nothing else of the API; a revoked key is
 * refused at the next request, on the same connection too; the local API and the browser host
 * still listen on 127.0.0.1 only.
 */
import { X509Certificate } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { Server as NetServer } from 'node:net';
import { Agent, request as httpsRequest } from 'node:https';
import { join } from 'node:path';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';
import { startBrowserHost } from '../../electron/host/browser-host.js';
import { LocalApi } from '../../electron/host/local-api.js';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { workshopCertificateFile, workshopKeyFile } from '../../electron/host/workshop-certificate.js';
import { deviceKeyHeader, WorkshopMode, workshopRouteOf, workshopSettingsFile } from '../../electron/host/workshop-mode.js';
import { nowMs, startClockAt } from '../../shared/clock.js';
import { pairingAttempts, pairingCodeMinutes, parseWorkshopChange, type WorkshopState } from '../../shared/workshop.js';
import { tempDir } from '../helpers/api.js';
import { connectTo, freePort } from '../helpers/ports.js';
import { fixTheClock } from '../helpers/test-clock.js';

fixTheClock();
afterAll(() => fixTheClock());

const password = 'pass-word-123';
let folder: string;
let rendererDir: string;
let instance: LocalInstance;
let workshop: WorkshopMode;

function open(): WorkshopMode {
  return new WorkshopMode({ dataPath: folder, instance: async () => instance, rendererDir, networkAddresses: () => ['192.168.1.20'] });
}

beforeEach(async () => {
  folder = tempDir('planner-workshop-');
  rendererDir = join(folder, 'renderer-build');
  mkdirSync(join(rendererDir, 'floor'), { recursive: true });
  mkdirSync(join(rendererDir, 'assets'), { recursive: true });
  writeFileSync(join(rendererDir, 'floor', 'index.html'), '<!doctype html><title>Planner floor</title>');
  writeFileSync(join(rendererDir, 'assets', 'floor-abc.js'), 'console.log("floor")');
  instance = await openLocalInstance(join(folder, 'data'));
  folder = join(folder, 'data');
  const resource = await instance.request({ method: 'POST', path: '/v1/resource', body: { name: 'Max' } });
  expect(resource.status).toBe(201);
  // Body of a created resource: an object with its id (docs/API.md "Resources").
  const resourceId = (resource.body as { id: string }).id;
  const ctx = requestContext(
    { kind: 'api-key', environment: instance.environment },
    recordsOf(instance.dataDir.environment(instance.environment.id)),
  );
  await createUserWithPassword(ctx, { email: 'max@example.com', role: 'member', resource_id: resourceId }, password);
  workshop = open();
});

afterEach(async () => {
  fixTheClock();
  await workshop.close();
  await instance.close();
  rmSync(join(folder, '..'), { recursive: true, force: true });
});

/** Switches on at a port the system picks, on 127.0.0.1 (never every interface in a test). */
async function switchOn(): Promise<{ port: number; state: WorkshopState }> {
  const outcome = await workshop.change({ enabled: true, host: '127.0.0.1', port: 0 });
  expect(outcome.status).toBe('done');
  return { port: workshop.listeningPort()!, state: outcome.state };
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  text: string;
  json: () => any;
}

/** One HTTPS request to 127.0.0.1, trusting only the certificate with this fingerprint. */
function call(
  port: number,
  fingerprint: string,
  method: string,
  path: string,
  options: { headers?: Record<string, string>; body?: string; agent?: Agent } = {},
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const request = httpsRequest(
      {
        host: '127.0.0.1',
        port,
        method,
        path,
        headers: options.headers ?? {},
        // Pinned: the certificate is not from any authority; the client checks its fingerprint.
        rejectUnauthorized: false,
        ...(options.agent ? { agent: options.agent } : { agent: false }),
      },
      (response) => {
        // An HTTPS response's socket is a TLS socket.
        const seen = (response.socket as TLSSocket).getPeerCertificate().fingerprint256;
        if (seen !== fingerprint) {
          reject(new Error(`unexpected certificate ${seen}`));
          return;
        }
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          resolve({ status: response.statusCode ?? 0, headers: response.headers, text, json: () => JSON.parse(text) });
        });
      },
    );
    request.on('error', reject);
    request.end(options.body);
  });
}

async function pair(port: number, state: WorkshopState, name = 'Tablet at the saw'): Promise<{ key: string; id: string }> {
  const code = (await workshop.newPairingCode()).state.pairing!.code;
  const answer = await call(port, state.fingerprint!, 'POST', '/pair', {
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ code, name }),
  });
  expect(answer.status).toBe(200);
  return { key: answer.json().key, id: answer.json().device_id };
}

async function signIn(port: number, fingerprint: string, key: string): Promise<string> {
  const answer = await call(port, fingerprint, 'POST', '/v1/floor/sign_in', {
    headers: { 'content-type': 'application/json', [deviceKeyHeader]: key },
    body: JSON.stringify({ environment: instance.environment.name, email: 'max@example.com', password }),
  });
  expect(answer.status).toBe(200);
  return answer.json().access_token;
}

describe('the switch and the certificate', () => {
  it('is off by default and listens nowhere until switched on', async () => {
    const state = await workshop.state();
    expect(state).toMatchObject({ enabled: false, host: '0.0.0.0', port: 4443, fingerprint: null, pairing: null, devices: [] });
    expect(workshop.listeningPort()).toBeUndefined();
    expect(await connectTo(4443)).toBe('refused');
  });

  it('makes a self-signed certificate once per data folder, its key readable by its owner only', async () => {
    const { state } = await switchOn();
    const cert = new X509Certificate(readFileSync(join(folder, workshopCertificateFile)));
    expect(cert.fingerprint256).toBe(state.fingerprint);
    expect(state.fingerprint).toMatch(/^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    expect(cert.verify(cert.publicKey)).toBe(true);
    expect(cert.ca).toBe(false);
    expect(cert.subject).toBe('CN=Planner workshop');
    expect(Date.parse(cert.validFrom)).toBeLessThanOrEqual(nowMs());
    expect(Date.parse(cert.validTo)).toBeGreaterThan(nowMs() + 9 * 365 * 86_400_000);
    if (process.platform !== 'win32') expect(statSync(join(folder, workshopKeyFile)).mode & 0o777).toBe(0o600);

    await workshop.close();
    workshop = open();
    await workshop.change({ enabled: true, host: '127.0.0.1', port: 0 });
    expect((await workshop.state()).fingerprint).toBe(state.fingerprint);
  });

  it('lets a TLS client pinned to the fingerprint connect, and a client pinned to another tell it apart', async () => {
    const { port, state } = await switchOn();
    const seen = await new Promise<string>((resolve, reject) => {
      const socket = tlsConnect({ host: '127.0.0.1', port, rejectUnauthorized: false }, () => {
        resolve(socket.getPeerCertificate().fingerprint256);
        socket.end();
      });
      socket.on('error', reject);
    });
    expect(seen).toBe(state.fingerprint);
    await expect(call(port, 'AA:'.repeat(31) + 'AA', 'GET', '/pair')).rejects.toThrow('unexpected certificate');
    // A client that trusts only certificate authorities refuses it.
    await expect(
      new Promise((resolve, reject) => {
        const socket = tlsConnect({ host: '127.0.0.1', port }, () => resolve(socket.end()));
        socket.on('error', reject);
      }),
    ).rejects.toThrow(/self[- ]signed/);
  });

  it('checks a change from the page before acting', () => {
    expect(parseWorkshopChange({ enabled: true, host: '0.0.0.0', port: 4443 })).toEqual({ enabled: true, host: '0.0.0.0', port: 4443 });
    expect(parseWorkshopChange({ host: 'example.com' })).toHaveProperty('error');
    expect(parseWorkshopChange({ host: '192.168.1.300' })).toHaveProperty('error');
    expect(parseWorkshopChange({ port: 80 })).toHaveProperty('error');
    expect(parseWorkshopChange({ key: 'x' })).toHaveProperty('error');
    expect(parseWorkshopChange({})).toHaveProperty('error');
  });
});

describe('an unpaired device', () => {
  it('gets the pairing page and nothing else', async () => {
    const { port, state } = await switchOn();
    const fp = state.fingerprint!;
    const page = await call(port, fp, 'GET', '/pair?code=ABCD2345');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.text).toContain('value="ABCD2345"');
    expect(page.text).not.toContain('<script');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect((await call(port, fp, 'GET', '/pair', { headers: { 'accept-language': 'nl-NL,nl' } })).text).toContain('Dit apparaat koppelen');

    const floor = await call(port, fp, 'GET', '/floor/');
    expect(floor.status).toBe(303);
    expect(floor.headers.location).toBe('/pair');
    expect(floor.text).toBe('');
    for (const [method, path] of [
      ['GET', '/floor/index.html'],
      ['GET', '/assets/floor-abc.js'],
      ['GET', '/floor/sw.js'],
      ['GET', '/v1/floor/sign_in'],
      ['POST', '/v1/floor/sign_in'],
      ['GET', '/v1/floor/jobs'],
      ['POST', '/v1/oauth/token'],
    ] as const) {
      const answer = await call(port, fp, method, path, { headers: { [deviceKeyHeader]: 'not-a-paired-key' } });
      expect(answer.status, `${method} ${path}`).toBe(401);
      expect(answer.text).not.toContain('floor');
      expect(answer.json().errors[0].description).toContain('not paired');
    }
    for (const path of ['/v1/project', '/bridge/request', '/host/local-api', '/health', '/v1/openapi.json'])
      expect((await call(port, fp, 'GET', path)).status, path).toBe(404);
  });

  it('is refused a wrong, expired or used code, and a code is voided after a few wrong tries', async () => {
    const { port, state } = await switchOn();
    const fp = state.fingerprint!;
    const tryCode = (code: string) =>
      call(port, fp, 'POST', '/pair', { headers: { 'content-type': 'application/json' }, body: JSON.stringify({ code, name: 'Phone' }) });

    // No code on screen: nothing opens.
    expect((await tryCode('ABCD2345')).status).toBe(401);

    // Wrong.
    let code = (await workshop.newPairingCode()).state.pairing!.code;
    const wrong = code.startsWith('A') ? `B${code.slice(1)}` : `A${code.slice(1)}`;
    const refused = await tryCode(wrong);
    expect(refused.status).toBe(401);
    expect(refused.headers['set-cookie']).toBeUndefined();
    expect(refused.json().errors[0].description).toBe('The pairing code is not right or no longer works. Ask the planner for a new one.');

    // Expired.
    startClockAt(nowMs() + pairingCodeMinutes * 60_000 + 1000);
    expect((await tryCode(code)).status).toBe(401);
    expect((await workshop.state()).pairing).toBeNull();
    fixTheClock();

    // Used once.
    code = (await workshop.newPairingCode()).state.pairing!.code;
    expect((await tryCode(code.toLowerCase())).status).toBe(200);
    expect((await tryCode(code)).status).toBe(401);

    // Guessing voids the code on screen.
    code = (await workshop.newPairingCode()).state.pairing!.code;
    for (let i = 0; i < pairingAttempts; i++) expect((await tryCode(`WRONG${i}XX`)).status).toBe(401);
    expect((await workshop.state()).pairing).toBeNull();
    expect((await tryCode(code)).status).toBe(401);

    expect((await workshop.state()).devices.map((d) => d.name)).toEqual(['Phone']);

    // A name is kept without control characters, and cut to its length.
    code = (await workshop.newPairingCode()).state.pairing!.code;
    const named = await call(port, fp, 'POST', '/pair', {
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code, name: `Saw\n[error] forged line${'x'.repeat(80)}` }),
    });
    expect(named.json().name).toBe(`Saw [error] forged line${'x'.repeat(37)}`);
  });

  it('has no pairing code while workshop mode is off', async () => {
    const outcome = await workshop.newPairingCode();
    expect(outcome.status).toBe('failed');
    expect(outcome.state.pairing).toBeNull();
  });
});

describe('a paired device', () => {
  it('opens the floor page and the floor routes with its key, and nothing else', async () => {
    const { port, state } = await switchOn();
    const fp = state.fingerprint!;
    const { key } = await pair(port, state);
    const withKey = { [deviceKeyHeader]: key };

    const page = await call(port, fp, 'GET', '/floor/', { headers: withKey });
    expect(page.status).toBe(200);
    expect(page.text).toContain('Planner floor');
    expect((await call(port, fp, 'GET', '/assets/floor-abc.js', { headers: withKey })).status).toBe(200);
    expect((await call(port, fp, 'GET', '/v1/floor/sign_in', { headers: withKey })).json()).toEqual({ environment: 'local' });

    const token = await signIn(port, fp, key);
    const bearer = { ...withKey, authorization: `Bearer ${token}` };
    const jobs = await call(port, fp, 'GET', '/v1/floor/jobs?date=2026-03-02', { headers: bearer });
    expect(jobs.status).toBe(200);
    expect(jobs.json()).toMatchObject({ date: '2026-03-02', data: [] });

    // The operator's token, the device's key: neither opens anything beyond the floor.
    for (const [method, path] of [
      ['GET', '/v1/project'],
      ['GET', '/v1/resource'],
      ['GET', '/v1/user'],
      ['GET', '/v1/time_tracking'],
      ['POST', '/v1/command/0190a0a0-0000-7000-8000-000000000000/undo'],
      ['GET', '/v1/sync/stream'],
      ['GET', '/v1/oauth/authorize'],
      ['GET', '/v1/floor/../project'],
      ['GET', '/v1/floor/%2e%2e/project'],
      ['GET', '//v1/project'],
      ['PUT', '/v1/floor/start'],
      ['DELETE', '/v1/floor/jobs'],
      ['GET', '/bridge/events'],
      ['POST', '/bridge/request'],
      ['GET', '/host/local-api'],
      ['GET', '/index.html'],
      ['GET', '/health'],
    ] as const) {
      const answer = await call(port, fp, method, path, { headers: bearer });
      expect(answer.status, `${method} ${path}`).toBe(404);
    }
    // An API key sent along is taken off: the floor route sees the bearer token only.
    const apiKeyTry = await call(port, fp, 'GET', '/v1/floor/jobs', { headers: { ...withKey, 'x-api-key': 'k', 'x-api-env': 'local' } });
    expect(apiKeyTry.status).toBe(401);

    const listed = (await workshop.state()).devices;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ name: 'Tablet at the saw' });
    expect(listed[0]!.lastUsedAt).not.toBeNull();
    // The key is never in the state, nor in the file (only its hash).
    expect(JSON.stringify(await workshop.state())).not.toContain(key);
    expect(readFileSync(join(folder, workshopSettingsFile), 'utf8')).not.toContain(key);
  });

  it('pairs a browser with the form: the key comes as a Secure, HttpOnly cookie that opens the floor', async () => {
    const { port, state } = await switchOn();
    const fp = state.fingerprint!;
    const code = (await workshop.newPairingCode()).state.pairing!.code;
    expect((await workshop.state()).pairing!.url).toBe(`https://127.0.0.1:${port}/pair?code=${code}&fp=${fp.replace(/:/g, '')}`);
    const answer = await call(port, fp, 'POST', '/pair', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ code, name: 'Phone of Max' }).toString(),
    });
    expect(answer.status).toBe(303);
    expect(answer.headers.location).toBe('/floor/');
    const cookie = String(answer.headers['set-cookie']);
    expect(cookie).toMatch(/^planner_device=[A-Za-z0-9_-]{43}; HttpOnly; Secure; SameSite=Strict; Path=\//);
    const page = await call(port, fp, 'GET', '/floor/', { headers: { cookie: cookie.split(';')[0]! } });
    expect(page.status).toBe(200);

    const wrong = await call(port, fp, 'POST', '/pair', {
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'code=XXXXXXXX',
    });
    expect(wrong.status).toBe(401);
    expect(wrong.text).toContain('That pairing code is not right');
  });

  it('is refused at once when revoked, on the connection it has open too; other devices go on', async () => {
    const { port, state } = await switchOn();
    const fp = state.fingerprint!;
    const tablet = await pair(port, state, 'Tablet');
    const phone = await pair(port, state, 'Phone');
    const agent = new Agent({ keepAlive: true, maxSockets: 1, rejectUnauthorized: false });
    try {
      const first = await call(port, fp, 'GET', '/v1/floor/sign_in', { headers: { [deviceKeyHeader]: tablet.key }, agent });
      expect(first.status).toBe(200);
      const revoked = await workshop.revokeDevice(tablet.id);
      expect(revoked.state.devices.map((d) => d.name)).toEqual(['Phone']);
      const next = await call(port, fp, 'GET', '/v1/floor/sign_in', { headers: { [deviceKeyHeader]: tablet.key }, agent });
      expect(next.status).toBe(401);
      expect((await call(port, fp, 'GET', '/floor/', { headers: { [deviceKeyHeader]: tablet.key } })).status).toBe(303);
      expect((await call(port, fp, 'GET', '/v1/floor/sign_in', { headers: { [deviceKeyHeader]: phone.key } })).status).toBe(200);
    } finally {
      agent.destroy();
    }
    // A restart remembers the revocation and the paired device.
    await workshop.close();
    workshop = open();
    const again = await workshop.change({ enabled: true, host: '127.0.0.1', port: 0 });
    const newPort = workshop.listeningPort()!;
    expect(again.state.devices.map((d) => d.name)).toEqual(['Phone']);
    expect((await call(newPort, fp, 'GET', '/v1/floor/sign_in', { headers: { [deviceKeyHeader]: tablet.key } })).status).toBe(401);
    expect((await call(newPort, fp, 'GET', '/v1/floor/sign_in', { headers: { [deviceKeyHeader]: phone.key } })).status).toBe(200);
  });

  it('stops answering when switched off', async () => {
    const { port } = await switchOn();
    expect(await connectTo(port)).toBe('accepted');
    const off = await workshop.change({ enabled: false });
    expect(off.state.enabled).toBe(false);
    expect(await connectTo(port)).toBe('refused');
  });
});

describe('what a request is for', () => {
  it('sorts by method and path alone, and sorts anything unusual as nothing', () => {
    expect(workshopRouteOf('GET', '/floor/')).toBe('page');
    expect(workshopRouteOf('GET', '/assets/index-1a2b.js')).toBe('page');
    expect(workshopRouteOf('GET', '/v1/floor/jobs')).toBe('api');
    expect(workshopRouteOf('POST', '/v1/floor/start')).toBe('api');
    expect(workshopRouteOf('POST', '/v1/oauth/token')).toBe('api');
    expect(workshopRouteOf('GET', '/v1/oauth/token')).toBe('none');
    expect(workshopRouteOf('GET', '/v1/collection/abc-1/attachment/def-2/download')).toBe('api');
    expect(workshopRouteOf('GET', '/v1/collection/abc-1/attachment')).toBe('none');
    expect(workshopRouteOf('GET', '/assets/../index.html')).toBe('none');
    expect(workshopRouteOf('GET', '/v1/floor/./jobs')).toBe('none');
    expect(workshopRouteOf('HEAD', '/floor/')).toBe('none');
    expect(workshopRouteOf('POST', '/pair')).toBe('pair');
  });
});

describe('the local API and the browser host', () => {
  it('still listen on 127.0.0.1 only while workshop mode is on', async () => {
    const listen = vi.spyOn(NetServer.prototype, 'listen');
    const localApi = new LocalApi({ dataPath: folder, instance: async () => instance });
    const host = await startBrowserHost({ instance, rendererDir });
    try {
      await switchOn();
      const outcome = await localApi.change({ enabled: true, port: await freePort() });
      expect(outcome.status).toBe('done');
      // Every server still listening that was started here: the browser host, the local API, workshop mode.
      // The spy is on net.Server's prototype: each context is a server.
      const listening = listen.mock.contexts.map((server) => (server as NetServer).address()).filter((address) => address !== null);
      expect(listening).toHaveLength(3);
      for (const address of listening) expect(typeof address === 'object' ? address.address : address).toBe('127.0.0.1');
    } finally {
      listen.mockRestore();
      await localApi.close();
      await host.close();
    }
  });
});
