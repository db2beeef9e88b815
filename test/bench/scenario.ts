/**
 * Benchmark: plan scenarios on a 5,000-card plan (docs/API.md "Scenarios",
 * docs/decisions/scenarios.md).
 *
 * Builds, through the API on a local replica's data folder, a board with 5 stages and 5,000
 * cards in 200 collections of 25 (1–5 days, one activity each, every collection due). Then,
 * over real HTTP on 127.0.0.1, it times
 *
 *   - making 10 scenarios (`POST /v1/scenario`: a copy of the file), and prints what they cost
 *     on disk beside the environment's file;
 *   - in each of 5 of them, 50 commands (a card moved, each its own PUT), then
 *     `GET /v1/scenario/{id}/compare` (5 reads each) and `POST /v1/scenario/{id}/promote`.
 *
 * Budgets: make ≤ 300 ms, compare ≤ 200 ms, promote of 50 commands ≤ 500 ms, each at p95; the
 * verdict is printed and the script exits 0 either way, non-zero only when something is broken.
 * With `--postgres`, the same on a team server's node on a fresh PostgreSQL cluster (a scenario
 * is a copy of the environment's schema there, docs/decisions/scenarios-on-postgres.md), its
 * sizes those of the schemas' tables with their indexes.
 *
 *   npx tsx test/bench/scenario.ts [--postgres]
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { addDays } from '../../shared/dates.js';
import { environmentSchemaOf, scenarioSchemaOf } from '../../electron/store/postgres/environment-schemas.js';
import { PostgresSystemStore } from '../../electron/store/postgres/system-store.js';
import { startSqliteApi, type TestApi } from '../helpers/api.js';
import { machineLoad, must, percentile, random, runBench, seedStatusAndActivities } from '../helpers/bench-seed.js';
import { benchSize } from '../helpers/bench-size.js';
import { startKeyedTeam } from '../helpers/team-nodes.js';
import { fixTheClock } from '../helpers/test-clock.js';

fixTheClock();

const stageCount = 5;
const cardCount = benchSize(5000, 100);
const cardsPerCollection = 25;
const scenarioCount = benchSize(10, 3);
const promoted = benchSize(5, 2);
const commandsPerScenario = benchSize(50, 5);
const comparesPerScenario = 5;
const budgets = { make: 300, compare: 200, promote: 500 };

interface PlacedCard {
  path: string;
  start_date: string;
  end_date: string;
}

async function seed(api: Pick<TestApi, 'http'>): Promise<PlacedCard[]> {
  const next = random(20270301);
  const board = await must(api, 'POST', '/v1/board?with=stages', {
    name: 'Scenario bench',
    stages: Array.from({ length: stageCount }, (_, i) => ({ name: `Stage ${i + 1}`, priority: i })),
  });
  const stageIds: string[] = board.stages.map((s: { id: string }) => s.id);
  const activities = await seedStatusAndActivities(api, board.id);
  const placed: PlacedCard[] = [];
  const collections = Math.ceil(cardCount / cardsPerCollection);
  for (let c = 0; c < collections; c++) {
    const start = addDays('2027-03-01', Math.floor((c / collections) * 26 * 7));
    const cards = Array.from({ length: cardsPerCollection }, (_, i) => {
      const first = addDays(start, (i % stageCount) * 4);
      return {
        stage_id: stageIds[i % stageCount],
        name: `Part ${c + 1}.${i + 1}`,
        start_date: first,
        end_date: addDays(first, Math.floor(next() * 5)),
        activities: [{ id: activities[Math.floor(next() * activities.length)], time: 60 + Math.floor(next() * 600) }],
      };
    });
    const end = cards.reduce((m, card) => (card.end_date > m ? card.end_date : m), '');
    const collection = await must(api, 'POST', '/v1/collection', {
      name: `Job ${c + 1}`,
      board_id: board.id,
      due_date: addDays(end, Math.floor(next() * 7) - 3),
    });
    const made = await Promise.all(cards.map((card) => must(api, 'POST', `/v1/collection/${collection.id as string}/card`, card)));
    for (const [i, card] of made.entries()) {
      placed.push({ path: `/v1/collection/${collection.id as string}/card/${card.id as string}`, ...cards[i]! });
    }
  }
  return placed;
}

async function timed<T>(run: () => Promise<T>): Promise<[number, T]> {
  const started = performance.now();
  const result = await run();
  return [performance.now() - started, result];
}

function line(name: string, sorted: number[], budget: number): string {
  const p95 = percentile(sorted, 0.95);
  return `${name.padEnd(28)} p50 ${percentile(sorted, 0.5).toFixed(1)} ms  p95 ${p95.toFixed(1)} ms  max ${sorted[sorted.length - 1]!.toFixed(1)} ms  (budget ≤ ${budget} ms)  ${p95 <= budget ? 'PASS' : 'OVER BUDGET'}`;
}

const megabytes = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

function sizeOf(file: string): number {
  let total = 0;
  for (const suffix of ['', '-wal']) {
    try {
      total += statSync(`${file}${suffix}`).size;
    } catch {
      // No WAL file: nothing written since the last checkpoint.
    }
  }
  return total;
}

/** The instance a run times, and the sizes of the live plan and of a scenario's copy on it. */
interface BenchTarget extends Pick<TestApi, 'http'> {
  name: string;
  liveBytes(): Promise<number>;
  scenarioBytes(id: string): Promise<number>;
  close(): Promise<void>;
}

async function onSqlite(): Promise<BenchTarget> {
  const api = await startSqliteApi({ environment: 'bench', api: { role: 'local' } });
  const file = (suffix: string) => join(api.dataDir.path, `env-${api.environment.id}${suffix}.sqlite`);
  return {
    name: 'SQLite data folder, local replica',
    http: api.http,
    liveBytes: async () => sizeOf(file('')),
    scenarioBytes: async (id) => sizeOf(file(`.scenario-${id}`)),
    close: () => api.close(),
  };
}

async function onPostgres(): Promise<BenchTarget> {
  const keyed = await startKeyedTeam('bench', 'bench', 'bench-key-123');
  const pool = keyed.team.nodes[0];
  const environment = (await new PostgresSystemStore(pool).findEnvironment('bench'))!;
  const schemaBytes = async (schema: string) => {
    const { rows } = await pool.query<{ bytes: string }>(
      "SELECT coalesce(sum(pg_total_relation_size(c.oid)), 0)::text AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'",
      [schema],
    );
    return Number(rows[0]!.bytes);
  };
  const url = keyed.nodes.urls[0]!;
  return {
    name: "PostgreSQL team server's node",
    http: async (method, path, body, headers) => {
      const response = await fetch(url + path, {
        method,
        headers: { ...keyed.headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null, headers: response.headers };
    },
    liveBytes: () => schemaBytes(environmentSchemaOf(environment.id).schema),
    scenarioBytes: (id) => schemaBytes(scenarioSchemaOf(id)),
    close: () => keyed.stop(),
  };
}

async function main(): Promise<void> {
  const api = process.argv.includes('--postgres') ? await onPostgres() : await onSqlite();
  try {
    const seedStarted = performance.now();
    const cards = await seed(api);
    console.log(`seeded ${cards.length} cards in ${((performance.now() - seedStarted) / 1000).toFixed(1)} s`);

    const makeMs: number[] = [];
    const ids: string[] = [];
    for (let s = 0; s < scenarioCount; s++) {
      const [ms, made] = await timed(() => must(api, 'POST', '/v1/scenario', { name: `What if ${s + 1}` }));
      makeMs.push(ms);
      ids.push(made.id);
    }
    const scenarioBytes = await Promise.all(ids.map((id) => api.scenarioBytes(id)));

    const compareMs: number[] = [];
    const promoteMs: number[] = [];
    const next = random(7);
    for (let s = 0; s < promoted; s++) {
      const header = { 'x-planner-scenario': ids[s]! };
      for (let m = 0; m < commandsPerScenario; m++) {
        // A card of its own for each move of each scenario: two scenarios moving one card would clash (a 409) when promoted.
        const card = cards[((s * commandsPerScenario + m) * 13) % cards.length]!;
        const days = 1 + Math.floor(next() * 10);
        const res = await api.http(
          'PUT',
          card.path,
          { start_date: addDays(card.start_date, days), end_date: addDays(card.end_date, days) },
          header,
        );
        if (res.status !== 200) throw new Error(`move in scenario answered ${res.status}: ${JSON.stringify(res.body)}`);
      }
      for (let c = 0; c < comparesPerScenario; c++) {
        const [ms, compared] = await timed(() => must(api, 'GET', `/v1/scenario/${ids[s]!}/compare`));
        if (compared.cards.moved.length === 0) throw new Error('the comparison found no moved card');
        compareMs.push(ms);
      }
      const [ms, result] = await timed(() => must(api, 'POST', `/v1/scenario/${ids[s]!}/promote`, {}));
      if (result.changed === 0) throw new Error('the promote wrote nothing');
      promoteMs.push(ms);
    }
    // The figures on disk after the promotes: the scenarios that were written in have grown a little.
    const liveBytes = await api.liveBytes();
    const writtenBytes = await Promise.all(ids.slice(0, promoted).map((id) => api.scenarioBytes(id)));

    for (const list of [makeMs, compareMs, promoteMs]) list.sort((a, b) => a - b);
    console.log(`scenarios of a ${cards.length}-card plan over HTTP on 127.0.0.1 (${api.name})`);
    console.log(line(`make (${makeMs.length}×)`, makeMs, budgets.make));
    console.log(line(`compare (${compareMs.length}×)`, compareMs, budgets.compare));
    console.log(line(`promote ${commandsPerScenario} commands (${promoteMs.length}×)`, promoteMs, budgets.promote));
    console.log(
      `on disk: the environment ${megabytes(liveBytes)}; a new scenario ${megabytes(Math.max(...scenarioBytes))}; ` +
        `after ${commandsPerScenario} commands ${megabytes(Math.max(...writtenBytes))}; ${ids.length} scenarios ${megabytes(
          ids.reduce((sum, _, i) => sum + (i < promoted ? writtenBytes[i]! : scenarioBytes[i]!), 0),
        )}`,
    );
    console.log(machineLoad());
  } finally {
    await api.close();
  }
}

runBench(main);
