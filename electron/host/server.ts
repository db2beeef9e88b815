/**
 * The headless Planning API: the remote instance that desktop apps sync with, and the server
 * tests start as a real second process.
 *
 *   npm run server -- --port P --data-dir D [--host H] [--api-env E --api-key K]
 *                     [--remote URL --remote-api-env E --remote-api-key K]
 *
 * Each key may come from a file instead (--api-key-file, --remote-api-key-file) or from the
 * environment (PLANNER_API_KEY, PLANNER_REMOTE_API_KEY), which keeps it out of `ps`.
 *
 * It serves the floor view at /floor/ (floor-page.ts) from the renderer's build, when there is one.
 *
 * With a health token (--health-token-file, PLANNER_HEALTH_TOKEN) it answers /health/live and
 * /health/ready for a proxy in front of it (health-routes.ts).
 *
 * --allow-private-webhooks lets webhooks post to loopback and private addresses (refused by
 * default on a server others reach).
 *
 * Behind a reverse proxy, --trust-proxy LIST (or PLANNER_TRUST_PROXY) names the proxies, by
 * address or CIDR range: a request from one of them counts as the client its X-Forwarded-For
 * names, for the limits that count per client (api/client-address.ts, docs/deployment.md
 * "Reverse proxy"). Without it every client of the proxy would count as the proxy. `user add` and `client add` are admin commands (admin-cli.ts).
 *
 * With --remote it is a local replica of environment --api-env that syncs with that remote
 * (how several replicas and one remote run side by side in tests and in the field).
 *
 * With --database postgres://… (or PLANNER_DATABASE_URL) it is a node of the team server: its
 * environments, API keys and records are in that PostgreSQL database, which any number of
 * nodes share, and the data folder keeps only this node's own files (docs/architecture.md
 * "Team server on PostgreSQL"). It migrates the database when it is the first of a newer
 * version, and refuses to start on one a newer version migrated. Only a replica's own sync
 * routes answer 503 there (docs/architecture.md "The asynchronous store boundary").
 * It binds 127.0.0.1 unless --host says otherwise, prints a line with its URL once it accepts
 * requests, and closes the databases on SIGINT/SIGTERM. It holds the data folder's lock while it
 * runs, so a second process on the same folder is refused (data-dir-lock.ts).
 */
import type { IncomingMessage, Server } from 'node:http';
import { resolve } from 'node:path';
import { buildApi } from '../api/app.js';
import { DatabaseOpenError } from '../store/database.js';
import type { DataDir } from '../store/data-dir.js';
import { openDataFolder } from './data-folder.js';
import { DataDirLock } from '../store/data-dir-lock.js';
import { remoteUrlProblem } from '../../shared/sync.js';
import { MemoryVault } from '../sync/credentials.js';
import type { SyncClient } from '../sync/client.js';
import { adminUsage, isAdminCommand, runAdminCommand } from './admin-cli.js';
import { ArgsError, databaseOption, parseArgs, portOption, secretOption } from './cli-args.js';
import { startClockFromEnvironment } from './test-clock.js';
import { isRecoveryCommand, recoveryUsage, runRecoveryCommand } from './recovery-cli.js';
import { isMigrateCommand, migrateUsage, runMigrateCommand } from './migrate-cli.js';
import { backupUsage, isBackupCommand, runBackupCommand } from './backup-cli.js';
import { describeRecovery, recoveryFacts, serverRecoveryAdvice } from './recovery.js';
import { startReplicaSync } from './replica-sync.js';
import { builtRendererDir, registerFloorPage } from './floor-page.js';
import { minHealthTokenLength } from '../api/health-routes.js';
import { serverMigrations } from '../store/postgres/migrations.js';
import { openPostgresDatabase, type PostgresPool } from '../store/postgres/postgres-database.js';
import { teamRecordStores } from '../api/team-records.js';
import { ChangeNotices } from '../store/postgres/change-notices.js';
import { PostgresSystemStore } from '../store/postgres/system-store.js';
import { TrustedProxies, TrustedProxiesError } from '../api/client-address.js';

const usage = `Usage: npm run server -- --data-dir DIR [--port 4010] [--host 127.0.0.1] [--api-env ENV --api-key KEY] [--log]
       [--remote URL --remote-api-env ENV --remote-api-key KEY [--sync-interval-ms MS] [--allow-insecure-remote]] [--sync-retention N] [--allow-private-webhooks]
       [--database postgres://USER@HOST/DB (or PLANNER_DATABASE_URL=…): a team server node on PostgreSQL]
       [--health-token-file FILE] [--trust-proxy ADDRESSES (or PLANNER_TRUST_PROXY=…): the reverse proxies, e.g. 127.0.0.1,10.0.0.0/8]
       Instead of --api-key K: --api-key-file FILE or PLANNER_API_KEY=K in the environment (a key on the
       command line shows in ps); likewise --remote-api-key-file FILE or PLANNER_REMOTE_API_KEY=K, and
       --health-token-file FILE or PLANNER_HEALTH_TOKEN=T (/health/live and /health/ready for a proxy).
${adminUsage}
${recoveryUsage}
${backupUsage}
${migrateUsage}`;

/** Why this server cannot serve now (docs/API.md "Health checks"): stopping, or a database that does not answer. */
async function readinessProblems(dataDir: DataDir, pool: PostgresPool | undefined, stopping: boolean): Promise<string[]> {
  const problems = stopping ? ['the server is stopping'] : [];
  const said = (error: unknown) => (error instanceof Error ? error.message : String(error));
  try {
    dataDir.system.db.prepare('SELECT 1').get();
  } catch (error) {
    problems.push(`the system database does not answer: ${said(error)}`);
  }
  if (pool) {
    try {
      await pool.query('SELECT 1');
    } catch (error) {
      problems.push(`the team database does not answer: ${said(error)}`);
    }
  }
  return problems;
}

/** The reverse proxies of `--trust-proxy` or PLANNER_TRUST_PROXY; undefined when neither is given. */
function trustProxyOption(value: string | true | undefined): TrustedProxies | undefined {
  if (value === true) throw new ArgsError('--trust-proxy needs the addresses of the proxies');
  const source = value === undefined ? 'PLANNER_TRUST_PROXY' : '--trust-proxy';
  const text = value ?? process.env.PLANNER_TRUST_PROXY;
  if (text === undefined) return undefined;
  try {
    return TrustedProxies.parse(text);
  } catch (error) {
    if (error instanceof TrustedProxiesError) throw new ArgsError(`${source}: ${error.message}`);
    throw error;
  }
}

/**
 * Says once that requests come through a proxy this server was not told to trust: all its
 * clients then count as the proxy, and share one failure limit (docs/deployment.md "Reverse proxy").
 */
function noticeUntrustedProxy(server: Server): void {
  const notice = (request: IncomingMessage) => {
    if (request.headers['x-forwarded-for'] === undefined) return;
    server.off('request', notice);
    console.log(
      `A request from ${request.socket.remoteAddress} came with X-Forwarded-For, which this server ignores: every client of that proxy counts as the proxy (start with --trust-proxy ${request.socket.remoteAddress} to count each client apart).`,
    );
  };
  server.on('request', notice);
}

function wholeNumber(value: string | true | undefined, name: string): number | undefined {
  if (value === undefined) return undefined;
  if (value === true || !/^\d+$/.test(value)) throw new ArgsError(`--${name} must be a whole number`);
  return Number(value);
}

async function main(argv: string[]): Promise<void> {
  const clockLine = startClockFromEnvironment();
  if (clockLine) console.log(clockLine);
  if (isAdminCommand(argv)) return runAdminCommand(argv);
  if (isRecoveryCommand(argv)) return runRecoveryCommand(argv);
  if (isMigrateCommand(argv)) return runMigrateCommand(argv);
  if (isBackupCommand(argv)) return runBackupCommand(argv);
  const { options } = parseArgs(argv, {
    values: [
      'port',
      'data-dir',
      'host',
      'api-env',
      'api-key',
      'api-key-file',
      'remote',
      'remote-api-env',
      'remote-api-key',
      'remote-api-key-file',
      'sync-interval-ms',
      'sync-retention',
      'health-token',
      'health-token-file',
      'database',
      'trust-proxy',
    ],
    flags: ['log', 'help', 'allow-private-webhooks', 'allow-insecure-remote'],
  });
  if (options.help) {
    console.log(usage);
    return;
  }
  if (typeof options['data-dir'] !== 'string') throw new ArgsError('--data-dir is required');
  const port = portOption(options.port, 4010);
  const host = typeof options.host === 'string' ? options.host : '127.0.0.1';
  const envName = options['api-env'];
  // The environment variable counts only beside --api-env, so one left exported never turns
  // a plain start into a start with a key.
  const apiKey = secretOption(options, 'api-key', envName === undefined ? undefined : 'PLANNER_API_KEY');
  if ((envName === undefined) !== (apiKey === undefined))
    throw new ArgsError('--api-env and --api-key (or --api-key-file, or PLANNER_API_KEY) go together');
  const remote = options.remote;
  const remoteApiKey = secretOption(options, 'remote-api-key', remote === undefined ? undefined : 'PLANNER_REMOTE_API_KEY');
  if (remote !== undefined) {
    if (typeof remote !== 'string' || !/^https?:\/\//.test(remote)) throw new ArgsError('--remote must be an http(s) URL');
    // The remote's key and all planning data travel with every request (docs/API.md "Sync").
    const insecure = remoteUrlProblem(remote, options['allow-insecure-remote'] === true);
    if (insecure) throw new ArgsError(`--remote: ${insecure} (--allow-insecure-remote allows it)`);
    if (typeof options['remote-api-env'] !== 'string' || remoteApiKey === undefined) {
      throw new ArgsError('--remote needs --remote-api-env and --remote-api-key (or --remote-api-key-file, or PLANNER_REMOTE_API_KEY)');
    }
    if (typeof envName !== 'string') throw new ArgsError('--remote needs --api-env: the local environment that syncs');
  }
  const databaseUrl = databaseOption(options.database);
  if (databaseUrl !== undefined && remote !== undefined)
    throw new ArgsError('--database and --remote do not go together: a replica keeps its records in its data folder');
  const syncInterval = wholeNumber(options['sync-interval-ms'], 'sync-interval-ms');
  const syncRetention = wholeNumber(options['sync-retention'], 'sync-retention');

  const trustedProxies = trustProxyOption(options['trust-proxy']);
  const healthToken = secretOption(options, 'health-token', 'PLANNER_HEALTH_TOKEN');
  if (healthToken !== undefined && healthToken.length < minHealthTokenLength)
    throw new ArgsError(`the health token must be at least ${minHealthTokenLength} characters`);
  const folder = resolve(options['data-dir']);
  // Before anything is opened: a refused second server must not touch the databases.
  const lock = DataDirLock.acquire(folder, 'server');
  let dataDir: DataDir;
  try {
    dataDir = openDataFolder(folder);
  } catch (error) {
    lock.release();
    throw error;
  }
  let team: { pool: PostgresPool; system: PostgresSystemStore; notices: ChangeNotices } | undefined;
  try {
    if (databaseUrl !== undefined) {
      // Migrated here, under the database's advisory lock, when this node is the first of a newer version.
      const pool = await openPostgresDatabase(databaseUrl, serverMigrations);
      // Every node's changes, for the live channel of the replicas streaming from this one.
      const notices = await ChangeNotices.listen(databaseUrl).catch(async (error: unknown) => {
        await pool.end();
        throw error;
      });
      team = { pool, system: new PostgresSystemStore(pool), notices };
    }
    // The environments and keys are the team database's, when there is one.
    const system = team?.system ?? dataDir.system;
    if (typeof envName === 'string' && typeof apiKey === 'string') {
      const environment = await system.ensureEnvironment(envName);
      await system.ensureApiKey(environment.id, apiKey, 'cli');
    } else if ((await system.listEnvironments()).length === 0) {
      // A fresh server must be usable at once: make an environment and show its key once.
      const environment = await system.createEnvironment('default');
      const { key } = await system.addApiKey(environment.id, undefined, 'first-start');
      console.log(`Created environment "default" with API key ${key}`);
      console.log('Send them as x-api-env and x-api-key. The key is stored hashed and will not be shown again.');
    }
  } catch (error) {
    await team?.notices.close().catch(() => undefined);
    await team?.pool.end().catch(() => undefined);
    dataDir.close();
    lock.release();
    throw error;
  }
  let sync: SyncClient | undefined;
  let stopping = false;
  const app = await buildApi({
    dataDir,
    logger: options.log === true,
    role: remote ? 'local' : 'remote',
    sync: () => sync,
    allowPrivateWebhookTargets: options['allow-private-webhooks'] === true,
    ...(trustedProxies ? { trustedProxies } : {}),
    ...(syncRetention !== undefined ? { syncRetention } : {}),
    ...(healthToken !== undefined
      ? { health: { token: healthToken, problems: () => readinessProblems(dataDir, team?.pool, stopping) } }
      : {}),
    ...(team
      ? {
          teamDatabase: {
            system: team.system,
            pool: team.pool,
            recordsOf: teamRecordStores(team.pool, { notices: team.notices }),
          },
        }
      : {}),
  });
  // The floor view for operators' phones (docs/API.md "The floor"), from this checkout's build.
  registerFloorPage(app, builtRendererDir());
  if (typeof remote === 'string' && typeof envName === 'string') {
    const environment = dataDir.system.findEnvironment(envName)!;
    sync = startReplicaSync({
      dataDir,
      environmentId: environment.id,
      vault: new MemoryVault({
        remote_url: remote,
        api_env: options['remote-api-env'] as string,
        api_key: remoteApiKey!,
        ...(options['allow-insecure-remote'] === true ? { allow_insecure_http: true } : {}),
      }),
      ...(syncInterval !== undefined
        ? {
            timing: {
              pullIntervalMs: syncInterval,
              pushDelayMs: Math.min(500, syncInterval),
              maxBackoffMs: Math.max(1000, syncInterval * 4),
            },
          }
        : {}),
    });
  }
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    try {
      await sync?.stop();
      await app.close();
      await team?.notices.close();
      await team?.pool.end();
    } finally {
      dataDir.close();
      lock.release();
      console.log(`Stopped (${signal}); databases closed.`);
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ host, port });
  if (trustedProxies) console.log(`Trusting X-Forwarded-For from ${trustedProxies.entries.join(', ')}.`);
  if (!trustedProxies) noticeUntrustedProxy(app.server);
  const address = app.server.address();
  const actualPort = address && typeof address === 'object' ? address.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  console.log(`Planning API listening on http://${shownHost}:${actualPort}${team ? ' (records in PostgreSQL)' : ''}`);
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
    console.log(`Warning: bound to ${host}, so other machines can reach this server.`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ArgsError) {
    console.error(`${error.message}\n${usage}`);
    process.exit(2);
  }
  if (error instanceof DatabaseOpenError) {
    // Which file, what is wrong, where earlier data is kept, and the way back (recovery.ts).
    console.error(describeRecovery(recoveryFacts(error), serverRecoveryAdvice(error)));
    process.exit(1);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
