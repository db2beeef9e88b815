/**
 * The remote that sync specs connect their apps to: the headless server as its own process,
 * started with the one API key the apps connect with, and called straight as any other client
 * of it would call it.
 */
import { tempDir } from '../helpers/api.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';

export const remoteAccess = { env: 'prod', key: 'remote-key' };

/** A remote on a new data folder, or again on the folder of one that was stopped. */
export function startRemote(dataDir: string = tempDir('planner-remote-')): Promise<ServerProcess> {
  return startServerProcess(['--data-dir', dataDir, '--api-env', remoteAccess.env, '--api-key', remoteAccess.key]);
}

/** A call straight to a remote's API; answers the body, and throws with the answer when refused. */
export async function onRemote(
  remote: { url: string },
  method: string,
  path: string,
  body?: unknown,
  query: Record<string, string> = {},
): Promise<any> {
  const url = new URL(path, remote.url);
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  const response = await fetch(url, {
    method,
    headers: { 'x-api-env': remoteAccess.env, 'x-api-key': remoteAccess.key, 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}
