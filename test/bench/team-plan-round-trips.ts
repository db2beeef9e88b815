/**
 * Benchmark: round trips to PostgreSQL for planning one collection on a team server
 * (docs/architecture.md "Team server on PostgreSQL"). Each trip waits on the database, and on a
 * team server the database is often another machine: the trips, not the rows, set how long a
 * plan takes there. Budget: at most 5 round trips per plan (the median over the rounds).
 *
 * One API node in this process on a throwaway cluster (test/helpers/team-nodes.ts), real HTTP on
 * 127.0.0.1. A board of four stages (Saw, Weld, Paint, Assemble), one person on each, and an
 * order of four activities of a day each. Each round plans it from Monday 1 March 2027, once
 * as the board's default (infinite) and once finite, and puts it back in the backlog. A round
 * trip is one call of the driver's `query` (pg sends one statement, or one batch of statements
 * without parameters, and waits for its answer), counted while the plan request runs. The
 * statements of the last finite plan are printed by kind, as where to look.
 *
 *   npx tsx test/bench/team-plan-round-trips.ts
 */
import pg from 'pg';
import { performance } from 'node:perf_hooks';
import { benchSize } from '../helpers/bench-size.js';
import { percentile } from '../helpers/bench-seed.js';
import { call } from '../helpers/instance.js';
import { startKeyedTeam, type KeyedTeam } from '../helpers/team-nodes.js';

// A smoke run (bench-size.ts) plans twice each way.
const rounds = benchSize(10, 2);
const budget = 5;
const monday = '2027-03-01';
const stages = ['Saw', 'Weld', 'Paint', 'Assemble'] as const;

// The statements sent while counting, by the text of each (its first words are its kind).
let counting: string[] | undefined;
const query = pg.Client.prototype.query;
// Counts every query of every client of the pools in this process, then sends it as it was.
pg.Client.prototype.query = function (this: pg.Client, ...args: unknown[]) {
  const first = args[0];
  counting?.push(typeof first === 'string' ? first : ((first as { text?: string } | undefined)?.text ?? 'query'));
  // The original method, with the arguments it was given.
  return (query as (...a: unknown[]) => unknown).apply(this, args);
} as typeof pg.Client.prototype.query;

async function ok(keyed: KeyedTeam, method: string, path: string, body?: unknown): Promise<any> {
  const answer = await call(keyed.nodes.urls[0]!, method, path, keyed.headers, body);
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

/** The first words of a statement, without its names and values: SELECT … FROM "card", INSERT INTO "card", … */
function kindOf(statement: string): string {
  const text = statement.replace(/\s+/g, ' ').trim();
  const table = /\b(?:FROM|INTO|UPDATE)\s+("?[\w.]+"?)/i.exec(text)?.[1] ?? '';
  return `${text.split(' ')[0]!.toUpperCase()} ${table}`.trim();
}

const keyed = await startKeyedTeam('bench_plan_trips', 'bench', 'bench-plan-trips-key-1234');
try {
  const activities: string[] = [];
  for (const name of stages)
    activities.push((await ok(keyed, 'POST', '/v1/activity', { description: name, resource_type: 'employee' })).id);
  const board = await ok(keyed, 'POST', '/v1/board?with=stages', {
    name: 'Workshop',
    workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false },
    statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
    stages: stages.map((name, i) => ({ name, priority: i, activities: [{ id: activities[i], priority: 0 }] })),
  });
  for (const [i, name] of stages.entries()) {
    await ok(keyed, 'POST', '/v1/resource', {
      name: `${name} operator`,
      workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null },
      boards: [{ id: board.id, active: true, stages: [{ id: board.stages[i].id, percentage: 100, active: true }] }],
    });
  }
  const order = await ok(keyed, 'POST', '/v1/collection', {
    name: 'SO-1001',
    board_id: board.id,
    activities: activities.map((id) => ({ id, time: 480 })),
  });

  const trips: Record<'infinite' | 'finite', number[]> = { infinite: [], finite: [] };
  const ms: Record<'infinite' | 'finite', number[]> = { infinite: [], finite: [] };
  let lastFinite: string[] = [];
  for (let round = 0; round < rounds; round++) {
    for (const capacity of ['infinite', 'finite'] as const) {
      counting = [];
      const started = performance.now();
      const plan = await ok(keyed, 'POST', `/v1/collection/${order.id}/board/${board.id}`, {
        start: monday,
        ...(capacity === 'finite' ? { capacity } : {}),
      });
      ms[capacity].push(performance.now() - started);
      trips[capacity].push(counting.length);
      if (capacity === 'finite') lastFinite = counting;
      counting = undefined;
      if (plan.cards.length !== stages.length) throw new Error(`the plan made ${plan.cards.length} cards, not ${stages.length}`);
      await ok(keyed, 'POST', `/v1/collection/${order.id}/backlog`);
    }
  }

  console.log(
    `Round trips to PostgreSQL per plan: an order of ${stages.length} stages, ${rounds} rounds each way, node ${process.version}`,
  );
  for (const capacity of ['infinite', 'finite'] as const) {
    const sorted = [...trips[capacity]].sort((a, b) => a - b);
    const median = percentile(sorted, 0.5);
    console.log(
      `${capacity.padEnd(8)}: median ${median} round trips (min ${sorted[0]}, max ${sorted.at(-1)}), ` +
        `plan p50 ${percentile(
          [...ms[capacity]].sort((a, b) => a - b),
          0.5,
        ).toFixed(1)} ms   ` +
        `budget <= ${budget}: ${median <= budget ? 'PASS' : 'OVER BUDGET'}`,
    );
  }
  const kinds = new Map<string, number>();
  for (const statement of lastFinite) kinds.set(kindOf(statement), (kinds.get(kindOf(statement)) ?? 0) + 1);
  console.log('\nThe last finite plan, by statement:');
  for (const [kind, count] of [...kinds].sort((a, b) => b[1] - a[1])) console.log(`  ${String(count).padStart(4)}  ${kind}`);
} finally {
  pg.Client.prototype.query = query;
  await keyed.stop();
}
