/**
 * The floor specs' team server: the headless server as its own process in a new data folder,
 * reached with the environment's API key, and the operators (users with a password, linked to
 * a resource) who sign in on the floor view (docs/API.md "The floor").
 */
import { tempDir } from '../helpers/api.js';
import { call } from '../helpers/instance.js';
import { activeUserThroughApi } from '../helpers/oauth-flow.js';
import { startServerProcess, type ServerProcess } from '../helpers/process.js';

export interface FloorServer {
  url: string;
  /** A call with the environment's API key; answers the body, and throws with the answer when refused. */
  byKey(method: string, path: string, body?: unknown): Promise<any>;
  /** An active user with a password; linked to a resource (and named) when one is given. */
  user(person: { email: string; role: 'member' | 'manager'; password: string; resourceId?: string; firstname?: string }): Promise<string>;
  stop(): Promise<void>;
}

export async function startFloorServer(folderPrefix: string, access: { env: string; key: string }): Promise<FloorServer> {
  const served: ServerProcess = await startServerProcess([
    '--data-dir',
    tempDir(folderPrefix),
    '--api-env',
    access.env,
    '--api-key',
    access.key,
  ]);
  const headers = { 'x-api-env': access.env, 'x-api-key': access.key };
  const byKey = async (method: string, path: string, body?: unknown) => {
    const answer = await call(served.url, method, path, headers, body);
    if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  return {
    url: served.url,
    byKey,
    async user({ email, role, password, resourceId, firstname }) {
      const id = await activeUserThroughApi(served.url, headers, { environment: access.env, email, role, password });
      if (resourceId) await byKey('PUT', `/v1/user/${id}`, { resource_id: resourceId, ...(firstname ? { firstname } : {}) });
      return id;
    },
    async stop() {
      await served.stop();
    },
  };
}

/** A one-stage board whose last status is its exit status: where the floor's "Finish" moves a card. */
export function workshopBoard(exitStatus: string) {
  return {
    name: 'Workshop',
    stages: [{ name: 'Welding' }],
    statuses: [
      { name: 'Todo', entry: true, priority: 0 },
      { name: exitStatus, exit: true, priority: 1 },
    ],
  };
}
