/**
 * The headless replica's remote must be https unless it is on this computer, or plain http is
 * explicitly allowed (docs/API.md "Sync", "An encrypted remote"). Real server processes. The
 * "other computer" is an IPv4-mapped IPv6 loopback address, which the rule does not exempt,
 * so any traffic stays on 127.0.0.1 (port 9 has no listener).
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/api.js';
import { runServerCommand, startServerProcess } from '../helpers/process.js';

const folders: string[] = [];
const folder = () => {
  const made = tempDir('planner-remote-url-');
  folders.push(made);
  return made;
};

afterAll(() => {
  for (const made of folders) rmSync(made, { recursive: true, force: true });
});

const replicaArgs = (remote: string) => [
  '--data-dir',
  folder(),
  '--api-env',
  'local',
  '--api-key',
  'local-key-1',
  '--remote',
  remote,
  '--remote-api-env',
  'prod',
  '--remote-api-key',
  'remote-key-1',
];

describe('npm run server -- --remote', () => {
  it('refuses a plain-http remote on another computer with one line, and sends nothing', async () => {
    const { code, output } = await runServerCommand(['--port', '0', ...replicaArgs('http://[::ffff:127.0.0.1]:9')], 20_000);
    expect(code).not.toBe(0);
    expect(output).toMatch(/--remote: .*https/);
    expect(output).toMatch(/--allow-insecure-remote/);
  });

  it('starts with plain http to another computer only with --allow-insecure-remote', async () => {
    const server = await startServerProcess([
      ...replicaArgs('http://[::ffff:127.0.0.1]:9'),
      '--allow-insecure-remote',
      '--sync-interval-ms',
      '3600000',
    ]);
    try {
      const settings = await fetch(`${server.url}/v1/sync/settings`, { headers: { 'x-api-env': 'local', 'x-api-key': 'local-key-1' } });
      expect(await settings.json()).toMatchObject({ remote_url: 'http://[::ffff:127.0.0.1]:9', allow_insecure_http: true });
    } finally {
      await server.stop('SIGTERM');
    }
  });
});
