/**
 * The headless Planning API: the remote instance that desktop apps sync with, and the server
 * tests start as a real second process.
 *
 *   npm run server -- --port P --data-dir D [--host H] [--api-env E --api-key K]
 *
 * It binds 127.0.0.1 unless --host says otherwise, prints a line with its URL once it accepts
 * requests, and closes the databases on SIGINT/SIGTERM.
 */
import { resolve } from 'node:path';
import { buildApi } from '../api/app.js';
import { DataDir } from '../store/data-dir.js';
import { ArgsError, parseArgs, portOption } from './cli-args.js';

const usage = `Usage: npm run server -- --data-dir DIR [--port 4010] [--host 127.0.0.1] [--api-env ENV --api-key KEY] [--log]`;

async function main(argv: string[]): Promise<void> {
  const { options } = parseArgs(argv, { values: ['port', 'data-dir', 'host', 'api-env', 'api-key'], flags: ['log', 'help'] });
  if (options.help) {
    console.log(usage);
    return;
  }
  if (typeof options['data-dir'] !== 'string') throw new ArgsError('--data-dir is required');
  const port = portOption(options.port, 4010);
  const host = typeof options.host === 'string' ? options.host : '127.0.0.1';
  const envName = options['api-env'];
  const apiKey = options['api-key'];
  if ((envName === undefined) !== (apiKey === undefined)) throw new ArgsError('--api-env and --api-key go together');

  const dataDir = DataDir.open(resolve(options['data-dir']));
  try {
    if (typeof envName === 'string' && typeof apiKey === 'string') {
      const environment = dataDir.system.ensureEnvironment(envName);
      dataDir.system.ensureApiKey(environment.id, apiKey, 'cli');
    } else if (dataDir.system.listEnvironments().length === 0) {
      // A fresh server must be usable at once: make an environment and show its key once.
      const environment = dataDir.system.createEnvironment('default');
      const { key } = dataDir.system.addApiKey(environment.id, undefined, 'first-start');
      console.log(`Created environment "default" with API key ${key}`);
      console.log('Send them as x-api-env and x-api-key. The key is stored hashed and will not be shown again.');
    }
  } catch (error) {
    dataDir.close();
    throw error;
  }

  const app = await buildApi({ dataDir, logger: options.log === true });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    try {
      await app.close();
    } finally {
      dataDir.close();
      console.log(`Stopped (${signal}); databases closed.`);
      process.exit(0);
    }
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ host, port });
  const address = app.server.address();
  const actualPort = address && typeof address === 'object' ? address.port : port;
  const shownHost = host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  console.log(`Planning API listening on http://${shownHost}:${actualPort}`);
  if (host !== '127.0.0.1' && host !== 'localhost' && host !== '::1') {
    console.log(`Warning: bound to ${host}, so other machines can reach this server.`);
  }
}

main(process.argv.slice(2)).catch((error: unknown) => {
  if (error instanceof ArgsError) {
    console.error(`${error.message}\n${usage}`);
    process.exit(2);
  }
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
