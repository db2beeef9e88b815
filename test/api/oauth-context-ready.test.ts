/**
 * A request signed in with OAuth is served on its environment only once the environment's
 * openers are done (DataDir.ready: kept data moved into the tables, electron/api/sync/books.ts),
 * as one with an API key is: `contextOf` waits for them. A real data folder on SQLite.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import { dataFolderOAuth } from '../../electron/api/oauth/access.js';
import { DataDir } from '../../electron/store/data-dir.js';
import type { Environment } from '../../electron/store/system.js';
import { tempDir } from '../helpers/api.js';

let dataDir: DataDir;
let environment: Environment;

beforeAll(() => {
  dataDir = DataDir.open(tempDir('planner-oauth-ready-'));
  environment = dataDir.system.ensureEnvironment('ready');
});

afterAll(() => dataDir.close());

it("gives a signed-in user's context only once the environment's openers are done", async () => {
  let finish = () => {};
  const opener = new Promise<void>((resolve) => (finish = resolve));
  dataDir.onOpen(() => opener);
  const access = dataFolderOAuth(dataDir);
  let served = false;
  const context = access.contextOf({ kind: 'user', environment, userId: 'someone', role: 'admin' }, environment).then((ctx) => {
    served = true;
    return ctx;
  });
  // Many turns of the event loop: the opener still works, so nothing is served.
  for (let turn = 0; turn < 20; turn++) await new Promise<void>((resolve) => setImmediate(resolve));
  expect(served).toBe(false);
  finish();
  const ctx = await context;
  expect(served).toBe(true);
  expect(ctx.records.engine).toBe('sqlite');
});
