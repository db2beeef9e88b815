/**
 * Issue 17, "Compatibility with real clients of the public API": the fields such a client
 * writes to a resource or a time entry that were dropped in silence now take effect, read
 * back as sent, or are refused with a 422 that names them (docs/API.md "Time tracking",
 * "Compatibility", "Schedules and capacity"). Activities and orders dropped none.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectFieldErrors } from '../helpers/order-data.js';

let api: TestApi;
let board: any;

async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const res = await api.http(method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(method === 'POST' ? 201 : 200);
  return res.body;
}

/** Creates with `create`, changes with `change`; each time every sent field reads back as sent. */
async function expectTaken(
  path: string,
  create: Record<string, unknown>,
  change: Record<string, unknown>,
  withRelations = '',
): Promise<any> {
  const made = await ok('POST', `${path}${withRelations}`, create);
  const read = await ok('GET', `${path}/${made.id}${withRelations}`);
  for (const [field, value] of Object.entries(create)) expect(read[field], `${path} ${field} on create`).toEqual(value);
  await ok('PUT', `${path}/${made.id}`, change);
  const changed = await ok('GET', `${path}/${made.id}${withRelations}`);
  for (const [field, value] of Object.entries(change)) expect(changed[field], `${path} ${field} on update`).toEqual(value);
  return changed;
}

beforeAll(async () => {
  api = await startTestApi();
  board = await ok('POST', '/v1/board?with=stages', {
    name: 'Workshop',
    stages: [{ name: 'Welding' }, { name: 'Painting' }],
    statuses: [{ name: 'To do', entry: true }],
  });
});
afterAll(async () => {
  await api.close();
});

describe('written fields take effect or are refused by name', () => {
  it('resource: every field but workdays_start_date, which is refused by name unless null', async () => {
    const workdays = { '1': 6, '2': 6, '3': 6, '4': 6, '5': null, '6': null, '7': null };
    await expectTaken(
      '/v1/resource',
      {
        name: 'Anna',
        type: 'employee',
        description: 'Welder',
        start_date: '2026-01-01',
        end_date: '2026-12-31',
        avatar: 'https://example.com/a.png',
        workdays,
        integration_schedule: true,
        color_hex: '#aabbcc',
        boards: [{ id: board.id, active: true, stages: [{ id: board.stages[0].id, percentage: 50, active: true }] }],
        external_ref: 'hr-1',
        transaction: 'tx-2',
      },
      {
        name: 'Anna A.',
        type: 'cell',
        description: null,
        end_date: null,
        avatar: null,
        integration_schedule: false,
        color_hex: null,
        external_ref: 'hr-2',
      },
    );
    const before = (await ok('GET', '/v1/resource?limit=0')).count;
    expectFieldErrors(await api.http('POST', '/v1/resource', { name: 'Ben', workdays_start_date: '2026-11-02' }), ['workdays_start_date']);
    expect((await ok('GET', '/v1/resource?limit=0')).count).toBe(before);
    // Read back and written whole (workdays_start_date: null) it saves.
    const ben = await ok('POST', '/v1/resource', { name: 'Ben' });
    expect((await ok('PUT', `/v1/resource/${ben.id}`, { ...ben, name: 'Ben B.' })).name).toBe('Ben B.');
    expectFieldErrors(await api.http('PUT', `/v1/resource/${ben.id}`, { workdays_start_date: '2026-11-02' }), ['workdays_start_date']);
  });

  it('time entry: duration sets the end, locked locks, running: false stops a timer, running: true on a finished entry is refused', async () => {
    const activity = (await ok('POST', '/v1/activity', { description: 'Meeting' })).id;
    const finished = await ok('POST', '/v1/time_tracking', {
      activity_id: activity,
      start: '2026-11-02T08:00:00Z',
      duration: 30,
      locked: true,
    });
    expect(finished).toMatchObject({ end: '2026-11-02T08:30:00Z', duration: 30, locked: true, running: false });
    const timer = await ok('POST', '/v1/time_tracking', { activity_id: activity, start: new Date(Date.now() - 3_600_000).toISOString() });
    expect(timer.running).toBe(true);
    const stopped = await ok('PUT', `/v1/time_tracking/${timer.id}`, { running: false });
    expect(stopped.running).toBe(false);
    expect(Date.parse(stopped.end)).toBeGreaterThan(Date.parse(timer.start));
    expect(stopped.duration).toBeGreaterThanOrEqual(59);
    expectFieldErrors(await api.http('PUT', `/v1/time_tracking/${timer.id}`, { running: true }), ['running']);
    // Read back and written whole, unchanged, it saves; a stale running: true beside a new end stops it.
    expect((await ok('PUT', `/v1/time_tracking/${timer.id}`, { ...stopped, note: 'x' })).note).toBe('x');
    const other = await ok('POST', '/v1/time_tracking', { activity_id: activity, start: new Date(Date.now() - 1_800_000).toISOString() });
    const ended = await ok('PUT', `/v1/time_tracking/${other.id}`, { ...other, end: new Date(Date.now() - 600_000).toISOString() });
    expect(ended.running).toBe(false);
  });
});
