/**
 * Workshop mode (shared/workshop.ts; its threat model in docs/decisions/workshop-mode.md): the
 * desktop app serves the floor view to the workshop network over HTTPS, to paired devices only.
 *
 * - Off by default. Whether it is on, its address and port, and the paired devices (name, times
 *   and the SHA-256 of each device's key, never the key) are kept in `workshop.json` in the data
 *   folder; the certificate and its key beside it (workshop-certificate.ts).
 * - Its own HTTPS server, apart from the local API and the browser host, which stay on
 *   127.0.0.1. Each request is sorted before anything reads its body (`workshopRouteOf`): the
 *   pairing page and route are open to all; the floor page, its files and the API routes the
 *   floor view calls need a paired device's key; everything else is 404, paired or not.
 * - A device pairs with the code the planner's Settings show (single use, a few minutes, voided
 *   after a few wrong tries) and gets its key once, as a cookie (a browser) and in the answer
 *   (a program). Every later request carries it (`planner_device` cookie or
 *   `x-planner-device-key`); a revoked key is refused at the next request.
 * - Floor API calls go to the local instance's own Fastify app (its `routing`), as the local API
 *   does, with the headers that would carry another credential taken off: on the floor routes
 *   an operator acts with their own sign-in's bearer token, as on any server.
 */
import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { networkInterfaces } from 'node:os';
import { join } from 'node:path';
import Fastify, { type FastifyInstance } from 'fastify';
import { nowMs } from '../../shared/clock.js';
import {
  defaultWorkshopHost,
  defaultWorkshopPort,
  isWorkshopHost,
  isWorkshopPort,
  maxDeviceNameLength,
  pairingAlphabet,
  pairingAttempts,
  pairingCodeLength,
  pairingCodeMinutes,
  type WorkshopChange,
  type WorkshopDevice,
  type WorkshopOutcome,
  type WorkshopPairing,
  type WorkshopProblem,
  type WorkshopState,
} from '../../shared/workshop.js';
import { uuidv7 } from '../../shared/ids.js';
import { registerFloorPage } from './floor-page.js';
import { writeJsonFile } from './json-file.js';
import { listenProblemOf, readSettingsObject, stopServer } from './listener.js';
import type { LocalInstance } from './local-instance.js';
import { workshopCertificateIn, type WorkshopCertificate } from './workshop-certificate.js';

export const workshopSettingsFile = 'workshop.json';
/** The cookie a paired browser carries its key in. */
export const deviceCookie = 'planner_device';
/** The header a program carries its key in. */
export const deviceKeyHeader = 'x-planner-device-key';
/** A device's last use is written to the file at most this often (it is kept in memory at once). */
const lastUseWriteMs = 60_000;
const maxPairingBody = 4096;

export type WorkshopInstance = Pick<LocalInstance, 'api'>;

export interface WorkshopModeOptions {
  /** The data folder: where `workshop.json` and the certificate live. */
  dataPath: string;
  /** The instance whose floor routes it serves; a getter, as the desktop swaps it on a restore. */
  instance: () => Promise<WorkshopInstance>;
  /** The built renderer (out/renderer), whose floor page it serves. */
  rendererDir: string;
  /** This computer's IPv4 addresses on its networks (by default from the OS): what the QR code names. */
  networkAddresses?: () => string[];
}

interface StoredDevice extends WorkshopDevice {
  keyHash: string;
}

interface StoredSettings {
  enabled: boolean;
  host: string;
  port: number;
  devices: StoredDevice[];
}

function isStoredDevice(value: unknown): value is StoredDevice {
  if (typeof value !== 'object' || value === null) return false;
  // Checked to be an object above; each field is checked here before it is trusted.
  const device = value as Record<string, unknown>;
  return (
    typeof device.id === 'string' &&
    typeof device.name === 'string' &&
    typeof device.pairedAt === 'string' &&
    (device.lastUsedAt === null || typeof device.lastUsedAt === 'string') &&
    typeof device.keyHash === 'string' &&
    /^[0-9a-f]{64}$/.test(device.keyHash)
  );
}

function readSettings(path: string): StoredSettings {
  const found = readSettingsObject(path);
  return {
    enabled: found.enabled === true,
    host: isWorkshopHost(found.host) ? found.host : defaultWorkshopHost,
    port: isWorkshopPort(found.port) ? found.port : defaultWorkshopPort,
    devices: Array.isArray(found.devices) ? found.devices.filter(isStoredDevice) : [],
  };
}

const hashOf = (key: string) => createHash('sha256').update(key).digest('hex');

/** What a request is for, from its method and path alone (docs/decisions/workshop-mode.md). */
export type WorkshopRoute = 'home' | 'pair-page' | 'pair' | 'page' | 'api' | 'none';

export function workshopRouteOf(method: string | undefined, path: string): WorkshopRoute {
  // Nothing encoded, no dot segments, no doubled slashes: what is matched here is what the router sees.
  if (/%|\\|\/\/|\/\.\.?(\/|$)/.test(path)) return 'none';
  if (method === 'GET') {
    if (path === '/') return 'home';
    if (path === '/pair') return 'pair-page';
    if (['/floor', '/floor/', '/floor/index.html', '/floor/sw.js', '/floor/manifest.webmanifest', '/favicon.svg'].includes(path))
      return 'page';
    if (/^\/assets\/[A-Za-z0-9._-]+$/.test(path)) return 'page';
    if (/^\/v1\/floor\/[a-z_]+(\/[A-Za-z0-9_-]+)*$/.test(path)) return 'api';
    if (/^\/v1\/collection\/[A-Za-z0-9-]+\/attachment\/[A-Za-z0-9-]+\/download$/.test(path)) return 'api';
    return 'none';
  }
  if (method === 'POST') {
    if (path === '/pair') return 'pair';
    if (/^\/v1\/floor\/[a-z_]+(\/[A-Za-z0-9_-]+)*$/.test(path)) return 'api';
    if (path === '/v1/oauth/token') return 'api';
  }
  return 'none';
}

function cookieValue(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return undefined;
}

function send(response: ServerResponse, status: number, body: string, type: string, headers: Record<string, string> = {}): void {
  response.writeHead(status, {
    ...headers,
    'content-type': type,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
  });
  response.end(body);
}

function sendError(response: ServerResponse, status: number, description: string): void {
  send(response, status, JSON.stringify({ errors: [{ description }] }), 'application/json; charset=utf-8');
}

function readBody(request: IncomingMessage): Promise<string | undefined> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    let size = 0;
    request.on('data', (part: Buffer) => {
      size += part.length;
      if (size > maxPairingBody) {
        resolve(undefined);
        request.destroy();
      } else parts.push(part);
    });
    request.on('end', () => resolve(Buffer.concat(parts).toString('utf8')));
    request.on('error', () => resolve(undefined));
  });
}

const pageWords = {
  en: {
    title: 'Pair this device',
    intro: 'Type the pairing code shown in Planner on the planner\u2019s computer (Settings \u2192 Workshop mode).',
    code: 'Pairing code',
    name: 'Name of this device',
    pair: 'Pair',
    wrong: 'That pairing code is not right or no longer works. Ask the planner for a new one.',
    check: 'Check that the certificate\u2019s SHA-256 fingerprint your browser shows is the one in Planner\u2019s Settings.',
  },
  nl: {
    title: 'Dit apparaat koppelen',
    intro: 'Typ de koppelcode die Planner op de computer van de planner toont (Instellingen \u2192 Werkplaatsmodus).',
    code: 'Koppelcode',
    name: 'Naam van dit apparaat',
    pair: 'Koppelen',
    wrong: 'Die koppelcode klopt niet of werkt niet meer. Vraag de planner om een nieuwe.',
    check: 'Controleer of de SHA-256-vingerafdruk van het certificaat in je browser dezelfde is als in Planners Instellingen.',
  },
};

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A script-free form: it needs no JavaScript, so it needs nothing of the floor view's build. */
function pairingPage(language: 'en' | 'nl', code: string, failed: boolean): string {
  const w = pageWords[language];
  return `<!doctype html>
<html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${w.title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:26rem;margin:2rem auto;padding:0 1rem}label{display:block;margin:1rem 0 .25rem}
input{font-size:1.25rem;width:100%;box-sizing:border-box;padding:.5rem}button{margin-top:1.5rem;font-size:1.25rem;padding:.75rem 1.5rem}
.error{color:#b00020}</style></head>
<body><h1>${w.title}</h1><p>${w.intro}</p>${failed ? `<p class="error" role="alert">${w.wrong}</p>` : ''}
<form method="post" action="/pair"><label for="code">${w.code}</label>
<input id="code" name="code" autocomplete="off" autocapitalize="characters" spellcheck="false" required value="${escapeHtml(code)}">
<label for="name">${w.name}</label><input id="name" name="name" maxlength="${maxDeviceNameLength}" autocomplete="off">
<button type="submit">${w.pair}</button></form><p>${w.check}</p></body></html>
`;
}

const pageCsp = "default-src 'none'; style-src 'unsafe-inline'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'";

function languageOf(request: IncomingMessage): 'en' | 'nl' {
  return /^\s*nl\b/i.test(request.headers['accept-language'] ?? '') ? 'nl' : 'en';
}

function defaultNetworkAddresses(): string[] {
  return Object.values(networkInterfaces())
    .flat()
    .filter((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)
    .map((entry) => entry!.address);
}

interface LivePairing {
  code: string;
  expiresAtMs: number;
  wrongTries: number;
}

export class WorkshopMode {
  private settings: StoredSettings;
  private server: Server | undefined;
  private problem: WorkshopProblem | null = null;
  private certificate: WorkshopCertificate | undefined;
  private pairing: LivePairing | undefined;
  private pages: Promise<FastifyInstance> | undefined;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  /** When each device's last use was last written to the file. */
  private readonly lastWritten = new Map<string, number>();
  private readonly settingsPath: string;

  constructor(private readonly options: WorkshopModeOptions) {
    this.settingsPath = join(options.dataPath, workshopSettingsFile);
    this.settings = readSettings(this.settingsPath);
  }

  state(): Promise<WorkshopState> {
    return this.serialized(async () => this.currentState());
  }

  /** At start-up: serve again if it was on. A port taken meanwhile shows in the state's `problem`. */
  resume(): Promise<WorkshopState> {
    return this.serialized(async () => {
      if (this.settings.enabled && !this.server) {
        const opened = await this.listen(this.settings.host, this.settings.port);
        if ('reason' in opened) {
          this.problem = opened;
          console.warn(`Workshop mode stays off: ${opened.message}`);
        } else this.server = opened;
      }
      return this.currentState();
    });
  }

  /** Switches on or off and/or moves to another address or port; a failure leaves it as it was. */
  change(change: WorkshopChange): Promise<WorkshopOutcome> {
    return this.serialized(async () => {
      const host = change.host ?? this.settings.host;
      const port = change.port ?? this.settings.port;
      if (this.closed) return this.failed({ reason: 'other', port, message: 'The app is stopping.' });
      if (change.enabled === false) {
        if (this.server) {
          await stopServer(this.server);
          this.server = undefined;
          console.info('Workshop mode is switched off.');
        }
        this.pairing = undefined;
        this.problem = null;
        this.save({ enabled: false });
      }
      const moves = host !== this.settings.host || port !== this.settings.port;
      const wantsOn = change.enabled ?? (this.problem !== null && moves);
      if (this.server && moves) {
        await stopServer(this.server);
        this.server = undefined;
        const moved = await this.listen(host, port);
        if ('reason' in moved) {
          // Back where it was, which it held a moment ago.
          const back = await this.listen(this.settings.host, this.settings.port);
          if (!('reason' in back)) this.server = back;
          return this.failed(moved);
        }
        this.server = moved;
      } else if (!this.server && wantsOn) {
        const opened = await this.listen(host, port);
        if ('reason' in opened) {
          this.problem = null;
          if (this.settings.enabled) this.save({ enabled: false });
          return this.failed(opened);
        }
        this.server = opened;
        this.problem = null;
        this.save({ enabled: true });
        console.info(
          `Workshop mode is on at https://${host}:${this.listeningPort()}/floor/ (certificate ${this.certificate?.fingerprint}).`,
        );
      }
      if (moves) this.save({ host, port });
      return { status: 'done', state: this.currentState() };
    });
  }

  /** A new pairing code, replacing any on screen. Only while it serves. */
  newPairingCode(): Promise<WorkshopOutcome> {
    return this.serialized(async () => {
      if (!this.server)
        return this.failed({ reason: 'other', port: this.settings.port, message: 'Switch workshop mode on to pair a device.' });
      let code = '';
      for (let i = 0; i < pairingCodeLength; i++) code += pairingAlphabet[randomInt(pairingAlphabet.length)];
      this.pairing = { code, expiresAtMs: nowMs() + pairingCodeMinutes * 60_000, wrongTries: 0 };
      return { status: 'done', state: this.currentState() };
    });
  }

  /** Forgets a device's key: its next request is refused. */
  revokeDevice(id: string): Promise<WorkshopOutcome> {
    return this.serialized(async () => {
      const device = this.settings.devices.find((d) => d.id === id);
      if (device) {
        this.save({ devices: this.settings.devices.filter((d) => d.id !== id) });
        console.info(`Workshop device "${device.name}" was revoked.`);
      }
      return { status: 'done', state: this.currentState() };
    });
  }

  /** The app is stopping: stop serving and refuse to start again. The setting stays as it is. */
  close(): Promise<void> {
    return this.serialized(async () => {
      this.closed = true;
      if (this.server) await stopServer(this.server);
      this.server = undefined;
      const pages = this.pages;
      this.pages = undefined;
      if (pages) await (await pages).close();
    });
  }

  /** The port it listens on now (0 asked the system for one; tests use it). */
  listeningPort(): number | undefined {
    const address = this.server?.address();
    return address && typeof address !== 'string' ? address.port : undefined;
  }

  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private save(change: Partial<StoredSettings>): void {
    this.settings = { ...this.settings, ...change };
    writeJsonFile(this.settingsPath, this.settings);
  }

  private failed(problem: WorkshopProblem): WorkshopOutcome {
    return { status: 'failed', state: this.currentState(), problem };
  }

  private livePairing(): LivePairing | undefined {
    if (this.pairing && this.pairing.expiresAtMs <= nowMs()) this.pairing = undefined;
    return this.pairing;
  }

  private addresses(): string[] {
    const port = this.listeningPort() ?? this.settings.port;
    const hosts = this.settings.host === '0.0.0.0' ? (this.options.networkAddresses ?? defaultNetworkAddresses)() : [this.settings.host];
    return hosts.map((host) => `https://${host}:${port}/floor/`);
  }

  private currentState(): WorkshopState {
    const fingerprint = this.certificate?.fingerprint ?? null;
    const live = this.server ? this.livePairing() : undefined;
    let pairing: WorkshopPairing | null = null;
    if (live) {
      const [first] = this.addresses();
      const base = first ? first.replace(/\/floor\/$/, '') : `https://${this.settings.host}:${this.settings.port}`;
      const fp = (fingerprint ?? '').replace(/:/g, '');
      pairing = { code: live.code, expiresAt: new Date(live.expiresAtMs).toISOString(), url: `${base}/pair?code=${live.code}&fp=${fp}` };
    }
    return {
      enabled: this.server !== undefined,
      host: this.settings.host,
      port: this.settings.port,
      addresses: this.addresses(),
      fingerprint,
      pairing,
      devices: this.settings.devices.map(({ id, name, pairedAt, lastUsedAt }) => ({ id, name, pairedAt, lastUsedAt })),
      problem: this.problem,
    };
  }

  private listen(host: string, port: number): Promise<Server | WorkshopProblem> {
    if (this.closed) return Promise.resolve({ reason: 'other', port, message: 'The app is stopping.' });
    this.certificate ??= workshopCertificateIn(this.options.dataPath);
    const server = createServer({ key: this.certificate.key, cert: this.certificate.cert, minVersion: 'TLSv1.2' }, (request, response) => {
      this.answer(request, response).catch((error: unknown) => {
        console.error('Workshop mode could not answer a request:', error);
        if (!response.headersSent) sendError(response, 500, 'Something went wrong on our side.');
        else response.destroy();
      });
    });
    return new Promise((resolve) => {
      const fail = (error: NodeJS.ErrnoException) => resolve(listenProblemOf(error, 'Workshop mode', host, port));
      server.once('error', fail);
      server.listen({ host, port }, () => {
        server.off('error', fail);
        server.on('error', (error) => console.error('The workshop server failed:', error));
        resolve(server);
      });
    });
  }

  /** The paired device whose key the request carries, its last use noted; undefined for any other. */
  private deviceOf(request: IncomingMessage): StoredDevice | undefined {
    const header = request.headers[deviceKeyHeader];
    const key = typeof header === 'string' ? header : cookieValue(request, deviceCookie);
    if (!key || key.length > 200) return undefined;
    const hash = Buffer.from(hashOf(key), 'hex');
    const device = this.settings.devices.find((d) => timingSafeEqual(Buffer.from(d.keyHash, 'hex'), hash));
    if (!device) return undefined;
    const now = nowMs();
    device.lastUsedAt = new Date(now).toISOString();
    if (now - (this.lastWritten.get(device.id) ?? 0) >= lastUseWriteMs) {
      this.lastWritten.set(device.id, now);
      this.save({});
    }
    return device;
  }

  private async answer(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const [path = '/', query = ''] = (request.url ?? '/').split('?', 2);
    const route = workshopRouteOf(request.method, path);
    if (route === 'none') return sendError(response, 404, 'Not found. Workshop mode serves the floor view only.');
    if (route === 'home') return send(response, 302, '', 'text/plain; charset=utf-8', { location: '/floor/' });
    if (route === 'pair-page') {
      const code = new URLSearchParams(query).get('code') ?? '';
      return send(response, 200, pairingPage(languageOf(request), code.slice(0, 32), false), 'text/html; charset=utf-8', {
        'content-security-policy': pageCsp,
      });
    }
    if (route === 'pair') return this.pair(request, response);
    if (!this.deviceOf(request)) {
      // A browser opening the floor view is shown how to pair; anything else gets nothing.
      if (path === '/floor' || path === '/floor/') return send(response, 303, '', 'text/plain; charset=utf-8', { location: '/pair' });
      return sendError(response, 401, 'This device is not paired with Planner. Open /pair and type the pairing code.');
    }
    // No other credential passes: not the device's key, not an API key.
    for (const name of ['cookie', deviceKeyHeader, 'x-api-key', 'x-api-env', 'x-planner-bridge', 'x-forwarded-for', 'forwarded'])
      delete request.headers[name];
    if (route === 'page') {
      (await this.pageApp()).routing(request, response);
      return;
    }
    (await this.options.instance()).api.routing(request, response);
  }

  private pageApp(): Promise<FastifyInstance> {
    this.pages ??= (async () => {
      const app = Fastify({ logger: false });
      registerFloorPage(app, this.options.rendererDir);
      // `/floor` is the page too (the router ignores a trailing slash only for routes it knows).
      app.get('/floor', (_request, reply) => reply.redirect('/floor/', 301));
      await app.ready();
      return app;
    })();
    return this.pages;
  }

  private async pair(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const type = (request.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    const fromForm = type === 'application/x-www-form-urlencoded';
    if (!fromForm && type !== 'application/json')
      return sendError(response, 415, 'Send the pairing code as a form or as JSON: {"code": "…", "name": "…"}.');
    const body = await readBody(request);
    if (body === undefined) return sendError(response, 413, 'The pairing request is too large.');
    let fields: Record<string, unknown> = {};
    try {
      const parsed: unknown = fromForm ? Object.fromEntries(new URLSearchParams(body)) : JSON.parse(body);
      // Any object; each field is checked below.
      if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) fields = parsed as Record<string, unknown>;
    } catch {
      return sendError(response, 400, 'The pairing request is not valid JSON.');
    }
    const code = typeof fields.code === 'string' ? fields.code.trim().toUpperCase().replace(/[\s-]/g, '') : '';
    // Control characters go: the name is shown in Settings and written to the log.
    const named =
      typeof fields.name === 'string'
        ? fields.name
            .replace(/\p{Cc}/gu, ' ')
            .trim()
            .slice(0, maxDeviceNameLength)
        : '';
    const device = await this.serialized(async () => this.redeem(code, named));
    if (!device) {
      if (fromForm)
        return send(response, 401, pairingPage(languageOf(request), '', true), 'text/html; charset=utf-8', {
          'content-security-policy': pageCsp,
        });
      return sendError(response, 401, 'The pairing code is not right or no longer works. Ask the planner for a new one.');
    }
    const cookie = `${deviceCookie}=${device.key}; HttpOnly; Secure; SameSite=Strict; Path=/; Max-Age=31536000`;
    if (fromForm) return send(response, 303, '', 'text/plain; charset=utf-8', { location: '/floor/', 'set-cookie': cookie });
    send(response, 200, JSON.stringify({ device_id: device.id, name: device.name, key: device.key }), 'application/json; charset=utf-8', {
      'set-cookie': cookie,
    });
  }

  /** The code on screen, used once: a new device and its key. A wrong code counts toward voiding it. */
  private redeem(code: string, name: string): { id: string; name: string; key: string } | undefined {
    const live = this.server ? this.livePairing() : undefined;
    if (!live) return undefined;
    const given = Buffer.from(code.padEnd(pairingCodeLength, ' ').slice(0, 64));
    const expected = Buffer.from(live.code);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      live.wrongTries += 1;
      if (live.wrongTries >= pairingAttempts) {
        this.pairing = undefined;
        console.warn(`A workshop pairing code was voided after ${pairingAttempts} wrong tries.`);
      }
      return undefined;
    }
    this.pairing = undefined;
    const key = randomBytes(32).toString('base64url');
    const device: StoredDevice = {
      id: uuidv7(),
      name: name || `Device ${this.settings.devices.length + 1}`,
      pairedAt: new Date(nowMs()).toISOString(),
      lastUsedAt: null,
      keyHash: hashOf(key),
    };
    this.save({ devices: [...this.settings.devices, device] });
    console.info(`Workshop device "${device.name}" was paired.`);
    return { id: device.id, name: device.name, key };
  }
}
