/**
 * What end-to-end specs do on a running app's page again and again: call the Planning API
 * through the page's bridge (as another client of the same local instance would), open a
 * screen from the main menu, switch the app to Dutch, and connect to a remote on the Sync
 * screen.
 */
import { expect, type Locator, type Page } from '@playwright/test';

/**
 * A call to the local Planning API through the page's bridge; answers status and body. With
 * `scenario`, the call runs in that scenario, as the app's calls do while one is open.
 */
export async function bridgeCall(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
  query?: Record<string, string>,
  scenario?: string,
): Promise<{ status: number; body: any }> {
  return page.evaluate(
    async (request) => {
      const response = await fetch('/bridge/request', {
        method: 'POST',
        // The page key the app keeps from the address it was opened with (renderer/api/page-key.ts).
        headers: {
          'content-type': 'application/json',
          'x-planner-bridge': '1',
          'x-planner-page-key': localStorage.getItem('planner.pageKey') ?? '',
        },
        body: JSON.stringify(request),
      });
      return response.json();
    },
    {
      method,
      path,
      ...(body === undefined ? {} : { body }),
      ...(query === undefined ? {} : { query }),
      ...(scenario === undefined ? {} : { scenario }),
    },
  );
}

/** The same call for steps that must work: throws with the API's answer when it does not. */
export async function bridgeApi(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
  query?: Record<string, string>,
  scenario?: string,
): Promise<any> {
  const answer = await bridgeCall(page, method, path, body, query, scenario);
  // The host answers a bridged call with {status, headers, body}; any other shape is the host
  // refusing the call itself (no page key, no session), which the answer says.
  if (typeof answer?.status !== 'number' || answer.status >= 400)
    throw new Error(`${method} ${path}: ${answer?.status} ${JSON.stringify(answer?.body ?? answer)}`);
  return answer.body;
}

/** A card as the API has it, found by its name, with its stage. */
export async function cardOnServer(
  page: Page,
  name: string,
): Promise<{ id: string; collection_id: string; start_date: string; end_date: string; stage: { name: string } }> {
  return (await bridgeApi(page, 'GET', '/v1/card', undefined, { filter: `name:eq:'${name}'`, with: 'stage' })).data[0];
}

/** The main menu between the screens; the app has no other navigation, so any language finds it. */
export function mainMenu(page: Page): Locator {
  return page.getByRole('navigation');
}

/** Opens a screen from the main menu and waits for its heading, which carries the menu's word. */
export async function openScreen(page: Page, name: string): Promise<void> {
  await mainMenu(page).getByRole('button', { name, exact: true }).click();
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
}

/** From English: Nederlands chosen as the app's language in Settings. */
export async function switchToDutch(page: Page): Promise<void> {
  await mainMenu(page).getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByLabel('Language of the app').selectOption({ label: 'Nederlands' });
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
