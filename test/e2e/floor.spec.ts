/**
 * The floor view (docs/API.md "The floor") on a phone, against the headless server as its own
 * process: an operator signs in with their email and password, finds today's job under "My jobs
 * today", starts it, and finishes it with 8 made and 1 scrapped; the API then shows the ended
 * time entry, the card in the board's exit status and the order row's new quantities. Then the
 * same with the phone offline between Start and Finish: the taps wait on the device and arrive
 * once, in order, when it is online again; and a tap refused when it arrives (the planner
 * stopped the timer meanwhile) is shown, not dropped.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from './fixtures.js';
import { startFloorServer, workshopBoard, type FloorServer } from './floor-server.js';
import { runNow, testToday } from '../helpers/test-clock.js';

const access = { env: 'workshop', key: 'floor-spec-key-3f9a1c7e5b' };
const operator = { email: 'max@example.com', password: 'pass-word-123' };

let server: FloorServer | undefined;

test.afterEach(async () => {
  await server?.stop();
  server = undefined;
});

const byKey = (method: string, path: string, body?: unknown) => server!.byKey(method, path, body);

interface Seeded {
  userId: string;
  card: any;
  board: any;
  order: any;
  row: any;
}

/** A server with a board that has an exit status, a resource with its user, and today's card with an order row of its activity. */
async function seedWorkshop(): Promise<Seeded> {
  server = await startFloorServer('planner-floor-', access);

  const resource = await byKey('POST', '/v1/resource', { name: 'Max' });
  const activity = await byKey('POST', '/v1/activity', { description: 'Welding', default_duration: 30 });
  const board = await byKey('POST', '/v1/board?with=stages,statuses', workshopBoard('Done'));
  const order = await byKey('POST', '/v1/order?with=order_rows', {
    code: 'SO-1001',
    description: 'Frames for the Jansen hall',
    board_id: board.id,
    order_rows: [{ code: 'F1', description: 'Frame', activity_id: activity.id, unit: 'pieces', quantity: 20, quantity_delivered: 2 }],
  });
  const row = order.order_rows[0];
  const card = await byKey('POST', `/v1/collection/${order.collection_id}/card`, {
    stage_id: board.stages[0].id,
    start_date: testToday,
    end_date: testToday,
    resources: [{ id: resource.id }],
    activities: [{ id: activity.id, time: 240 }],
  });
  const userId = await server.user({ ...operator, role: 'member', resourceId: resource.id });

  return { userId, card, board, order, row };
}

async function signInOnPhone(page: Page): Promise<void> {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(new URL('/floor/', server!.url).toString());

  // The server has one environment: the form names it already.
  await expect(page.getByLabel('Environment')).toHaveValue(access.env);
  expect(await seriousViolations(page)).toEqual([]);
  await page.getByLabel('Email').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The job's time entries, card and order row, read through the API. */
async function onServer(seeded: Seeded): Promise<{ entries: any[]; statusId: string; row: any }> {
  const entries = (await byKey('GET', `/v1/time_tracking?filter=${encodeURIComponent(`card_id:eq:${seeded.card.id}`)}&limit=10`)).data;
  const card = await byKey('GET', `/v1/collection/${seeded.order.collection_id}/card/${seeded.card.id}`);
  const row = await byKey('GET', `/v1/order/${seeded.order.id}/row/${seeded.row.id}`);
  return { entries, statusId: card.status_id, row };
}

/** Serious and critical accessibility violations on the page as it is (as test/e2e/accessibility.spec.ts counts them). */
async function seriousViolations(page: Page): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
    .flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')} ${node.failureSummary ?? ''}`));
}

const jobOf = (page: Page) => page.getByRole('list', { name: 'My jobs today' }).getByRole('listitem').filter({ hasText: 'SO-1001' });

test('an operator signs in on a phone, starts today’s job and finishes it with 8 made and 1 scrapped', async ({ page }) => {
  const seeded = await seedWorkshop();
  await signInOnPhone(page);

  const job = jobOf(page);
  await expect(job).toHaveCount(1);
  await expect(job).toContainText('Frames for the Jansen hall');
  await expect(job).toContainText('Welding');
  await expect(job).toContainText('4 h');
  await expect(job).toContainText('F1 Frame: 2 of 20 pieces made, 0 scrapped');

  await job.getByRole('button', { name: 'Start' }).click();
  await expect(job.getByText('Running', { exact: true })).toBeVisible();
  await expect(job.getByRole('button', { name: 'Pause' })).toBeEnabled();

  await job.getByRole('button', { name: 'Finish' }).click();
  const quantities = job.getByRole('form', { name: 'How many?' });
  await expect(quantities.getByLabel('Made')).toBeVisible();
  expect(await seriousViolations(page)).toEqual([]);
  await quantities.getByLabel('Made').fill('8');
  await quantities.getByLabel('Scrapped').fill('1');
  await quantities.getByRole('button', { name: 'Send' }).click();
  await expect(job.getByText('Quantities sent.')).toBeVisible();
  await expect(job).toContainText('F1 Frame: 10 of 20 pieces made, 1 scrapped');

  // Through the API: the time entry is the operator's and has ended, the card is done, the row counted.
  const after = await onServer(seeded);
  expect(after.entries).toHaveLength(1);
  expect(after.entries[0].user_id).toBe(seeded.userId);
  expect(after.entries[0].end).not.toBeNull();
  expect(after.statusId).toBe(seeded.board.statuses.find((s: any) => s.exit).id);
  expect(after.row.quantity_delivered).toBe(10);
  expect(after.row.quantity_scrapped).toBe(1);

  // Signing out ends the sign-in: the form shows again.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
});

test('without a connection the taps wait on the phone ("N waiting") and are sent in order, once, when it is back', async ({
  page,
  context,
}) => {
  const seeded = await seedWorkshop();
  await signInOnPhone(page);
  const job = jobOf(page);
  await job.getByRole('button', { name: 'Start' }).click();
  await expect(job.getByText('Running', { exact: true })).toBeVisible();
  // The job takes more than the second in which it started (entries keep whole seconds).
  await page.waitForTimeout(1_200);

  await context.setOffline(true);
  await job.getByRole('button', { name: 'Finish' }).click();
  const quantities = job.getByRole('form', { name: 'How many?' });
  await quantities.getByLabel('Made').fill('8');
  await quantities.getByLabel('Scrapped').fill('1');
  await quantities.getByRole('button', { name: 'Send' }).click();
  await expect(page.getByText('2 waiting')).toBeVisible();
  await expect(job.getByText('Quantities kept on this device')).toBeVisible();
  // Nothing has reached the server: the timer still runs, the row is as it was.
  const meanwhile = await onServer(seeded);
  expect(meanwhile.entries[0].end).toBeNull();
  expect(meanwhile.row.quantity_delivered).toBe(2);

  const backOnline = runNow();
  await context.setOffline(false);
  await expect(page.getByText(/waiting/)).toHaveCount(0, { timeout: 20_000 });
  await expect(job).toContainText('F1 Frame: 10 of 20 pieces made, 1 scrapped');

  const after = await onServer(seeded);
  expect(after.entries).toHaveLength(1);
  // The timer ended at the tap, made offline, not when the tap arrived.
  expect(Date.parse(after.entries[0].end)).toBeLessThan(backOnline);
  expect(after.statusId).toBe(seeded.board.statuses.find((s: any) => s.exit).id);
  expect(after.row.quantity_delivered).toBe(10);
  expect(after.row.quantity_scrapped).toBe(1);
});

test('a tap the server refuses once it arrives is shown in the operator’s words, not dropped', async ({ page, context }) => {
  const seeded = await seedWorkshop();
  await signInOnPhone(page);
  const job = jobOf(page);
  await job.getByRole('button', { name: 'Start' }).click();
  await expect(job.getByText('Running', { exact: true })).toBeVisible();
  await page.waitForTimeout(1_200);

  await context.setOffline(true);
  await job.getByRole('button', { name: 'Pause' }).click();
  await expect(page.getByText('1 waiting')).toBeVisible();
  // Meanwhile the planner stops the operator's timer.
  const [entry] = (await onServer(seeded)).entries;
  await byKey('POST', `/v1/time_tracking/${entry.id}/stop`, {});

  await context.setOffline(false);
  const refused = page.getByRole('alert').filter({ hasText: 'Pause was not done' });
  await expect(refused).toContainText('SO-1001');
  await expect(refused).toContainText('Your timer is not running on this job.');
  await expect(page.getByText(/waiting/)).toHaveCount(0);
  await refused.getByRole('button', { name: 'OK' }).click();
  await expect(refused).toHaveCount(0);
});

test('the floor view is installable and opens without a connection once it was seen online', async ({ page, context }) => {
  await seedWorkshop();
  await page.setViewportSize({ width: 390, height: 844 });
  const floor = new URL('/floor/', server!.url).toString();
  await page.goto(floor);
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();

  // Installable: the page names its manifest, which names the app, its scope and its icon.
  const manifestHref = await page.locator('link[rel="manifest"]').getAttribute('href');
  const manifest = await (await page.request.get(new URL(manifestHref!, floor).toString())).json();
  expect(manifest).toMatchObject({ name: 'Planner floor', display: 'standalone', start_url: './', scope: './' });
  expect(manifest.icons.length).toBeGreaterThan(0);

  // The service worker keeps the page and its files, and takes this page over.
  await page.waitForFunction(() => navigator.serviceWorker.controller !== null, undefined, { timeout: 15_000 });

  // No connection: the page opens all the same, from the device, with its form.
  await context.setOffline(true);
  await page.reload();
  await expect(page.getByRole('button', { name: 'Sign in' })).toBeVisible();
  await expect(page.getByLabel('Email')).toBeVisible();

  // Signed in and the jobs read once online, a reload without a connection still shows them, saying since when.
  await context.setOffline(false);
  await signInOnPhone(page);
  await expect(jobOf(page)).toHaveCount(1);
  await context.setOffline(true);
  await page.reload();
  await expect(jobOf(page)).toContainText('Frames for the Jansen hall');
  await expect(page.getByText(/^No connection: your jobs as they were at \d\d:\d\d\.$/)).toBeVisible();
  await context.setOffline(false);
});

test('pieces are reported as they come, before the job is finished, with a photo of the work', async ({ page }) => {
  const seeded = await seedWorkshop();
  await signInOnPhone(page);
  const job = jobOf(page);
  await job.getByRole('button', { name: 'Report quantities' }).click();
  const quantities = job.getByRole('form', { name: 'How many?' });
  await quantities.getByLabel('Made').fill('3');
  // What the camera took: a 2 × 2 pixel PNG; the floor view sends it as a JPEG.
  const png = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAEElEQVR4nGM4YWQERAwQCgAjNgSxRnwWMwAAAABJRU5ErkJggg==', 'base64');
  await quantities.getByLabel('Photo').setInputFiles({ name: 'weld seam.png', mimeType: 'image/png', buffer: png });
  await expect(quantities.getByText('Photo added: weld seam.jpg')).toBeVisible();
  await quantities.getByRole('button', { name: 'Send' }).click();
  await expect(job.getByText('Quantities sent.')).toBeVisible();
  await expect(job).toContainText('F1 Frame: 5 of 20 pieces made, 0 scrapped');
  // The photo is an attachment of the card, as the operator's, and it opens on the floor too.
  const attachments = (await byKey('GET', `/v1/collection/${seeded.order.collection_id}/attachment`)).data;
  expect(attachments).toEqual([
    expect.objectContaining({
      filename: 'weld seam.jpg',
      card_id: seeded.card.id,
      type: 'upload',
      content_type: 'image/jpeg',
      user_id: seeded.userId,
    }),
  ]);
  await expect(job.getByRole('button', { name: /weld seam\.jpg/ })).toBeVisible();
  // The job goes on: nothing was started or finished.
  await expect(job.getByRole('button', { name: 'Finish' })).toBeEnabled();
  const after = await onServer(seeded);
  expect(after.row.quantity_delivered).toBe(5);
  expect(after.entries).toHaveLength(0);
  expect(after.statusId).not.toBe(seeded.board.statuses.find((s: any) => s.exit).id);
});
