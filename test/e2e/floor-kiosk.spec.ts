/**
 * Kiosk mode of the floor view (docs/API.md "The floor", docs/decisions/kiosk-pins.md) on a
 * tablet, against the headless server as its own process: a planner signs in and turns the
 * tablet into a kiosk for the board; two operators take turns on it, each tapping their name and
 * typing their PIN, starting their own job and tapping "Done"; the API then shows each time entry
 * as its operator's. An operator sets their own PIN on the floor view. Left untouched for 60 s (Playwright's clock, not a wait), the kiosk ends the
 * operator's turn and shows the names again.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './fixtures.js';
import { startFloorServer, workshopBoard, type FloorServer } from './floor-server.js';
import { testToday } from '../helpers/test-clock.js';

const access = { env: 'workshop', key: 'kiosk-spec-key-7c2e9b41d0' };
const secret = 'pass-word-123';

let server: FloorServer | undefined;

test.afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const byKey = (method: string, path: string, body?: unknown) => server!.byKey(method, path, body);

interface Seeded {
  max: { user: string; card: string };
  mia: { user: string; card: string };
}

/** A board with two operators on it, each with today's card and a PIN, and a planner without a resource. */
async function seedWorkshop(): Promise<Seeded> {
  server = await startFloorServer('planner-kiosk-', access);
  const board = await byKey('POST', '/v1/board?with=stages,statuses', workshopBoard('Finished'));
  const activity = await byKey('POST', '/v1/activity', { description: 'Welding', default_duration: 30 });
  const operator = async (name: string, orderCode: string, pin: string) => {
    const resource = await byKey('POST', '/v1/resource', { name, boards: [{ id: board.id, active: true, stages: [] }] });
    const order = await byKey('POST', '/v1/order', { code: orderCode, description: `Frames of ${name}`, board_id: board.id });
    const card = await byKey('POST', `/v1/collection/${order.collection_id}/card`, {
      stage_id: board.stages[0].id,
      start_date: testToday,
      end_date: testToday,
      resources: [{ id: resource.id }],
      activities: [{ id: activity.id, time: 120 }],
    });
    const user = await server!.user({
      email: `${name.toLowerCase()}@example.com`,
      role: 'member',
      password: secret,
      resourceId: resource.id,
      firstname: name,
    });
    await byKey('PUT', `/v1/floor/pin/${user}`, { pin });
    return { user, card: card.id as string };
  };
  const max = await operator('Max', 'SO-1001', '2580');
  const mia = await operator('Mia', 'SO-1002', '135790');
  await server.user({ email: 'pia@example.com', role: 'manager', password: secret });
  return { max, mia };
}

/** The planner signs in on the tablet and makes it the board's kiosk. */
async function makeKiosk(page: Page): Promise<void> {
  await page.setViewportSize({ width: 768, height: 1024 });
  await page.goto(new URL('/floor/', server!.url).toString());
  await expect(page.getByLabel('Environment')).toHaveValue(access.env);
  await page.getByLabel('Email').fill('pia@example.com');
  await page.getByLabel('Password').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const setup = page.getByRole('form', { name: 'Kiosk for a shared tablet' });
  await setup.getByLabel('Board or stage').selectOption({ label: 'Workshop' });
  await setup.getByRole('button', { name: 'Make this tablet a kiosk' }).click();
  await expect(page.getByRole('heading', { name: 'Kiosk: Workshop' })).toBeVisible();
}

/** Serious and critical accessibility violations on the page as it is (as test/e2e/floor.spec.ts counts them). */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} ${node.failureSummary ?? ''}`));
}

const names = (page: Page) => page.getByRole('list', { name: 'Kiosk: Workshop' });

async function openAs(page: Page, name: string, pin: string): Promise<void> {
  await names(page).getByRole('button', { name }).click();
  await page.getByLabel('PIN').fill(pin);
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByText(`Working as ${name}`)).toBeVisible();
}

const jobOf = (page: Page, order: string) =>
  page.getByRole('list', { name: 'My jobs today' }).getByRole('listitem').filter({ hasText: order });

async function timeEntriesOf(card: string): Promise<any[]> {
  return (await byKey('GET', `/v1/time_tracking?filter=${encodeURIComponent(`card_id:eq:${card}`)}&limit=10`)).data;
}

test('two operators on one tablet: each taps their name, types their PIN and starts their own job', async ({ page }) => {
  const seeded = await seedWorkshop();
  await makeKiosk(page);
  await expect(names(page).getByRole('button')).toHaveText(['Max', 'Mia']);
  expect(await seriousViolations(page)).toEqual([]);

  // A wrong PIN opens nothing.
  await names(page).getByRole('button', { name: 'Max' }).click();
  await page.getByLabel('PIN').fill('1111');
  await page.getByRole('button', { name: 'Open' }).click();
  await expect(page.getByRole('alert')).toHaveText('That PIN is not right. Try again.');
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByRole('button', { name: 'Back' }).click();

  await openAs(page, 'Max', '2580');
  await expect(jobOf(page, 'SO-1001')).toHaveCount(1);
  await expect(jobOf(page, 'SO-1002')).toHaveCount(0);
  await jobOf(page, 'SO-1001').getByRole('button', { name: 'Start' }).click();
  await expect(jobOf(page, 'SO-1001').getByText('Running', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(names(page)).toBeVisible();
  await expect(page.getByRole('list', { name: 'My jobs today' })).toHaveCount(0);

  await openAs(page, 'Mia', '135790');
  await expect(jobOf(page, 'SO-1002')).toHaveCount(1);
  await expect(jobOf(page, 'SO-1001')).toHaveCount(0);
  await jobOf(page, 'SO-1002').getByRole('button', { name: 'Start' }).click();
  await expect(jobOf(page, 'SO-1002').getByText('Running', { exact: true })).toBeVisible();
  await page.getByRole('button', { name: 'Done' }).click();
  await expect(names(page)).toBeVisible();

  // Through the API: each time entry is its operator's, both still running.
  const maxEntries = await timeEntriesOf(seeded.max.card);
  const miaEntries = await timeEntriesOf(seeded.mia.card);
  expect(maxEntries.map((entry) => [entry.user_id, entry.end])).toEqual([[seeded.max.user, null]]);
  expect(miaEntries.map((entry) => [entry.user_id, entry.end])).toEqual([[seeded.mia.user, null]]);
});

test('an operator sets their own PIN; untouched for 60 s, the kiosk ends their turn and shows the names again', async ({ page }) => {
  await seedWorkshop();
  // Mia chooses her own PIN on her phone's floor view.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(new URL('/floor/', server!.url).toString());
  await page.getByLabel('Email').fill('mia@example.com');
  await page.getByLabel('Password').fill(secret);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const own = page.getByRole('form', { name: 'My kiosk PIN' });
  await own.getByLabel('New PIN (4 to 6 digits)').fill('246810');
  await own.getByRole('button', { name: 'Save PIN' }).click();
  await expect(own.getByRole('status')).toHaveText('Your PIN is saved. Use it on the kiosk.');
  await page.getByRole('button', { name: 'Sign out' }).click();

  await makeKiosk(page);
  await openAs(page, 'Mia', '246810');
  await expect(jobOf(page, 'SO-1002')).toHaveCount(1);

  await page.clock.fastForward(40_000);
  await expect(page.getByText('Working as Mia')).toBeVisible();
  // A touch starts the 60 s again.
  await page.getByRole('heading', { name: 'My jobs today' }).click();
  await page.clock.fastForward(40_000);
  await expect(page.getByText('Working as Mia')).toBeVisible();

  await page.clock.fastForward(21_000);
  await expect(names(page)).toBeVisible();
  await expect(page.getByText('Working as Mia')).toHaveCount(0);
  await expect(page.getByRole('list', { name: 'My jobs today' })).toHaveCount(0);
});
