/**
 * Administration commands of the headless server, run instead of starting it:
 *
 *   npm run server -- user add (--data-dir D | --database URL) --api-env E --email X --password P --role admin [--firstname F] [--lastname L]
 *   npm run server -- client add (--data-dir D | --database URL) --name N --redirect-uri U [--redirect-uri U2 …] [--public] [--api-env E]
 *
 * `user add` creates an active user who can sign in through OAuth (the environment is created
 * when it does not exist yet). `client add` registers an OAuth client and prints its client_id
 * and, for a confidential client, its secret: once, as it is stored only as a digest. Without
 * --api-env the client works for every environment of the instance.
 *
 * They write a data folder's SQLite files, or with --database (or PLANNER_DATABASE_URL) a team
 * server's PostgreSQL database, which every node then serves (docs/deployment.md "On PostgreSQL").
 */
import { resolve } from 'node:path';
import { addClient } from '../api/oauth/clients.js';
import { createUserWithPassword } from '../api/oauth/users.js';
import { ApiError } from '../api/errors.js';
import { redirectUriProblem } from '../../shared/resources/oauth-client.js';
import { openDataFolder } from './data-folder.js';
import { ArgsError, databaseOption, parseArgs } from './cli-args.js';
import { requestContext, type Caller, type RequestContext } from '../api/resource.js';
import type { Environment } from '../store/system.js';
import { OAuthStore, sqliteOAuthState, type OAuthState } from '../store/oauth-store.js';
import { openPostgresDatabase } from '../store/postgres/postgres-database.js';
import { serverMigrations } from '../store/postgres/migrations.js';
import { PostgresSystemStore } from '../store/postgres/system-store.js';
import { PostgresOAuthStore } from '../store/postgres/oauth-state.js';
import { teamRecordStores } from '../api/team-records.js';
import { recordsOf as sqliteRecordsOf } from '../store/record-store.js';

export const adminUsage = `       npm run server -- user add (--data-dir DIR | --database URL) --api-env ENV --email EMAIL --password PASSWORD --role ROLE [--firstname F] [--lastname L]
       npm run server -- client add (--data-dir DIR | --database URL) --name NAME --redirect-uri URI [--redirect-uri URI …] [--public] [--api-env ENV]`;

export function isAdminCommand(argv: readonly string[]): boolean {
  return argv[0] === 'user' || argv[0] === 'client';
}

function text(options: Record<string, string | true>, name: string): string {
  const value = options[name];
  if (typeof value !== 'string' || value === '') throw new ArgsError(`--${name} is required`);
  return value;
}

/** Takes every `--redirect-uri` out of argv (the general parser keeps only the last of a name). */
function takeRepeated(argv: readonly string[], name: string): { values: string[]; rest: string[] } {
  const values: string[] = [];
  const rest: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === `--${name}`) {
      const value = argv[++i];
      if (value === undefined) throw new ArgsError(`--${name} needs a value`);
      values.push(value);
    } else if (arg.startsWith(`--${name}=`)) values.push(arg.slice(name.length + 3));
    else rest.push(arg);
  }
  return { values, rest };
}

function describe(error: unknown): Error {
  if (error instanceof ApiError) return new Error(error.items.map((i) => i.description).join('; '));
  return error instanceof Error ? error : new Error(String(error));
}

/** Where a command writes: a data folder's SQLite files, or a team database (see the file head). */
interface AdminTarget {
  ensureEnvironment(name: string): Promise<Environment>;
  findEnvironment(name: string): Promise<Environment | undefined>;
  oauth: OAuthState;
  /** A request context of the CLI on the environment's records. */
  contextOf(environment: Environment): RequestContext;
  close(): Promise<void>;
}

async function openTarget(options: Record<string, string | true>): Promise<AdminTarget> {
  const caller = (environment: Environment): Caller => ({ kind: 'api-key', environment, keyId: 'cli' });
  const url = databaseOption(options.database);
  if (url !== undefined) {
    if (options['data-dir'] !== undefined) throw new ArgsError('give --data-dir or --database, not both');
    // Migrated first, under the advisory lock, as a node's start does; a newer database refuses.
    const pool = await openPostgresDatabase(url, serverMigrations);
    const system = new PostgresSystemStore(pool);
    const recordsOf = teamRecordStores(pool);
    return {
      ensureEnvironment: (name) => system.ensureEnvironment(name),
      findEnvironment: (name) => system.findEnvironment(name),
      oauth: new PostgresOAuthStore(pool),
      contextOf: (environment) => requestContext(caller(environment), recordsOf(environment)),
      close: () => pool.end(),
    };
  }
  const dataDir = openDataFolder(resolve(text(options, 'data-dir')));
  return {
    ensureEnvironment: async (name) => dataDir.system.ensureEnvironment(name),
    findEnvironment: async (name) => dataDir.system.findEnvironment(name),
    oauth: sqliteOAuthState(OAuthStore.of(dataDir.system)),
    contextOf: (environment) => requestContext(caller(environment), sqliteRecordsOf(dataDir.environment(environment.id))),
    close: async () => dataDir.close(),
  };
}

async function addUser(argv: readonly string[]): Promise<void> {
  const { options } = parseArgs(argv, {
    values: ['data-dir', 'database', 'api-env', 'email', 'password', 'role', 'firstname', 'lastname'],
    flags: [],
  });
  const input: Record<string, unknown> = { email: text(options, 'email'), role: text(options, 'role') };
  for (const name of ['firstname', 'lastname']) if (typeof options[name] === 'string') input[name] = options[name];
  const password = text(options, 'password');
  const envName = text(options, 'api-env');
  const target = await openTarget(options);
  try {
    const environment = await target.ensureEnvironment(envName);
    const user = await createUserWithPassword(target.contextOf(environment), input, password).catch((e: unknown) => {
      throw describe(e);
    });
    console.log(
      `Created user ${String(user.email)} (${user.id}, ${String(user.role)}) in environment "${environment.name}"; they can sign in now.`,
    );
  } finally {
    await target.close();
  }
}

async function registerClient(argv: readonly string[]): Promise<void> {
  const { values: redirectUris, rest } = takeRepeated(argv, 'redirect-uri');
  const { options } = parseArgs(rest, { values: ['data-dir', 'database', 'name', 'api-env'], flags: ['public'] });
  const name = text(options, 'name');
  if (name.length > 150) throw new ArgsError('--name may be at most 150 characters');
  if (redirectUris.length === 0) throw new ArgsError('--redirect-uri is required (repeat it for several)');
  for (const uri of redirectUris) {
    const problem = redirectUriProblem(uri);
    if (problem) throw new ArgsError(`--redirect-uri ${uri} ${problem}`);
  }
  const target = await openTarget(options);
  try {
    let environmentId: string | null = null;
    if (options['api-env'] !== undefined) {
      const environment = await target.findEnvironment(text(options, 'api-env'));
      if (!environment) throw new Error(`there is no environment "${String(options['api-env'])}"`);
      environmentId = environment.id;
    }
    const { client, client_secret } = await addClient(target.oauth, {
      name,
      redirect_uris: redirectUris,
      confidential: options.public !== true,
      environment_id: environmentId,
    });
    console.log(`Registered OAuth client "${client.name}" (${client.confidential ? 'confidential' : 'public: PKCE required'})`);
    console.log(`client_id: ${client.id}`);
    if (client_secret) {
      console.log(`client_secret: ${client_secret}`);
      console.log('The secret is stored as a digest and will not be shown again.');
    }
  } finally {
    await target.close();
  }
}

/** Runs `user add` or `client add`; errors in the arguments are ArgsErrors (exit code 2). */
export async function runAdminCommand(argv: readonly string[]): Promise<void> {
  const [noun, verb, ...rest] = argv;
  if (noun === 'user' && verb === 'add') return addUser(rest);
  if (noun === 'client' && verb === 'add') return registerClient(rest);
  throw new ArgsError(`unknown command: ${[noun, verb].filter(Boolean).join(' ')}`);
}
