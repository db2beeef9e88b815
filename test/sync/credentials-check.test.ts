/**
 * The check of new sync settings (docs/API.md "Sync", "Checked before saved"; security audit
 * N7) tells only "cannot reach" or "not a Planner server" of whatever is not a Planner: never
 * its status, its words, where it redirects or why the connection failed; and it never asks a
 * link-local or metadata address, not even one a name resolves to. Every server here is on
 * 127.0.0.1; the metadata address only ever comes from a resolver the test hands in, and no
 * connection is made to it.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isLinkLocalOrMetadata } from '../../shared/ip-address.js';
import { remoteUrlProblem, SyncSettingsProblem } from '../../shared/sync.js';
import { checkRemoteCredentials } from '../../electron/sync/credentials-check.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { freePort } from '../helpers/ports.js';

const servers: (Server | TcpServer)[] = [];
let planner: TestApi;
/** Requests the stand-ins were asked, by path. */
const asked: string[] = [];

function listen(server: Server | TcpServer): Promise<string> {
  servers.push(server);
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve(`http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`);
    }),
  );
}

/** A web server that is no Planner: it answers `/v1/me` as `answer` says, with words of its own. */
function stranger(answer: (response: import('node:http').ServerResponse) => void): Promise<string> {
  return listen(
    createHttpServer((request, response) => {
      asked.push(request.url ?? '');
      answer(response);
    }),
  );
}

const secretWords = /SecretCorp|internal\.example|vault-admin|OpenSSH|ECONNREFUSED|302|401|500|HPE_|socket/;

beforeAll(async () => {
  planner = await startTestApi({ environment: 'prod', key: 'prod-key-123' });
});

afterAll(async () => {
  for (const server of servers) server.close();
  await planner.close();
});

async function problemOf(remote_url: string, key = 'prod-key-123', timeoutMs = 2000): Promise<SyncSettingsProblem> {
  const error = await checkRemoteCredentials({ remote_url, api_env: 'prod', api_key: key }, timeoutMs).then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(SyncSettingsProblem);
  return error as SyncSettingsProblem;
}

describe('the credentials check of new sync settings', () => {
  it('takes a Planner whose key opens the environment, and says when the key does not', async () => {
    await expect(checkRemoteCredentials({ remote_url: planner.baseUrl, api_env: 'prod', api_key: 'prod-key-123' }, 2000)).resolves.toBe(
      undefined,
    );
    const refused = await problemOf(planner.baseUrl, 'wrong-key-123');
    expect(refused).toMatchObject({ field: 'api_key', message: expect.stringMatching(/does not open environment “prod”/) });
  });

  it('says only "could not reach" of a closed port, a silent one and one that speaks no HTTP', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const silent = await listen(createTcpServer(() => undefined));
    const ssh = await listen(createTcpServer((socket) => socket.end('SSH-2.0-OpenSSH_9.2 vault-admin\r\n')));
    for (const [url, timeoutMs] of [
      [closed, 2000],
      [silent, 300],
      [ssh, 2000],
    ] as const) {
      const problem = await problemOf(url, 'prod-key-123', timeoutMs);
      expect(problem.field).toBe('remote_url');
      expect(problem.message).toBe(
        `Could not reach ${url}. Check the address, and that the server is running and this computer can reach it.`,
      );
    }
  });

  it('says only "not a Planner server" of a redirect, a 401, a 500 or a 200 of another server, never their words', async () => {
    const redirect = await stranger((r) => r.writeHead(302, { location: 'http://internal.example/vault-admin' }).end());
    const unauthorised = await stranger((r) =>
      r.writeHead(401, { 'content-type': 'application/json', server: 'SecretCorp/1.0' }).end('{"error":"SecretCorp says no"}'),
    );
    const failing = await stranger((r) => r.writeHead(500, { 'content-type': 'text/plain' }).end('SecretCorp stack trace'));
    const other = await stranger((r) => r.writeHead(200, { 'content-type': 'application/json' }).end('{"user":"SecretCorp"}'));
    for (const url of [redirect, unauthorised, failing, other]) {
      const problem = await problemOf(url);
      expect(problem.field).toBe('remote_url');
      expect(problem.message).toBe(`${url} does not answer as a Planner server. Check the address.`);
      expect(problem.message.replace(url, '')).not.toMatch(secretWords);
    }
  });

  it('never connects to a link-local or metadata address a name resolves to', async () => {
    const listener = await stranger((r) => r.writeHead(200).end('{}'));
    const port = new URL(listener).port;
    asked.length = 0;
    // The name is this computer's; the resolver answers as a hostile DNS server would.
    for (const address of ['169.254.169.254', 'fe80::1', '::ffff:169.254.169.254', 'fd00:ec2::254']) {
      const resolvedThere = await checkRemoteCredentials(
        { remote_url: `http://localhost:${port}`, api_env: 'prod', api_key: 'prod-key-123' },
        2000,
        (_name, done) => done(null, [{ address, family: address.includes(':') ? 6 : 4 }]),
      ).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(resolvedThere, address).toMatchObject({
        field: 'remote_url',
        message: expect.stringMatching(/does not answer as a Planner server/),
      });
    }
    expect(asked).toEqual([]);
    // The same name resolved to this computer reaches the listener: the refusal was the address's.
    await problemOf(`http://localhost:${port}`);
    expect(asked).toEqual(['/v1/me']);
  });
});

describe('addresses a replica never syncs with', () => {
  it('are link-local and cloud metadata addresses and names, in every spelling', () => {
    for (const host of [
      '169.254.169.254',
      '169.254.0.1',
      '100.100.100.200',
      '[fe80::1]',
      'fe80::1%eth0',
      '[febf::1]',
      '[::ffff:169.254.169.254]',
      '[::ffff:a9fe:a9fe]',
      '[64:ff9b::a9fe:a9fe]',
      '[fd00:ec2::254]',
      'metadata.google.internal',
      'METADATA.GOOGLE.INTERNAL.',
      'metadata.goog',
      'metadata',
      'instance-data',
      'instance-data.ec2.internal',
    ])
      expect(isLinkLocalOrMetadata(host), host).toBe(true);
  });

  it('leave the company network, this computer and public names alone', () => {
    for (const host of [
      '10.0.0.5',
      '192.168.1.10',
      '172.16.0.1',
      '100.64.0.1',
      '127.0.0.1',
      '[::1]',
      '[fec0::1]',
      '[fd00::1]',
      'planner.corp.internal',
      'localhost',
    ])
      expect(isLinkLocalOrMetadata(host), host).toBe(false);
  });

  it('are refused as a remote address before anything is asked, https or not', () => {
    // WHATWG URLs read 0xA9FEA9FE and 2852039166 as 169.254.169.254.
    for (const url of [
      'https://169.254.169.254',
      'https://0xA9FEA9FE/',
      'http://2852039166',
      'https://[fe80::1]',
      'https://metadata.google.internal',
    ])
      expect(remoteUrlProblem(url, true), url).toMatch(/link-local or cloud metadata address/);
    expect(remoteUrlProblem('https://10.1.2.3')).toBeNull();
    expect(remoteUrlProblem('http://192.168.1.10:4010', true)).toBeNull();
  });
});
