import { defineConfig } from '@playwright/test';

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
  // On CI one retry, so a spec that a busy two-core machine slows past a wait does not sink
  // the run; Playwright reports such a spec as flaky, and the run's log names it.
  retries: process.env.CI ? 1 : 0,
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
    trace: 'retain-on-failure',
  },
});
