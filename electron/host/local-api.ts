/**
 * The local API (shared/local-api.ts): the local instance's Planning API over HTTP on
 * 127.0.0.1, for other programs on this computer. One service for both hosts: the desktop
 * shell reaches it through its channels, the browser host through `/host/local-api`.
 *
 * - Off by default. Whether it is on, its port and the id of its key are kept in
 *   `local-api.json` in the data folder, beside the system database that holds the key's
 *   digest; the plain key is only ever returned by the call that made it.
 * - It answers on 127.0.0.1 only, and only under the Host names `127.0.0.1:P` and
 *   `localhost:P` (a DNS-rebinding page gets 421). Every request must carry `x-api-env` of the
 *   local environment and the key made here: not the bridge's key, not an OAuth token. A new
 *   key revokes the old one before it is returned.
 * - Requests go to the very Fastify app the bridge uses (its `routing`), so there is one API
 *   with one set of webhook and sync hooks on the databases, never a second copy. The HTTP
 *   server is this module's own, so switching off frees the port while the app runs on.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import {
  defaultLocalApiPort,
  isLocalApiPort,
  localApiUrl,
  type LocalApiChange,
  type LocalApiOutcome,
  type LocalApiProblem,
  type LocalApiState,
} from '../../shared/local-api.js';
import { checkApiKey, failedAuthenticationsOf } from '../api/auth.js';
import { ApiError } from '../api/errors.js';
import { limitKeyOf } from '../api/client-address.js';
import { writeJsonFile } from './json-file.js';
import { listenProblemOf, readSettingsObject, stopServer } from './listener.js';
import type { LocalInstance } from './local-instance.js';

/** The label of the local API's key in the system database (the bridge's is `bridge`). */
export const localApiKeyLabel = 'local-api';
export const localApiSettingsFile = 'local-api.json';

export type LocalApiInstance = Pick<LocalInstance, 'dataDir' | 'api' | 'environment'>;

export interface LocalApiOptions {
  /** The data folder: where `local-api.json` lives. */
  dataPath: string;
  /**
   * The instance to serve. A getter, because the desktop app swaps its instance when it
   * restores a backup; requests that arrive meanwhile wait for the new one.
   */
  instance: () => Promise<LocalApiInstance>;
}

interface StoredSettings {
  enabled: boolean;
  port: number;
  /** The id (never the key) of the working key. */
  keyId: string | null;
}

function readSettings(path: string): StoredSettings {
  const found = readSettingsObject(path);
  return {
    enabled: found.enabled === true,
    port: isLocalApiPort(found.port) ? found.port : defaultLocalApiPort,
    keyId: typeof found.keyId === 'string' ? found.keyId : null,
  };
}

function stopping(port: number): LocalApiProblem {
  return { reason: 'other', port, message: 'The app is stopping.' };
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' ? value : undefined;
}

function sendError(response: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  response.writeHead(status, { ...headers, 'content-type': 'application/json; charset=utf-8', 'x-content-type-options': 'nosniff' });
  response.end(JSON.stringify(body));
}

export class LocalApi {
  private settings: StoredSettings;
  private server: Server | undefined;
  private problem: LocalApiProblem | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly settingsPath: string;

  constructor(private readonly options: LocalApiOptions) {
    this.settingsPath = join(options.dataPath, localApiSettingsFile);
    this.settings = readSettings(this.settingsPath);
  }

  state(): Promise<LocalApiState> {
    return this.serialized(() => this.currentState());
  }

  /**
   * At start-up: serve again if it was on when the app last stopped. A port taken meanwhile is
   * not thrown; it shows in the state (`problem`) and the setting stays on for the next start.
   */
  resume(): Promise<LocalApiState> {
    return this.serialized(async () => {
      if (this.settings.enabled && !this.server) {
        const opened = await this.listen(this.settings.port);
        if ('reason' in opened) {
          this.problem = opened;
          console.warn(`The local API stays off: ${opened.message}`);
        } else {
          this.server = opened;
        }
      }
      return this.currentState();
    });
  }

  /**
   * Switches on or off and/or moves to another port. Switching on makes the first key (and
   * returns it, once) when there is no working key. A port that cannot be opened fails the
   * change: off stays off (and is saved as off, should it have been left on but not started),
   * a running API keeps its old port.
   */
  change(change: LocalApiChange): Promise<LocalApiOutcome> {
    return this.serialized(async () => {
      if (this.closed) return this.failed(stopping(change.port ?? this.settings.port));
      const port = change.port ?? this.settings.port;
      // Left on but not started (its port was taken at start-up): another port is a new try.
      const wantsOn = change.enabled ?? (this.problem !== null && change.port !== undefined);
      if (change.enabled === false) {
        if (this.server) {
          await stopServer(this.server);
          this.server = undefined;
          console.info('The local API is switched off.');
        }
        this.problem = null;
        this.save({ enabled: false });
      }
      let key: string | undefined;
      if (this.server && port !== this.settings.port) {
        const moved = await this.listen(port);
        if ('reason' in moved) return this.failed(moved);
        await stopServer(this.server);
        this.server = moved;
        console.info(`The local API moved to ${localApiUrl(port)}.`);
      } else if (!this.server && wantsOn) {
        const opened = await this.listen(port);
        if ('reason' in opened) {
          // The planner sees this failure now; the next start should not try again unasked.
          this.problem = null;
          if (this.settings.enabled) this.save({ enabled: false });
          return this.failed(opened);
        }
        this.server = opened;
        this.problem = null;
        this.save({ enabled: true });
        console.info(`The local API is on at ${localApiUrl(port)}.`);
        const instance = await this.options.instance();
        if (!this.liveKey(instance)) key = this.makeKey(instance);
      }
      if (port !== this.settings.port) this.save({ port });
      const state = await this.currentState();
      return key === undefined ? { status: 'done', state } : { status: 'done', state, key };
    });
  }

  /** Makes a new key and revokes the old one at once; the new one is returned this once. */
  newKey(): Promise<LocalApiOutcome> {
    return this.serialized(async () => {
      const key = this.makeKey(await this.options.instance());
      return { status: 'done', state: await this.currentState(), key };
    });
  }

  /** The app is stopping: stop serving and refuse to start again. The setting stays as it is. */
  close(): Promise<void> {
    return this.serialized(async () => {
      this.closed = true;
      if (this.server) await stopServer(this.server);
      this.server = undefined;
    });
  }

  /** One command at a time, so two quick clicks never open two servers. */
  private serialized<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }

  private save(change: Partial<StoredSettings>): void {
    this.settings = { ...this.settings, ...change };
    writeJsonFile(this.settingsPath, this.settings);
  }

  private async failed(problem: LocalApiProblem): Promise<LocalApiOutcome> {
    return { status: 'failed', state: await this.currentState(), problem };
  }

  private makeKey(instance: LocalApiInstance): string {
    const { system } = instance.dataDir;
    system.revokeApiKeys(instance.environment.id, localApiKeyLabel);
    const { id, key } = system.addApiKey(instance.environment.id, undefined, localApiKeyLabel);
    this.save({ keyId: id });
    console.info('A new local API key was made; the previous one no longer works.');
    return key;
  }

  /** The working key's record; gone when it was revoked, or a restored backup predates it. */
  private liveKey(instance: LocalApiInstance) {
    if (!this.settings.keyId) return undefined;
    const key = instance.dataDir.system.findLiveApiKey(this.settings.keyId);
    return key && key.environment_id === instance.environment.id && key.label === localApiKeyLabel ? key : undefined;
  }

  private async currentState(): Promise<LocalApiState> {
    const instance = await this.options.instance();
    return {
      enabled: this.server !== undefined,
      port: this.settings.port,
      url: localApiUrl(this.settings.port),
      environment: instance.environment.name,
      keyMadeAt: this.liveKey(instance)?.created_at ?? null,
      problem: this.problem,
    };
  }

  private listen(port: number): Promise<Server | LocalApiProblem> {
    if (this.closed) return Promise.resolve(stopping(port));
    const hosts = new Set([`127.0.0.1:${port}`, `localhost:${port}`]);
    const server = createServer((request, response) => {
      this.answer(request, response, hosts).catch((error: unknown) => {
        console.error('The local API could not answer a request:', error);
        if (!response.headersSent)
          sendError(response, 500, new ApiError('internal', [{ description: 'Something went wrong on our side.' }]).body());
        else response.destroy();
      });
    });
    return new Promise((resolve) => {
      const fail = (error: NodeJS.ErrnoException) => resolve(listenProblemOf(error, 'The local API', '127.0.0.1', port));
      server.once('error', fail);
      server.listen({ host: '127.0.0.1', port }, () => {
        server.off('error', fail);
        server.on('error', (error) => console.error('The local API server failed:', error));
        resolve(server);
      });
    });
  }

  private async answer(request: IncomingMessage, response: ServerResponse, hosts: Set<string>): Promise<void> {
    if (!hosts.has(request.headers.host ?? '')) {
      response.writeHead(421, { 'content-type': 'text/plain; charset=utf-8' });
      response.end('The local API only answers as 127.0.0.1 or localhost.\n');
      return;
    }
    const instance = await this.options.instance();
    const refusal = await this.refusal(request, instance);
    if (refusal) {
      sendError(response, refusal.status, refusal.body(), refusal.headers);
      return;
    }
    instance.api.routing(request, response);
  }

  /**
   * Why a request may not in, checked before the API sees it (and before its body is read).
   * Failures count against the sender's address with the API's own (docs/API.md "The local
   * API"): past the limit the answer to a failure is 429, while the right key still opens.
   */
  private async refusal(request: IncomingMessage, instance: LocalApiInstance): Promise<ApiError | undefined> {
    const environment = instance.environment.name;
    const howTo = `Send x-api-env: ${environment} and x-api-key with the key from Settings → Local API.`;
    const failures = failedAuthenticationsOf(instance.dataDir);
    const address = limitKeyOf(request.socket.remoteAddress);
    const key = headerValue(request, 'x-api-key');
    const named = headerValue(request, 'x-api-env');
    const failed = async (refusal: ApiError) =>
      request.headers.authorization !== undefined || key ? failures.failed(address, refusal) : refusal;
    if (request.headers.authorization !== undefined)
      return failed(ApiError.notLoggedIn(`The local API takes no Authorization header. ${howTo}`));
    if (!key || !named) return failed(ApiError.notLoggedIn(howTo));
    if (named !== environment) return failed(ApiError.notLoggedIn(`The local API serves the environment "${environment}". ${howTo}`));
    let grant;
    try {
      grant = this.settings.keyId ? await checkApiKey(instance.dataDir.system, named, key, () => failures.underLimit(address)) : undefined;
    } catch (error) {
      if (error instanceof ApiError) return error;
      throw error;
    }
    if (!grant || grant.keyId !== this.settings.keyId) return failed(ApiError.notLoggedIn('The API key does not open that environment.'));
    return undefined;
  }
}
