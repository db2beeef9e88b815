/**
 * What end-to-end specs do on a running app's page again and again: call the Planning API
 * through the page's bridge (as another client of the same local instance would), open a
 * screen from the navigation, connect to a remote on the Sync screen, and name the days a
 * planboard shows the way its cards read them out.
 */
import { expect, type Page } from '@playwright/test';

/** A call to the local Planning API through the page's bridge; answers status and body. */
export async function bridgeCall(page: Page, method: string, path: string, body?: unknown, query?: Record<string, string>): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async (request) => {
      const response = await fetch('/bridge/request', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-planner-bridge': '1' },
        body: JSON.stringify(request),
      });
      return response.json();
    },
    { method, path, ...(body === undefined ? {} : { body }), ...(query === undefined ? {} : { query }) },
  );
}

/** The same call for setup steps that must work: throws with the API's answer when it does not. */
export async function bridgeApi(page: Page, method: string, path: string, body?: unknown, query?: Record<string, string>): Promise<any> {
  const answer = await bridgeCall(page, method, path, body, query);
  if (answer.status >= 400) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function openScreen(page: Page, name: string): Promise<void> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name, exact: true }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
}

/** Connects the app to a remote with an API key, on the Sync screen, and waits until it is online. */
export async function connectOnSyncScreen(page: Page, remote: { url: string; env: string; key: string }): Promise<void> {
  await openScreen(page, 'Sync');
  await page.getByLabel('Remote address').fill(remote.url);
  await page.getByLabel('Environment').fill(remote.env);
  await page.getByLabel('API key').fill(remote.key);
  await page.getByRole('button', { name: 'Connect' }).click();
  await expect(page.getByText('Saved. Sync starts at once.')).toBeVisible();
  await expect(page.getByTestId('sync-state')).toHaveText('Online', { timeout: 15_000 });
}

/** The next Monday after today (local time): a workday inside the first screen of a board. */
export function nextMonday(): string {
  const date = new Date();
  date.setDate(date.getDate() + (((8 - date.getDay()) % 7) || 7));
  return isoDate(date);
}

export function isoDate(date: Date): string {
  return `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`;
}

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T12:00:00`);
  d.setDate(d.getDate() + days);
  return isoDate(d);
}

/** "Mon 30 Nov 2026", as a card reads its dates out. */
export function longDate(date: string): string {
  const d = new Date(`${date}T12:00:00`);
  const day = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'][d.getDay()];
  const month = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'][d.getMonth()];
  return `${day} ${d.getDate()} ${month} ${d.getFullYear()}`;
}
