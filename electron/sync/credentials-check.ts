/**
 * New sync settings are tried on the remote before they are stored (docs/API.md "Sync",
 * "Checked before saved"): a wrong address or key would otherwise be kept, and the planner
 * would learn of it only from a sync that keeps failing. One `GET /v1/me` with the new
 * credentials and a short time limit tells all three apart: the address answers, it answers
 * as a Planner server, and the key (or sign-in) opens the environment.
 */
import { SyncSettingsProblem } from '../../shared/sync.js';
import type { RemoteCredentials } from './remote.js';

function reason(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } }).cause;
  if ((error as Error).name === 'TimeoutError') return 'no answer in time';
  if (typeof cause?.code === 'string') return cause.code;
  return typeof cause?.message === 'string' ? cause.message : (error as Error).message;
}

/** Resolves when the credentials open their environment on the remote; throws SyncSettingsProblem otherwise. */
export async function checkRemoteCredentials(credentials: RemoteCredentials, timeoutMs: number): Promise<void> {
  const url = new URL('/v1/me', credentials.remote_url);
  const where = url.origin;
  const keyField = credentials.access_token ? 'access_token' : 'api_key';
  if (!credentials.access_token && !(credentials.api_key && credentials.api_env)) {
    throw new SyncSettingsProblem(
      'api_key',
      'Enter the API key and its environment (or sign in with an account): the server lets nobody sync without one.',
    );
  }
  const headers: Record<string, string> = { accept: 'application/json' };
  if (credentials.access_token) headers.authorization = `Bearer ${credentials.access_token}`;
  else Object.assign(headers, { 'x-api-key': credentials.api_key!, 'x-api-env': credentials.api_env! });
  let response: Response;
  try {
    response = await fetch(url, { headers, signal: AbortSignal.timeout(timeoutMs), redirect: 'manual' });
  } catch (error) {
    throw new SyncSettingsProblem(
      'remote_url',
      `Could not reach ${where} (${reason(error)}). Check the address, and that the server is running and this computer can reach it.`,
    );
  }
  const body: unknown = await response.json().catch(() => null);
  if (response.status === 401) {
    throw new SyncSettingsProblem(
      keyField,
      credentials.access_token
        ? `${where} did not accept the sign-in. Sign in again.`
        : `The key does not open environment “${credentials.api_env}” on ${where}. Check the API key and the environment.`,
    );
  }
  if (response.status >= 300 && response.status < 400) {
    const target = response.headers.get('location');
    throw new SyncSettingsProblem(
      'remote_url',
      `${where} sends requests elsewhere${target ? ` (${target})` : ''}. Enter the address of the server itself.`,
    );
  }
  if (response.status >= 500 || response.status === 429) {
    throw new SyncSettingsProblem(
      'remote_url',
      `${where} could not check the key right now (it answered ${response.status}). Try again in a moment.`,
    );
  }
  const environment = (body as { environment?: { name?: unknown } } | null)?.environment;
  if (!response.ok || typeof environment?.name !== 'string') {
    throw new SyncSettingsProblem(
      'remote_url',
      `${where} does not answer as a Planner server (it answered ${response.status} to GET /v1/me). Check the address.`,
    );
  }
}
