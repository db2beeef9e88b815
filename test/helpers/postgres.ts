/**
 * A throwaway PostgreSQL cluster for the team-server store tests (docs/architecture.md "Team
 * server on PostgreSQL"): `initdb` into a fresh temp folder, `pg_ctl start` on 127.0.0.1 only,
 * and `stop()` removes it all. Debian keeps the binaries in /usr/lib/postgresql/<version>/bin,
 * off PATH; `.ci/run` and `npm test` install the package when it is missing.
 *
 * When PostgreSQL is not installed the start throws, so the suite fails with the reason and
 * how to fix it: a store test that cannot run is never counted as skipped.
 *
 * initdb and pg_ctl refuse to run as root; as root (CI) the folder is handed to the `postgres`
 * user, which Debian's package creates, and both run as that user through `runuser`.
 *
 * `startTeamDatabase` is the setup most store tests share: a cluster, one migrated database
 * and a pool per node on it, and one `stop()` for all of it.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { appendFileSync, chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ensureEnvironmentSchema } from '../../electron/store/postgres/environment-schemas.js';
import { environmentMigrations, serverMigrations } from '../../electron/store/postgres/migrations.js';
import { openPostgresDatabase, type PostgresPool } from '../../electron/store/postgres/postgres-database.js';
import { freePort } from './ports.js';

export interface PostgresCluster {
  /** `postgres://` URL of the superuser on the cluster's `postgres` database. */
  url: string;
  /** Creates a fresh database and answers its URL (same superuser). */
  database(name: string): Promise<string>;
  /** Stops the cluster at once (`pg_ctl stop -m immediate`) and removes its folder. */
  stop(): Promise<void>;
}

const debianRoot = '/usr/lib/postgresql';
const startTimeoutMs = 30_000;
const superuser = 'planner';

/** The newest installed version's bin folder, or an Error that says how to install one. */
export function postgresBinaries(): string {
  const versions = existsSync(debianRoot)
    ? readdirSync(debianRoot)
        .filter(
          (v) => /^\d+$/.test(v) && existsSync(join(debianRoot, v, 'bin', 'initdb')) && existsSync(join(debianRoot, v, 'bin', 'pg_ctl')),
        )
        .sort((a, b) => Number(b) - Number(a))
    : [];
  if (versions.length === 0) {
    throw new Error(
      `PostgreSQL is not installed: no initdb and pg_ctl under ${debianRoot}/<version>/bin. ` +
        'The PostgreSQL store tests need them: install it with "sudo apt-get install -y postgresql" (Debian/Ubuntu), or run .ci/run, which does.',
    );
  }
  return join(debianRoot, versions[0]!, 'bin');
}

function isRoot(): boolean {
  return typeof process.getuid === 'function' && process.getuid() === 0;
}

/** The uid and gid of the `postgres` user, from /etc/passwd. */
function postgresUser(): { uid: number; gid: number } {
  const line = readFileSync('/etc/passwd', 'utf8')
    .split('\n')
    .find((l) => l.startsWith('postgres:'));
  const [, , uid, gid] = line?.split(':') ?? [];
  if (uid === undefined || gid === undefined) {
    throw new Error(
      'The tests run as root, and initdb refuses root: a "postgres" user is needed (Debian\'s postgresql package creates it).',
    );
  }
  return { uid: Number(uid), gid: Number(gid) };
}

/**
 * Runs a PostgreSQL program, bounded in time; rejects with its output. The server's programs
 * (initdb, pg_ctl) run as `postgres` when root; client programs run as whoever runs the tests.
 */
function runProgram(program: string, args: string[], timeoutMs: number, asServer = true): Promise<void> {
  const [command, commandArgs] = asServer && isRoot() ? ['runuser', ['-u', 'postgres', '--', program, ...args]] : [program, args];
  return new Promise((resolve, reject) => {
    // stdin ignored and output piped; `pg_ctl start -l` sends the server's own output to the log
    // file, so the exit of pg_ctl (not the close of the pipes) is what to wait for.
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (c) => (output += c));
    child.stderr.on('data', (c) => (output += c));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${program} ${args.join(' ')} failed (${signal ?? `exit ${code}`}):\n${output}`));
    });
  });
}

/** Runs one of PostgreSQL's client programs (pg_dump, pg_restore …) from the installed version, within two minutes. */
export function runPostgresTool(name: string, args: string[]): Promise<void> {
  return runProgram(join(postgresBinaries(), name), args, 120_000, false);
}

/**
 * A throwaway cluster in a temp folder. `durable`: with fsync and synchronous commits, as a
 * team server runs, for a benchmark that compares it with SQLite's synchronous=FULL; tests go
 * without, since a cluster that is thrown away gains nothing from them but time.
 */
export async function startPostgres(options: { durable?: boolean } = {}): Promise<PostgresCluster> {
  const bin = postgresBinaries();
  const owner = isRoot() ? postgresUser() : undefined;
  const folder = mkdtempSync(join(tmpdir(), 'planner-pg-'));
  const data = join(folder, 'data');
  const log = join(folder, 'server.log');
  const password = randomBytes(18).toString('hex');
  const pwfile = join(folder, 'pwfile');
  writeFileSync(pwfile, `${password}\n`, { mode: 0o600 });
  if (owner) {
    chownSync(folder, owner.uid, owner.gid);
    chownSync(pwfile, owner.uid, owner.gid);
  }
  const pgCtl = join(bin, 'pg_ctl');
  let started = false;
  // A test process that is killed (a timeout, Ctrl-C) never reaches its afterAll, and the
  // server would run on: a watchdog stops it and removes the folder once this process is gone.
  // (mkdtemp names and Debian's paths have no quotes or spaces.)
  const asOwner = isRoot() ? 'runuser -u postgres -- ' : '';
  const watchdog = spawn(
    'sh',
    [
      '-c',
      `while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; ` +
        `${asOwner}'${pgCtl}' -D '${data}' stop -m immediate >/dev/null 2>&1; rm -rf '${folder}'`,
    ],
    { detached: true, stdio: 'ignore' },
  );
  watchdog.unref();
  const stop = async () => {
    watchdog.kill();
    try {
      if (started) await runProgram(pgCtl, ['-D', data, 'stop', '-m', 'immediate', '-w', '-t', '30'], 40_000);
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  };
  try {
    await runProgram(
      join(bin, 'initdb'),
      ['-D', data, '-U', superuser, `--pwfile=${pwfile}`, '--auth=scram-sha-256', '--encoding=UTF8', '--no-locale', '--no-sync'],
      startTimeoutMs,
    );
    const port = await freePort();
    // Only 127.0.0.1, the socket inside the temp folder (never the system's /var/run/postgresql),
    // and no fsync unless durable: a test cluster is thrown away, so durability buys nothing but time.
    appendFileSync(
      join(data, 'postgresql.conf'),
      [
        "listen_addresses = '127.0.0.1'",
        `port = ${port}`,
        `unix_socket_directories = '${folder}'`,
        ...(options.durable ? [] : ['fsync = off', 'synchronous_commit = off', 'full_page_writes = off']),
        '',
      ].join('\n'),
    );
    started = true;
    await runProgram(pgCtl, ['-D', data, '-l', log, '-w', '-t', String(startTimeoutMs / 1000), 'start'], startTimeoutMs + 5_000);
    const url = `postgres://${superuser}:${password}@127.0.0.1:${port}/postgres`;
    return {
      url,
      async database(name) {
        if (!/^[a-z][a-z0-9_]*$/.test(name)) throw new Error(`not a plain database name: ${name}`);
        const client = new pg.Client({ connectionString: url });
        await client.connect();
        try {
          await client.query(`CREATE DATABASE ${name}`);
        } finally {
          await client.end();
        }
        return `postgres://${superuser}:${password}@127.0.0.1:${port}/${name}`;
      },
      stop,
    };
  } catch (error) {
    const serverLog = existsSync(log) ? readFileSync(log, 'utf8').slice(-2_000) : '';
    await stop().catch(() => undefined);
    throw serverLog ? new Error(`${(error as Error).message}\nserver log:\n${serverLog}`) : error;
  }
}

/** `N` pools as a tuple of that length, so a test reads `nodes[1]` without a check. */
type Pools<N extends number, Acc extends PostgresPool[] = []> = number extends N
  ? PostgresPool[]
  : Acc['length'] extends N
    ? Acc
    : Pools<N, [...Acc, PostgresPool]>;

export interface TeamDatabase<N extends number = 2> {
  /** The cluster, for a test that needs another database or the superuser's own. */
  cluster: PostgresCluster;
  /** The database's URL, for a test's own pools and listeners. */
  url: string;
  /** One pool per node, each of which ran the server migrations on the database. */
  nodes: Pools<N>;
  /**
   * Ends every node's pool (skipping one a test ended already) and then stops the cluster,
   * also when ending a pool failed; a second call answers the first call's promise.
   */
  stop(): Promise<void>;
}

/**
 * The team server's database as the store tests share it: a fresh cluster, the database `name`
 * on it, `nodes` pools (2 unless told) that each open it with the server migrations, one after
 * the other as nodes that start in turn, and the `environments` ensured through the first pool.
 *
 * A start that fails half way ends what it opened and stops the cluster before it throws, so
 * an afterAll's `team?.stop()` has nothing to do and the start's own error is the one reported
 * (with no PostgreSQL installed, startPostgres's message on how to install it).
 */
export async function startTeamDatabase<N extends number = 2>(
  name: string,
  options: { nodes?: N; environments?: readonly string[]; durable?: boolean } = {},
): Promise<TeamDatabase<N>> {
  const count = options.nodes ?? 2;
  const environments = options.environments ?? [];
  if (environments.length > 0 && count < 1) throw new Error('environments are ensured through a node: ask for one at least');
  const cluster = await startPostgres({ durable: options.durable ?? false });
  const pools: PostgresPool[] = [];
  let stopping: Promise<void> | undefined;
  const stop = () =>
    (stopping ??= (async () => {
      try {
        // A pool ended twice rejects; one the test already ended (or is ending) is left alone.
        const ended = await Promise.allSettled(pools.filter((pool) => !pool.ending).map((pool) => pool.end()));
        const failed = ended.find((result) => result.status === 'rejected');
        if (failed) throw failed.reason;
      } finally {
        await cluster.stop();
      }
    })());
  try {
    const url = await cluster.database(name);
    for (let i = 0; i < count; i++) pools.push(await openPostgresDatabase(url, serverMigrations));
    for (const environmentId of environments) await ensureEnvironmentSchema(pools[0]!, environmentId, environmentMigrations);
    return { cluster, url, nodes: pools as Pools<N>, stop };
  } catch (error) {
    await stop().catch(() => undefined);
    throw error;
  }
}
