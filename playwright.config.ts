import { defineConfig } from '@playwright/test';
import { hardDays, plannersTimeZone } from './test/helpers/test-clock.js';

// The run's fixed day (test/helpers/test-clock.ts): specs, their pages (test/e2e/fixtures.ts)
// and the app and server processes they start (PLANNER_NOW, inherited) all read it, and all
// live in the planners' time zone. `npm test` runs some specs again at other hard days.
process.env.PLANNER_NOW ||= hardDays.monday;
// Anchored to the machine's clock once, when the run starts: every page and process of the run
// then reads one and the same time, however late it starts (electron/host/test-clock.ts).
if (!process.env.PLANNER_NOW.includes('@')) process.env.PLANNER_NOW = `${process.env.PLANNER_NOW}@${Date.now()}`;
process.env.TZ = plannersTimeZone;

/**
 * End-to-end tests drive Debian's Chromium (Playwright's own browser download is not
 * reachable from the build machines). The background-networking flags keep Chromium from
 * calling home on a closed network. Each test starts its own app on a free port.
 */
export default defineConfig({
  testDir: 'test/e2e',
  // The README's screenshots are remade on request (`npm run screenshots`), not in every run.
  testIgnore: process.env.PLANNER_SCREENSHOTS ? [] : ['**/*-screenshots.spec.ts'],
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  // No retries: a spec that passes only on a second try is flaky, and flaky counts as failing
  // (scripts/test.mjs names it). Fix the spec; do not hide it.
  retries: 0,
  outputDir: '.test-output/playwright',
  use: {
    browserName: 'chromium',
    headless: true,
    launchOptions: {
      executablePath: process.env.PLANNER_CHROMIUM ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
    timezoneId: plannersTimeZone,
    trace: 'retain-on-failure',
  },
});
