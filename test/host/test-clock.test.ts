/**
 * PLANNER_NOW (docs/architecture.md "A fixed clock"): a server process started with it lives
 * at that instant, so a test can choose the day; a value that is not an instant is refused
 * before anything starts, and without it the clock is the machine's.
 */
import { rmSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { nowMs, useMachineClock } from '../../shared/clock.js';
import { startClockFromEnvironment } from '../../electron/host/test-clock.js';
import { ArgsError } from '../../electron/host/cli-args.js';
import { tempDir } from '../helpers/api.js';
import { runServerCommand, startServerProcess, type ServerProcess } from '../helpers/process.js';

let server: ServerProcess | undefined;
const folders: string[] = [];

afterEach(async () => {
  useMachineClock();
  await server?.stop();
  server = undefined;
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = tempDir('planner-clock-');
  folders.push(dir);
  return dir;
}

describe('the process clock from PLANNER_NOW', () => {
  it('starts at the instant given and runs on from there', async () => {
    const line = startClockFromEnvironment({ PLANNER_NOW: '2028-02-29T10:00:00+01:00' });
    expect(line).toContain('2028-02-29T10:00:00+01:00');
    const first = nowMs();
    expect(first - Date.parse('2028-02-29T09:00:00Z')).toBeGreaterThanOrEqual(0);
    expect(first - Date.parse('2028-02-29T09:00:00Z')).toBeLessThan(5_000);
    await new Promise((done) => setTimeout(done, 20));
    expect(nowMs()).toBeGreaterThan(first);
  });

  it('anchored to the machine clock (`@ms`), reads the instant as of that moment, however late the process starts', () => {
    const anchoredAt = Date.now() - 3_000;
    startClockFromEnvironment({ PLANNER_NOW: `2028-02-29T10:00:00+01:00@${anchoredAt}` });
    const shouldRead = Date.parse('2028-02-29T09:00:03Z');
    expect(Math.abs(nowMs() - shouldRead)).toBeLessThan(1_000);
  });

  it('leaves the machine clock alone when the variable is not set', () => {
    expect(startClockFromEnvironment({})).toBeUndefined();
    expect(Math.abs(nowMs() - Date.now())).toBeLessThan(5);
  });

  it.each(['tomorrow', '2028-02-29', '2028-02-29T10:00:00', '2028-02-30T10:00:00Z', '2028-02-29T25:00:00Z', '2028-02-29T10:00:00Z@soon'])(
    'refuses %j: an instant needs a date, a time and an offset',
    (value) => {
      expect(() => startClockFromEnvironment({ PLANNER_NOW: value })).toThrow(ArgsError);
      expect(Math.abs(nowMs() - Date.now())).toBeLessThan(5);
    },
  );

  it('a server started with it writes records on that day, and says so when it starts', async () => {
    server = await startServerProcess(['--data-dir', folder(), '--api-env', 'demo', '--api-key', 'secret'], 30_000, {
      PLANNER_NOW: '2025-12-31T23:30:00+01:00',
    });
    expect(server.output()).toContain('Clock: starts at 2025-12-31T23:30:00+01:00 (PLANNER_NOW)');
    const headers = { 'x-api-key': 'secret', 'x-api-env': 'demo', 'content-type': 'application/json' };
    const made = await fetch(`${server.url}/v1/project`, { method: 'POST', headers, body: JSON.stringify({ name: 'Clocked' }) });
    expect(made.status).toBe(201);
    const project = (await made.json()) as { created_at: string };
    expect(project.created_at.slice(0, 16)).toBe('2025-12-31T22:30');
  });

  it('a server given a day without a time refuses to start, naming the variable', async () => {
    const run = await runServerCommand(['--data-dir', folder()], 30_000, { PLANNER_NOW: '2025-12-31' });
    expect(run.code).not.toBe(0);
    expect(run.output).toContain('PLANNER_NOW must be an instant');
  });
});
