/**
 * Workshop mode (docs/decisions/workshop-mode.md) in Chromium on a phone, over real HTTPS on
 * 127.0.0.1: the desktop's local instance and workshop mode run in this process, as main runs
 * them. The phone opens the QR code's address, pairs with the code on the planner's screen, is
 * taken to the floor view, signs in and sees today's job under "My jobs today", and Start books
 * on it. Revoked in Settings, the same phone is sent back to the pairing page. The browser takes
 * the self-signed certificate as the operator would once they have checked its fingerprint
 * (`ignoreHTTPSErrors`).
 */
import { join } from 'node:path';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';
import { builtRendererDir } from '../../electron/host/floor-page.js';
import { openLocalInstance, type LocalInstance } from '../../electron/host/local-instance.js';
import { WorkshopMode } from '../../electron/host/workshop-mode.js';
import { tempDir } from '../helpers/api.js';
import { testToday } from '../helpers/test-clock.js';
import { expect, test } from './fixtures.js';

test.use({ ignoreHTTPSErrors: true, viewport: { width: 390, height: 844 } });

const operator = { email: 'max@example.com', password: 'pass-word-123' };
let instance: LocalInstance | undefined;
let workshop: WorkshopMode | undefined;

test.afterEach(async () => {
  await workshop?.close();
  await instance?.close();
  workshop = undefined;
  instance = undefined;
});

/** The app's own call, as the planner's window makes it; throws when refused. */
async function asPlanner(method: 'GET' | 'POST' | 'PUT', path: string, body?: unknown): Promise<any> {
  const answer = await instance!.request({ method, path, ...(body === undefined ? {} : { body }) });
  if (answer.status >= 300) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

test('a phone pairs with the code on the planner’s screen, signs in and starts today’s job; revoked, it is shut out', async ({ page }) => {
  instance = await openLocalInstance(join(tempDir('planner-workshop-e2e-'), 'data'));
  const resource = await asPlanner('POST', '/v1/resource', { name: 'Max' });
  const activity = await asPlanner('POST', '/v1/activity', { description: 'Welding', default_duration: 30 });
  const board = await asPlanner('POST', '/v1/board?with=stages,statuses', {
    name: 'Workshop',
    stages: [{ name: 'Welding' }],
    statuses: [
      { name: 'Todo', entry: true, priority: 0 },
      { name: 'Done', exit: true, priority: 1 },
    ],
  });
  const order = await asPlanner('POST', '/v1/order', { code: 'SO-2001', description: 'Gates for the Smit yard', board_id: board.id });
  const card = await asPlanner('POST', `/v1/collection/${order.collection_id}/card`, {
    stage_id: board.stages[0].id,
    start_date: testToday,
    end_date: testToday,
    resources: [{ id: resource.id }],
    activities: [{ id: activity.id, time: 120 }],
  });
  const ctx = requestContext(
    { kind: 'api-key', environment: instance.environment },
    recordsOf(instance.dataDir.environment(instance.environment.id)),
  );
  await createUserWithPassword(ctx, { email: operator.email, role: 'member', resource_id: resource.id }, operator.password);

  workshop = new WorkshopMode({ dataPath: instance.dataDir.path, instance: async () => instance!, rendererDir: builtRendererDir() });
  expect((await workshop.change({ enabled: true, host: '127.0.0.1', port: 0 })).status).toBe('done');
  const pairing = (await workshop.newPairingCode()).state.pairing!;

  // The QR code's address: the pairing form, its code filled in.
  await page.goto(pairing.url);
  await expect(page.getByRole('heading', { name: 'Pair this device' })).toBeVisible();
  await expect(page.getByLabel('Pairing code')).toHaveValue(pairing.code);
  await page.getByLabel('Name of this device').fill('Phone of Max');
  await page.getByRole('button', { name: 'Pair' }).click();

  // Paired: the floor view, where the operator signs in as on any server.
  await expect(page).toHaveURL(/\/floor\/$/);
  await expect(page.getByLabel('Environment')).toHaveValue('local');
  await page.getByLabel('Email').fill(operator.email);
  await page.getByLabel('Password').fill(operator.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  const job = page.getByRole('list', { name: 'My jobs today' }).getByRole('listitem').filter({ hasText: 'SO-2001' });
  await expect(job).toHaveCount(1);
  await expect(job).toContainText('Gates for the Smit yard');
  await job.getByRole('button', { name: 'Start' }).click();
  await expect(job.getByText('Running', { exact: true })).toBeVisible();
  const entries = await asPlanner('GET', `/v1/time_tracking?filter=${encodeURIComponent(`card_id:eq:${card.id}`)}`);
  expect(entries.data).toHaveLength(1);
  expect(entries.data[0].end).toBeNull();

  const state = await workshop.state();
  expect(state.devices.map((device) => device.name)).toEqual(['Phone of Max']);
  expect(state.devices[0]!.lastUsedAt).not.toBeNull();

  // Revoked: the next load of the floor view is the pairing page again.
  await workshop.revokeDevice(state.devices[0]!.id);
  await page.goto(new URL('/floor/', pairing.url).toString());
  await expect(page.getByRole('heading', { name: 'Pair this device' })).toBeVisible();
});
