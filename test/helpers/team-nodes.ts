/**
 * API nodes of a team server in the test's own process (docs/architecture.md "Team server on
 * PostgreSQL"): one per pool of a TeamDatabase (postgres.ts), each with a data folder of its own and real
 * HTTP on 127.0.0.1, so a test can send each request to the node it chooses.
 */
import { rmSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { buildApi, type ApiOptions } from '../../electron/api/app.js';
import { teamRecordStores } from '../../electron/api/team-records.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { PostgresSystemStore } from '../../electron/store/postgres/system-store.js';
import { tempDir } from './api.js';
import type { PostgresPool } from '../../electron/store/postgres/postgres-database.js';
import { startTeamDatabase, type TeamDatabase } from './postgres.js';

export interface TeamNodes {
  /** Each node's base URL, in the order of the database's pools. */
  urls: string[];
  /** Closes every node and removes its data folder. */
  close(): Promise<void>;
}

export async function startTeamNodes(team: { nodes: readonly PostgresPool[] }, options: Partial<ApiOptions> = {}): Promise<TeamNodes> {
  const apps: FastifyInstance[] = [];
  const dataDirs: DataDir[] = [];
  const folders: string[] = [];
  const urls: string[] = [];
  const close = async () => {
    for (const app of apps.splice(0)) await app.close();
    for (const dataDir of dataDirs.splice(0)) dataDir.close();
    for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
  };
  try {
    for (const pool of team.nodes) {
      const folder = tempDir('planner-node-');
      folders.push(folder);
      const dataDir = DataDir.open(folder);
      dataDirs.push(dataDir);
      const app = await buildApi({
        ...options,
        dataDir,
        teamDatabase: { system: new PostgresSystemStore(pool), pool, recordsOf: teamRecordStores(pool) },
      });
      apps.push(app);
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      urls.push(`http://127.0.0.1:${address.port}`);
    }
  } catch (error) {
    await close();
    throw error;
  }
  return { urls, close };
}

/** A team database with `nodes` API nodes (2 unless told) and one environment with its key. */
export interface KeyedTeam {
  team: TeamDatabase;
  nodes: TeamNodes;
  /** The environment's key headers, for every request of the test. */
  headers: { 'x-api-env': string; 'x-api-key': string };
  /** Closes the nodes, then the database. */
  stop(): Promise<void>;
}

/** Starts a team database named `name` with the environment `environment` and its `key`, and its nodes. */
export async function startKeyedTeam(
  name: string,
  environment: string,
  key: string,
  options: Partial<ApiOptions> = {},
): Promise<KeyedTeam> {
  const team = await startTeamDatabase(name);
  try {
    const system = new PostgresSystemStore(team.nodes[0]);
    await system.ensureApiKey((await system.ensureEnvironment(environment)).id, key);
    const nodes = await startTeamNodes(team, options);
    return {
      team,
      nodes,
      headers: { 'x-api-env': environment, 'x-api-key': key },
      async stop() {
        await nodes.close();
        await team.stop();
      },
    };
  } catch (error) {
    await team.stop();
    throw error;
  }
}
