/**
 * Playwright's `test`, with the run's fixed clock (test/helpers/test-clock.ts): every browser
 * context reads the run's time, in the planners' time zone (playwright.config.ts), as the app
 * processes the specs start do. Specs import `test` and `expect` from here, not from @playwright/test.
 */
import { test as base, type BrowserContext } from '@playwright/test';
import { fixTheClock as fixTheWorkersClock, runNow } from '../helpers/test-clock.js';

export * from '@playwright/test';

// This process writes app data in process too: the app user of a fresh data folder
// (test/e2e/app.ts), backups (recovery.spec.ts). On the machine's clock they would carry the
// machine's time: once the machine's day is later than the run's, a remote on the run's time
// holds such a change back as coming from a clock that runs ahead, and every change after it
// (the replica's pending count never reaches 0). So this process reads the run's time as well.
fixTheWorkersClock();

/** Sets a context's clock to the run's time (test/helpers/test-clock.ts); for contexts a spec makes itself. */
export async function fixTheClock(context: BrowserContext): Promise<void> {
  await context.clock.install({ time: new Date(runNow()) });
}

export const test = base.extend({
  context: async ({ context }, use) => {
    await fixTheClock(context);
    await use(context);
  },
});
