/**
 * New sync settings are tried on the remote before they are stored (docs/API.md "Sync",
 * "Checked before saved"): a wrong address or key would otherwise be kept, and the planner
 * would learn of it only from a sync that keeps failing. One `GET /v1/me` with the new
 * credentials and a short time limit tells all three apart: the address answers, it answers
 * as a Planner server, and the key (or sign-in) opens the environment.
 *
 * Whoever may change the settings (an admin of the replica, or a program with the local API's
 * key) names the address, so the check must not become a way to probe what this computer
 * reaches (security audit N7). It therefore says only "cannot reach" or "not a Planner server"
 * of anything that does not answer as a Planner: never what answered, its status, its words or
 * where it redirects, nor why the connection failed. And it never asks a link-local or cloud
 * metadata address (shared/ip-address.ts), named or resolved to: the address the connection
 * would use is checked before it is made, so a name that resolves there is refused too.
 */
import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { isLinkLocalOrMetadata } from '../../shared/ip-address.js';
import { SyncSettingsProblem } from '../../shared/sync.js';
import type { RemoteCredentials } from './remote.js';

/** How much of an answer is read: a Planner's `/v1/me` is a few hundred bytes. */
const maxAnswerBytes = 64 * 1024;

/** Resolves a name to all its addresses (the system's resolver; a test may hand its own). */
export type Resolve = (hostname: string, done: (error: Error | null, addresses: LookupAddress[]) => void) => void;

const systemResolve: Resolve = (hostname, done) => dnsLookup(hostname, { all: true }, done);

class RefusedAddress extends Error {}

/** A socket `lookup` that resolves as `resolve` does and refuses link-local and metadata addresses. */
export function refusingLookup(resolve: Resolve = systemResolve): LookupFunction {
  return (hostname, options, callback) => {
    resolve(hostname, (error, addresses) => {
      // The callback's type wants an ErrnoException; the socket only hands it on as the request's error.
      if (error) return callback(error as NodeJS.ErrnoException, '', 0);
      const usable = addresses.filter((a) => options.family === undefined || options.family === 0 || a.family === options.family);
      if (usable.some((a) => isLinkLocalOrMetadata(a.address)))
        return callback(new RefusedAddress(hostname) as NodeJS.ErrnoException, '', 0);
      if (usable.length === 0) return callback(new Error(`${hostname} has no address`) as NodeJS.ErrnoException, '', 0);
      // A caller that asked for `all` gets the list form of the callback (net's lookup contract).
      if (options.all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      return callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

interface Answer {
  status: number;
  body: unknown;
}

/** One GET, its redirects not followed, its answer read up to `maxAnswerBytes`. */
function get(url: URL, headers: Record<string, string>, timeoutMs: number, lookup: LookupFunction): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
    // A fresh connection, so no pooled socket outlives the check.
    const request = send(url, { method: 'GET', headers, lookup, agent: false });
    const timer = setTimeout(() => request.destroy(new Error('no answer in time')), timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (bytes > maxAnswerBytes) return request.destroy(new Error('answer too large'));
        chunks.push(chunk);
      });
      response.on('end', () => {
        clearTimeout(timer);
        let body: unknown = null;
        try {
          body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
        } catch {
          // Not JSON: not a Planner's answer either.
        }
        resolve({ status: response.statusCode ?? 0, body });
      });
      response.on('error', (error) => {
        clearTimeout(timer);
        reject(error);
      });
    });
    request.end();
  });
}

/** Whether `body` is a Planner error body (docs/API.md "Errors") with `code`. */
function isPlannerError(body: unknown, code: number): boolean {
  const { reference, errors } = (body ?? {}) as { reference?: unknown; errors?: unknown };
  return typeof reference === 'string' && Array.isArray(errors) && (errors[0] as { code?: unknown } | undefined)?.code === code;
}

/** Resolves when the credentials open their environment on the remote; throws SyncSettingsProblem otherwise. */
export async function checkRemoteCredentials(credentials: RemoteCredentials, timeoutMs: number, resolve?: Resolve): Promise<void> {
  const url = new URL('/v1/me', credentials.remote_url);
  const where = url.origin;
  const keyField = credentials.access_token ? 'access_token' : 'api_key';
  if (!credentials.access_token && !(credentials.api_key && credentials.api_env)) {
    throw new SyncSettingsProblem(
      'api_key',
      'Enter the API key and its environment (or sign in with an account): the server lets nobody sync without one.',
    );
  }
  const notPlanner = new SyncSettingsProblem('remote_url', `${where} does not answer as a Planner server. Check the address.`);
  // An address given as such is never looked up: refused here, before any connection.
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isLinkLocalOrMetadata(host)) throw notPlanner;
  const headers: Record<string, string> = { accept: 'application/json' };
  if (credentials.access_token) headers.authorization = `Bearer ${credentials.access_token}`;
  else Object.assign(headers, { 'x-api-key': credentials.api_key!, 'x-api-env': credentials.api_env! });
  let answer: Answer;
  try {
    answer = await get(url, headers, timeoutMs, refusingLookup(resolve));
  } catch (error) {
    // A name that leads to a link-local or metadata address is no Planner server.
    if (error instanceof RefusedAddress) throw notPlanner;
    throw new SyncSettingsProblem(
      'remote_url',
      `Could not reach ${where}. Check the address, and that the server is running and this computer can reach it.`,
    );
  }
  const { status, body } = answer;
  // Only a Planner's own answers say more than "not a Planner server".
  if (status === 401 && isPlannerError(body, 10401)) {
    throw new SyncSettingsProblem(
      keyField,
      credentials.access_token
        ? `${where} did not accept the sign-in. Sign in again.`
        : `The key does not open environment “${credentials.api_env}” on ${where}. Check the API key and the environment.`,
    );
  }
  if ((status === 429 && isPlannerError(body, 10429)) || (status >= 500 && isPlannerError(body, 10000 + status))) {
    throw new SyncSettingsProblem('remote_url', `${where} could not check the key right now. Try again in a moment.`);
  }
  const environment = (body as { environment?: { name?: unknown } } | null)?.environment;
  if (status !== 200 || typeof environment?.name !== 'string') throw notPlanner;
}
