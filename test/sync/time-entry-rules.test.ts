/**
 * The time entry rules of issue 17 hold on sync as on the API (docs/API.md "Time tracking"):
 * an entry on an activity with no card travels both ways; a replica's push of an entry longer
 * than 24 hours, ending before it starts, or making a user's day longer than 24 hours is
 * rejected into its conflict list; a locked entry refuses a pushed edit or delete. The remote
 * and the replica are in this process (test/helpers/sync-inprocess.ts), over real HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lockedMessage } from '../../electron/api/resources/time-tracking.js';
import { endAfterStartMessage, tooLongMessage } from '../../electron/api/time-tracking/entry-time.js';
import { formatHlc } from '../../shared/hlc.js';
import { uuidv7 } from '../../shared/ids.js';
import { call, ok, syncUntilQuiet } from '../helpers/sync-cluster.js';
import { startInProcessClient, startInProcessRemote, type InProcessClient, type InProcessRemote } from '../helpers/sync-inprocess.js';
import { nowMs } from '../../shared/clock.js';
import { fixTheClock } from '../helpers/test-clock.js';

// What these tests expect depends on the day: they run at a fixed one (docs/architecture.md "Tests").
fixTheClock();

let remote: InProcessRemote;
let client: InProcessClient;
let meeting: string;
let worker: string;
let mutationId = 0;

/** Pushes one mutation as a replica of its own would, and answers its result. */
async function push(
  resource: string,
  id: string,
  op: 'create' | 'update' | 'delete',
  fields: Record<string, unknown> | null,
): Promise<any> {
  mutationId++;
  const res = await call(remote, 'POST', '/v1/sync/push', {
    client_id: 'rules-replica',
    mutations: [
      {
        mutation_id: mutationId,
        resource,
        id,
        op,
        fields,
        hlc: formatHlc({ millis: nowMs(), counter: mutationId, node: 'rulesreplica' }),
      },
    ],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.results[0];
}

/** A time entry as a replica's store holds it, with the fields its own rules computed. */
function entryFields(start: string, end: string, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    card_id: null,
    activity_id: meeting,
    user_id: worker,
    start,
    end,
    duration: Math.round((Date.parse(end) - Date.parse(start)) / 60_000),
    status: 'draft',
    locked: false,
    running: false,
    external_failed: false,
    created_at: '2026-11-20T08:00:00Z',
    updated_at: '2026-11-20T08:00:00Z',
    ...extra,
  };
}

function expectRejected(result: any, field: string, description: string | RegExp): void {
  expect(result, JSON.stringify(result)).toMatchObject({ status: 'rejected' });
  expect(result.error.errors.map((e: any) => e.field)).toContain(field);
  expect(result.error.errors.map((e: any) => e.description).join(' | ')).toMatch(description);
}

beforeAll(async () => {
  remote = await startInProcessRemote();
  client = await startInProcessClient(remote.url);
  meeting = (await ok(remote, 'POST', '/v1/activity', { description: 'Meeting' })).id;
  await ok(remote, 'POST', '/v1/user', { email: 'worker@example.com', role: 'member' });
  worker = (await ok(remote, 'GET', "/v1/user?filter=email:eq:'worker@example.com'", undefined, 200)).data[0].id;
  await syncUntilQuiet([client], remote);
});
afterAll(async () => {
  await client?.close();
  await remote?.close();
});

describe('time entry rules on sync', () => {
  it('an entry on an activity with no card, overnight, made on a replica, reaches the remote; one made on the remote reaches the replica', async () => {
    const night = await ok(client, 'POST', '/v1/time_tracking', {
      activity_id: meeting,
      user_id: worker,
      start: '2026-11-09T21:00:00Z',
      end: '2026-11-09T05:00:00Z',
      overnight: true,
      note: 'Night cleaning',
    });
    expect(night).toMatchObject({ card_id: null, end: '2026-11-10T05:00:00Z', duration: 480 });
    const training = await ok(remote, 'POST', '/v1/time_tracking', {
      activity_id: meeting,
      user_id: worker,
      start: '2026-11-11T08:00:00Z',
      duration: 120,
      note: 'Training',
    });
    await syncUntilQuiet([client], remote);
    const onRemote = await ok(remote, 'GET', `/v1/time_tracking/${night.id}`, undefined, 200);
    expect(onRemote).toMatchObject({
      card_id: null,
      activity_id: meeting,
      start: '2026-11-09T21:00:00Z',
      end: '2026-11-10T05:00:00Z',
      duration: 480,
      note: 'Night cleaning',
    });
    const onClient = await ok(client, 'GET', `/v1/time_tracking/${training.id}`, undefined, 200);
    expect(onClient).toMatchObject({ card_id: null, end: '2026-11-11T10:00:00Z', duration: 120 });
    expect((await ok(client, 'GET', '/v1/sync/conflict', undefined, 200)).count).toBe(0);
  });

  it('rejects a pushed entry that ends before it starts, lasts more than 24 hours, or makes a day longer than 24 hours', async () => {
    const before = (await ok(remote, 'GET', '/v1/time_tracking?limit=0', undefined, 200)).count;
    expectRejected(
      await push('time_tracking', uuidv7(), 'create', entryFields('2026-11-16T09:00:00Z', '2026-11-16T08:00:00Z')),
      'end',
      endAfterStartMessage,
    );
    expectRejected(
      await push('time_tracking', uuidv7(), 'create', entryFields('2026-11-16T06:00:00Z', '2026-11-17T07:00:00Z')),
      'end',
      tooLongMessage,
    );
    // 20 hours booked on the worker's Wednesday (Amsterdam), then 5 more pushed.
    expect((await push('time_tracking', uuidv7(), 'create', entryFields('2026-11-17T23:00:00Z', '2026-11-18T19:00:00Z'))).status).toBe(
      'applied',
    );
    expectRejected(
      await push('time_tracking', uuidv7(), 'create', entryFields('2026-11-18T17:00:00Z', '2026-11-18T22:00:00Z')),
      'end',
      /25:00 hours on 2026-11-18/,
    );
    expect((await ok(remote, 'GET', '/v1/time_tracking?limit=0', undefined, 200)).count).toBe(before + 1);
  });

  it('a locked entry refuses a pushed edit and a pushed delete, and stays as it was', async () => {
    const entry = await ok(remote, 'POST', '/v1/time_tracking', {
      activity_id: meeting,
      user_id: worker,
      start: '2026-11-19T08:00:00Z',
      end: '2026-11-19T12:00:00Z',
      locked: true,
    });
    expect(entry.locked).toBe(true);
    expectRejected(
      await push('time_tracking', entry.id, 'update', { end: '2026-11-19T16:00:00Z', duration: 480 }),
      'status',
      lockedMessage,
    );
    expectRejected(await push('time_tracking', entry.id, 'update', { note: 'changed offline' }), 'status', lockedMessage);
    expectRejected(await push('time_tracking', entry.id, 'delete', null), 'id', lockedMessage);
    expect(await ok(remote, 'GET', `/v1/time_tracking/${entry.id}`, undefined, 200)).toEqual(entry);
    // Unlocked by one who may lock (this replica pushes with an API key), it changes again.
    expect((await push('time_tracking', entry.id, 'update', { locked: false, note: 'corrected' })).status).toBe('applied');
    expect(await ok(remote, 'GET', `/v1/time_tracking/${entry.id}`, undefined, 200)).toMatchObject({ locked: false, note: 'corrected' });
  });
});
