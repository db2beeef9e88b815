import { defineConfig } from 'vitest/config';

/**
 * Suites whose API, once seeded, is read from PostgreSQL in a second run (the `postgres`
 * project: test/helpers/api.ts, `testEngine`): the same tests, parametrized by the engine, not
 * copied (docs/architecture.md "Moving the API onto the boundary"). Until writes are on
 * PostgreSQL, a write in a test goes to SQLite and the next read copies the folder again, so
 * the suites that read most are the ones here; the base-data suites pass this way too but take
 * about four minutes, for copies that writes on PostgreSQL will make unneeded.
 */
const onBothEngines = ['test/api/conventions-filter.test.ts', 'test/api/conventions-shape.test.ts'];

/** What both projects share; each names its own files (an `extends` would add the root's to them). */
const shared = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' } as const;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          ...shared,
          name: 'sqlite',
          include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
          exclude: ['test/e2e/**', 'test/bench/**', 'node_modules/**'],
        },
      },
      { test: { ...shared, name: 'postgres', include: onBothEngines, env: { PLANNER_TEST_ENGINE: 'postgres' } } },
    ],
  },
});
