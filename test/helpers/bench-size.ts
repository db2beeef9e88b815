/**
 * The sizes of the benches in test/bench. `npm test` runs every bench once on a small data
 * set (`npx tsx test/bench/run.ts --smoke`, which sets PLANNER_BENCH_SMOKE=1), through the same
 * code as the real run: that catches a bench that broke, which nobody would see until the
 * next `npm run bench`. A smoke run says nothing about speed: the budgets are for
 * `npm run bench`, at the full sizes. This file lives outside test/bench because
 * `npm run bench` runs every script there.
 */

/** True in a smoke run: small sizes, and a budget missed never fails the script. */
export const smokeRun = process.env.PLANNER_BENCH_SMOKE === '1';

/** `full` in a real run, `smoke` in a smoke run. */
export function benchSize<T>(full: T, smoke: T): T {
  return smokeRun ? smoke : full;
}
