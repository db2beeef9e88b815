/**
 * The README's screenshots (docs/screenshots/*.png). Specs retake theirs along the way when
 * PLANNER_SCREENSHOTS is set (`npm run screenshots`); a normal run leaves the files alone.
 */
import { resolve } from 'node:path';
import type { Page, PageScreenshotOptions } from '@playwright/test';

export const screenshotsWanted = Boolean(process.env.PLANNER_SCREENSHOTS);

export function screenshotFile(name: string): string {
  return resolve(import.meta.dirname, '..', '..', 'docs', 'screenshots', name);
}

/** Retakes a README screenshot, in a run that asked for them. */
export async function retakeScreenshot(page: Page, name: string, options: PageScreenshotOptions = {}): Promise<void> {
  if (screenshotsWanted) await page.screenshot({ ...options, path: screenshotFile(name) });
}
