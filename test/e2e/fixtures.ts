/**
 * Playwright's `test`, with the run's fixed clock (test/helpers/test-clock.ts): every browser
 * context reads the run's time, in the planners' time zone (playwright.config.ts), as the app
 * processes the specs start do. Specs import `test` and `expect` from here, not from @playwright/test.
 */
import { test as base, type BrowserContext } from '@playwright/test';
import { runNow } from '../helpers/test-clock.js';

export * from '@playwright/test';

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
