/**
 * The server's admin commands: `user add` makes a user who can sign in at once, `client add`
 * registers a client and prints its id and secret once. Run as real processes.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { tempDir } from '../helpers/api.js';
import { call, startInstance } from '../helpers/instance.js';
import { signInForCode, tokenRequest } from '../helpers/oauth-flow.js';
import { runServerCommand } from '../helpers/process.js';

const folder = tempDir('planner-cli-');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('npm run server -- user add / client add', () => {
  it('creates a user and a client that complete the sign-in flow', async () => {
    const user = await runServerCommand([
      'user',
      'add',
      '--data-dir',
      folder,
      '--api-env',
      'acme',
      '--email',
      'Root@Example.com',
      '--password',
      'long enough pw',
      '--role',
      'admin',
    ]);
    expect(user.code, user.output).toBe(0);
    expect(user.output).toContain('root@example.com');
    expect(user.output).not.toContain('long enough pw');

    const client = await runServerCommand([
      'client',
      'add',
      '--data-dir',
      folder,
      '--name',
      'Desk',
      '--redirect-uri',
      'http://127.0.0.1/cb',
      '--redirect-uri',
      'https://x.example/cb',
    ]);
    expect(client.code, client.output).toBe(0);
    const clientId = /client_id: (\S+)/.exec(client.output)![1]!;
    const secret = /client_secret: (\S+)/.exec(client.output)![1]!;

    const instance = await startInstance(folder);
    try {
      const code = await signInForCode(
        instance.baseUrl,
        { client_id: clientId, redirect_uri: 'https://x.example/cb', state: 'k' },
        { environment: 'acme', email: 'root@example.com', password: 'long enough pw' },
      );
      const tokens = await tokenRequest(instance.baseUrl, {
        grant_type: 'authorization_code',
        code,
        client_id: clientId,
        client_secret: secret,
        redirect_uri: 'https://x.example/cb',
      });
      expect(tokens.status).toBe(200);
      const me = await call(instance.baseUrl, 'GET', '/v1/me', { authorization: `Bearer ${tokens.body.access_token}` });
      expect(me.body.user).toMatchObject({ email: 'root@example.com', role: 'admin', status: 'active' });
    } finally {
      await instance.stop();
    }
  });

  it('refuses bad input with a clear message', async () => {
    const weak = await runServerCommand([
      'user',
      'add',
      '--data-dir',
      folder,
      '--api-env',
      'acme',
      '--email',
      'b@example.com',
      '--password',
      'short',
      '--role',
      'admin',
    ]);
    expect(weak.code).not.toBe(0);
    expect(weak.output).toMatch(/at least 8 characters/);
    const twice = await runServerCommand([
      'user',
      'add',
      '--data-dir',
      folder,
      '--api-env',
      'acme',
      '--email',
      'root@example.com',
      '--password',
      'long enough pw',
      '--role',
      'admin',
    ]);
    expect(twice.code).not.toBe(0);
    expect(twice.output).toMatch(/already exists/);
    const badUri = await runServerCommand([
      'client',
      'add',
      '--data-dir',
      folder,
      '--name',
      'X',
      '--redirect-uri',
      'http://example.com/cb',
    ]);
    expect(badUri.code).toBe(2);
    expect(badUri.output).toMatch(/https/);
  });
});
