/**
 * The headless server's health checks for a proxy (docs/API.md "Health checks"), on a real
 * server process: behind the operator's health token, 200 while it serves, absent without a
 * token, and a token too short to be safe refused at start.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../../electron/api/app.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { tempDir } from '../helpers/api.js';
import { runServerCommand, startServerProcess, type ServerProcess } from '../helpers/process.js';

const token = 'health-check-token-0123456789';
const folders: string[] = [];
const folder = () => {
  const made = tempDir('planner-health-');
  folders.push(made);
  return made;
};

let server: ServerProcess;
beforeAll(async () => {
  server = await startServerProcess(['--data-dir', folder()], 30_000, { PLANNER_HEALTH_TOKEN: token });
});
afterAll(async () => {
  await server?.stop();
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

const check = (base: string, path: string, headers: Record<string, string> = {}) => fetch(`${base}${path}`, { headers });

describe('health checks', () => {
  it('answer with the health token: live, and ready while the databases answer', async () => {
    const live = await check(server.url, '/health/live', { 'x-health-token': token });
    expect(live.status).toBe(200);
    expect(await live.json()).toEqual({ status: 'live' });
    const ready = await check(server.url, '/health/ready', { 'x-health-token': token });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: 'ready' });
  });

  it('refuse a request without the token, or with another, with the error body', async () => {
    const attempts: Record<string, string>[] = [
      {},
      { 'x-health-token': 'wrong-token-of-some-length' },
      { 'x-health-token': token.slice(0, -1) },
    ];
    for (const headers of attempts) {
      const answer = await check(server.url, '/health/ready', headers);
      expect(answer.status).toBe(401);
      const body = (await answer.json()) as { reference: string; errors: { code: number; description: string }[] };
      expect(body.reference).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.errors[0]).toMatchObject({ code: 10401, description: 'Send the health token of this server in x-health-token.' });
    }
    // The token opens nothing else.
    expect((await check(server.url, '/v1/board', { 'x-health-token': token })).status).toBe(401);
  });

  it('do not exist on a server started without a token', async () => {
    const plain = await startServerProcess(['--data-dir', folder()]);
    try {
      expect((await check(plain.url, '/health/live', { 'x-health-token': token })).status).toBe(404);
    } finally {
      await plain.stop();
    }
  });

  it('refuse to start with a token shorter than 16 characters', async () => {
    const run = await runServerCommand(['--port', '0', '--data-dir', folder()], 30_000, { PLANNER_HEALTH_TOKEN: 'short' });
    expect(run.code).toBe(2);
    expect(run.output).toContain('the health token must be at least 16 characters');
  });
});

describe('readiness', () => {
  it('answers 503 with each reason while the server cannot serve', async () => {
    const dataDir = DataDir.open(folder());
    const app = await buildApi({
      dataDir,
      health: { token, problems: () => ['the server is stopping', 'the system database does not answer'] },
    });
    try {
      const answer = await app.inject({ method: 'GET', url: '/health/ready', headers: { 'x-health-token': token } });
      expect(answer.statusCode).toBe(503);
      expect(answer.json().errors.map((e: { code: number; description: string }) => [e.code, e.description])).toEqual([
        [10503, 'the server is stopping'],
        [10503, 'the system database does not answer'],
      ]);
      // Alive all the same: the process answers.
      expect((await app.inject({ method: 'GET', url: '/health/live', headers: { 'x-health-token': token } })).statusCode).toBe(200);
    } finally {
      await app.close();
      dataDir.close();
    }
  });
});
