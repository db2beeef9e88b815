import { defineConfig } from 'vitest/config';
import { hardDays } from './test/helpers/test-clock.js';

/**
 * Suites whose API, once seeded, is served from PostgreSQL in a second run, its reads and its
 * writes (the `postgres` project: test/helpers/api.ts, `testEngine`; a sync suite's remote:
 * test/helpers/sync-inprocess.ts): the same tests,
 * parametrized by the engine, not copied (docs/architecture.md "Tests"). A suite joins once every route its tests use runs on PostgreSQL; one that
 * starts its own APIs (startTestApi) gets them served from PostgreSQL there too.
 */
const onBothEngines = [
  'test/api/conventions-filter.test.ts',
  'test/api/conventions-shape.test.ts',
  'test/api/base-data.board.test.ts',
  'test/api/base-data.resource.test.ts',
  'test/api/base-data.stage-activity.test.ts',
  'test/api/base-data.user.test.ts',
  'test/api/project.test.ts',
  'test/api/order-data.test.ts',
  'test/api/write-fields.test.ts',
  'test/api/schedule-capacity.test.ts',
  'test/api/planner-limits.test.ts',
  'test/api/capacity-by-resource.test.ts',
  'test/api/capacity-non-workdays.test.ts',
  'test/api/stage-workdays.test.ts',
  'test/api/overtime.test.ts',
  'test/api/conventions.property.test.ts',
  'test/api/print-plan.test.ts',
  'test/api/holidays.test.ts',
  'test/api/split-holiday-operations.test.ts',
  'test/api/time-roles.test.ts',
  'test/api/closed-periods.test.ts',
  'test/api/automation-rules.test.ts',
  'test/api/payroll-files.test.ts',
  'test/api/overtime-balance.test.ts',
  'test/api/guest-role.test.ts',
  'test/api/reference-fields.test.ts',
  'test/api/user-permissions.test.ts',
  'test/api/card.test.ts',
  'test/api/floor.test.ts',
  'test/api/floor-sign-in.test.ts',
  'test/api/floor-kiosk.test.ts',
  'test/api/collection-rules.test.ts',
  'test/api/conventions.test.ts',
  'test/api/with-budget.test.ts',
  'test/api/order-data.collection.test.ts',
  // Planning: plans infinite and finite, moves, promise dates, the sample workshop.
  'test/api/planning.table.test.ts',
  'test/api/planning.moves.test.ts',
  'test/api/plan-operations.test.ts',
  'test/api/sample-workshop.test.ts',
  // Material gates the plan: finite, infinite, reverse, promise dates, replan and the read.
  'test/api/material-gate.test.ts',
  // Setup times in capacity, finite planning and promise dates.
  'test/api/setup-times.test.ts',
  // Remaining time: booked and finished work in capacity, finite planning and promise dates.
  'test/api/remaining-time.test.ts',
  'test/api/skills-crews.test.ts',
  // Generated requests to every route: never a 500 on a team server either.
  'test/api/fuzz.test.ts',
  // The exception inbox, worked out from the records on either engine.
  'test/api/exceptions.test.ts',
  // Payroll hour codes: surcharge rules and the split in the time report.
  'test/api/surcharge-rules.test.ts',
  // KPIs with history: figures, snapshots and the date first promised, on either engine.
  'test/api/kpi.test.ts',
  // What each user is notified about: a list on their user record.
  'test/api/notified-exceptions.test.ts',
  // Why late: the binding constraint of each late collection, from capacity on either engine.
  'test/api/why-late.test.ts',
  // What would it take: the plan dialog's dry run offers the overtime, from the same computation.
  'test/api/plan-what-it-takes.test.ts',
  // Second shifts: a resource's second pattern of hours in schedules, capacity, plans and promises.
  'test/api/second-shift.test.ts',
  // Plan scenarios: on a team server, copies of the environment's schema that every node sees.
  'test/api/scenarios.test.ts',
  // Sync against a remote served from PostgreSQL (test/helpers/sync-inprocess.ts): replicas on SQLite.
  'test/sync/groups.test.ts',
  'test/sync/replica-binding.test.ts',
  'test/sync/overruled.test.ts',
  'test/sync/push-operation.test.ts',
  'test/sync/sync.property.test.ts',
  'test/sync/time-entry-rules.test.ts',
  'test/sync/kept-data.test.ts',
  'test/sync/company-holidays.test.ts',
  'test/sync/exception-handling.test.ts',
  'test/sync/automation-rules.test.ts',
  'test/sync/surcharge-rules.test.ts',
  'test/sync/payroll-settings.test.ts',
  'test/sync/closed-periods.test.ts',
  'test/sync/compact-clocks.test.ts',
];

/**
 * Suites whose expectations depend on the day (each calls `fixTheClock()`): the `sqlite` project
 * runs them at the Monday of test/helpers/test-clock.ts, and one project per other hard day runs
 * them again there (docs/architecture.md "Tests", "A fixed clock").
 */
const dependOnTheDay = [
  'test/api/schedule-capacity.test.ts',
  'test/api/planning.table.test.ts',
  'test/api/plan-operations.test.ts',
  'test/api/plan-finite.test.ts',
  'test/api/sample-workshop.test.ts',
  'test/api/board-backlog.test.ts',
  'test/api/holidays.test.ts',
  'test/api/split-holiday-operations.test.ts',
  'test/api/print-plan.test.ts',
  'test/api/read-engines.test.ts',
  'test/api/time-tracking.test.ts',
  'test/api/time-tracking-report.test.ts',
  'test/api/time-entry-rules.test.ts',
  'test/api/time-roles.test.ts',
  'test/api/time-worked-example.test.ts',
  'test/sync/running-timers.test.ts',
  'test/api/exceptions.test.ts',
  'test/sync/time-entry-rules.test.ts',
  'test/sync/exception-handling.test.ts',
  'test/sync/automation-rules.test.ts',
  'test/api/why-late.test.ts',
];

/** The other days those suites run at: a Sunday when summer time ends, and a New Year's Eve in next year's week 1. */
const otherDays = { 'summer-time-ends': hardDays.summerTimeEnds, 'new-years-eve': hardDays.newYearsEve };

/** What all projects share; each names its own files (an `extends` would add the root's to them). */
const shared = { testTimeout: 30_000, hookTimeout: 60_000, pool: 'forks' } as const;

export default defineConfig({
  test: {
    // Two files at once, even on two cores (vitest's default there is one): most suites spend
    // their time waiting on server processes, PostgreSQL and the network, not on the CPU. It
    // takes the whole vitest run from about 17 to about 8 minutes on the CI machines.
    maxWorkers: 2,
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
      ...Object.entries(otherDays).map(([name, now]) => ({
        test: { ...shared, name, include: dependOnTheDay, env: { PLANNER_NOW: now } },
      })),
    ],
  },
});
