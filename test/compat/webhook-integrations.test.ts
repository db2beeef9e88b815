/**
 * Webhook integrations (docs/API.md "Compatibility"): small services that receive events from
 * another system and write them into the planning. A leave system books approved leave as
 * schedule deviations on the employee's resource (found by its external_ref) and withdraws them
 * when leave is cancelled; a job intake creates a collection per incoming job, plans it between
 * a start and an end, and deletes it when the job is cancelled. They send "" for values their
 * source left empty. The requests are written as such a service sends them
 * (test/helpers/public-client.ts).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectStatus, publicClient, type PublicClient } from '../helpers/public-client.js';

let api: TestApi;
let vplan: PublicClient;
let board: any;

beforeAll(async () => {
  api = await startTestApi();
  vplan = publicClient(api);
  const activity = expectStatus(await vplan.post('activity', { description: 'Install', resource_type: 'employee' }), 201);
  board = expectStatus(
    await vplan.post('board', {
      name: 'Installations',
      stages: [{ name: 'On site', priority: 0, activities: [{ id: activity.id, priority: 0 }] }],
      statuses: [
        { name: 'Planned', entry: true },
        { name: 'Done', exit: true },
      ],
    }),
    201,
  );
  for (const [name, ref] of [
    ['Anna Jansen', 'EMP-17'],
    ['Bram de Vries', 'EMP-18'],
  ]) {
    expectStatus(await vplan.post('resource', { name, type: 'employee', external_ref: ref, start_date: '2026-01-01' }), 201);
  }
});
afterAll(async () => {
  await api.close();
});

/** The leave service finds the employee by the id its own system gives them. */
async function resourceOf(employee: string): Promise<any> {
  const found = expectStatus(await vplan.get('resource', { external_ref: employee }), 200, 'find resource');
  expect(found.count, `resources with external_ref ${employee}`).toBe(1);
  return found.data[0];
}

describe('a leave system booking schedule deviations', () => {
  it('books approved leave on the resource found by a plain external_ref parameter ("" time: the whole day) and withdraws it', async () => {
    const anna = await resourceOf('EMP-17');
    expect(anna.name).toBe('Anna Jansen');
    const leave = expectStatus(
      await vplan.post(`resource/${anna.id}/schedule_deviation`, {
        description: 'Vacation',
        type: 'leave',
        start_date: '2026-07-06',
        end_date: '2026-07-10',
        time: '',
        external_ref: 'LEAVE-501',
      }),
      201,
      'book leave',
    );
    expect(leave).toMatchObject({ resource_id: anna.id, time: null, type: 'leave', deleted_at: null });
    const week = expectStatus(
      await vplan.get(`resource/${anna.id}/schedule`, { filter: "date:gte:'2026-07-06',and,date:lte:'2026-07-10'" }),
      200,
    );
    expect(week.data.map((d: any) => d.available)).toEqual([0, 0, 0, 0, 0]);

    // Cancelled: the service deletes it by the id it kept, then finds nothing left.
    expect((await vplan.delete(`resource/${anna.id}/schedule_deviation/${leave.id}`)).status).toBe(204);
    expect(expectStatus(await vplan.get(`resource/${anna.id}/schedule_deviation`, { external_ref: 'LEAVE-501' }), 200).count).toBe(0);
  });

  it('keeps deviations sent with external_ref "" apart (not duplicates of each other), and refuses a real duplicate', async () => {
    const bram = await resourceOf('EMP-18');
    const sick = { description: '', type: 'sick', start_date: '2026-03-02', end_date: '2026-03-02', time: 240, external_ref: '' };
    const first = expectStatus(await vplan.post(`resource/${bram.id}/schedule_deviation`, sick), 201, 'first');
    const second = expectStatus(
      await vplan.post(`resource/${bram.id}/schedule_deviation`, { ...sick, start_date: '2026-03-03', end_date: '2026-03-03' }),
      201,
      'second',
    );
    // "" is no external_ref; a description is free text, where "" is a text of its own.
    expect([first.external_ref, second.external_ref, first.description]).toEqual([null, null, '']);

    const booked = { type: 'leave', start_date: '2026-08-03', end_date: '2026-08-07', external_ref: 'LEAVE-777' };
    expectStatus(await vplan.post(`resource/${bram.id}/schedule_deviation`, booked), 201);
    const again = await vplan.post(`resource/${bram.id}/schedule_deviation`, booked);
    expect(again.status).toBe(422);
    expect(again.body.errors[0]).toMatchObject({ field: 'external_ref', description: 'Duplicate entry' });
  });

  it('reads the deviations of an employee whose resource was deleted as an empty list (200), while the resource answers 404', async () => {
    const leaver = expectStatus(await vplan.post('resource', { name: 'Leaver', external_ref: 'EMP-99' }), 201);
    expectStatus(
      await vplan.post(`resource/${leaver.id}/schedule_deviation`, { start_date: '2026-05-04', end_date: '2026-05-08', type: 'leave' }),
      201,
    );
    expect((await vplan.delete(`resource/${leaver.id}`)).status).toBe(204);
    expect((await vplan.get(`resource/${leaver.id}`)).status).toBe(404);
    expect(expectStatus(await vplan.get(`resource/${leaver.id}/schedule_deviation`), 200)).toEqual({
      count: 0,
      limit: 100,
      offset: 0,
      data: [],
    });
    expect(expectStatus(await vplan.get(`resource/${leaver.id}/schedule`), 200).data).toEqual([]);
  });
});

describe('a job intake creating collections', () => {
  it('creates a collection per job with "" for an unknown due date, plans it between start and end, and after a cancel reads no cards', async () => {
    const job = expectStatus(
      await vplan.post('collection', {
        name: 'Job 88-410',
        description: 'Kitchen install',
        board_id: board.id,
        due_date: '',
        external_ref: 'JOB-88-410',
      }),
      201,
      'create',
    );
    expect(job.due_date).toBeNull();
    const planned = expectStatus(
      await vplan.post(`collection/${job.id}/board/${board.id}`, { start: '2026-09-07', end: '2026-09-09' }),
      200,
      'plan',
    );
    expect(planned.cards).toHaveLength(1);
    expect(expectStatus(await vplan.get(`collection/${job.id}/card`), 200).count).toBe(1);

    // The job is cancelled: the collection goes, and its cards are an empty list, as the public API answers.
    expect((await vplan.delete(`collection/${job.id}`)).status).toBe(204);
    expect(expectStatus(await vplan.get(`collection/${job.id}/card`), 200)).toEqual({ count: 0, limit: 100, offset: 0, data: [] });
    expect(expectStatus(await vplan.get('card', { collection_id: job.id }), 200).count).toBe(0);
  });
});
