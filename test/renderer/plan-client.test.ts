/**
 * The planboard's planning calls through the declared operations (shared/operations/planning.ts):
 * the renderer's client over real HTTP to a real API, with every request it sent.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeRequest } from '../../shared/ipc.js';
import { sendOperationCommand, undoCommand } from '../../renderer/api/commands.js';
import type { Transport } from '../../renderer/api/transport.js';
import { moveToBacklog, planCollection } from '../../renderer/views/planboard/planboard-api.js';
import { dryRunPlan, fetchDraftPromiseDate, fetchPromiseDates } from '../../renderer/views/planboard/promise-dates.js';
import { planCollectionOperation } from '../../shared/operations/planning.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { recordingTransport } from './recording-transport.js';
import { createActivities, createBoard, createCollection, type Activities, type BoardIds } from '../helpers/planning.js';

let api: TestApi;
let sent: BridgeRequest[];
let transport: Transport;
let acts: Activities;
let board: BoardIds;

beforeAll(async () => {
  api = await startTestApi();
  ({ transport, sent } = recordingTransport(api));
  acts = await createActivities(api);
  board = await createBoard(api, acts, { stages: [{ name: 'Cutting', activities: ['Cut'] }] });
});

afterAll(async () => {
  await api?.close();
});

const statusOf = async (id: string) => (await api.http('GET', `/v1/collection/${id}`)).body.status;

describe('the planning calls of the planboard', () => {
  it('plans a collection as one command and sends it back to the backlog as another, whose id undo takes', async () => {
    const collection = await createCollection(api, board.id, acts, { Cut: 480 });
    sent.length = 0;
    const planned = await planCollection(transport, collection.id, board.id, { start: '2024-03-04' });
    expect(sent[0]).toMatchObject({
      method: 'POST',
      path: `/v1/collection/${collection.id}/board/${board.id}`,
      body: { start: '2024-03-04' },
    });
    expect(planned.body.status).toBe('planned');
    expect(planned.commandId).toMatch(/^[0-9a-f-]{36}$/);

    const back = await moveToBacklog(transport, collection.id);
    expect(sent[1]).toMatchObject({ method: 'POST', path: `/v1/collection/${collection.id}/backlog` });
    expect(back.body.status).toBe('not_planned');
    await undoCommand(transport, back.commandId);
    expect(await statusOf(collection.id)).toBe('planned');
  });

  it('refuses a body the declaration does not take with the API’s own 422, and writes nothing', async () => {
    const collection = await createCollection(api, board.id, acts, { Cut: 480 });
    // A body a newer client might send: the declaration names the field that is wrong.
    const refused = sendOperationCommand(transport, planCollectionOperation, {
      params: { id: collection.id, board_id: board.id },
      body: { start: '2024-03-04', resources: ['not an id'] },
    });
    await expect(refused).rejects.toMatchObject({ status: 422 });
    expect(await statusOf(collection.id)).toBe('not_planned');
  });

  it('asks for a dry run and promise dates, collections and drafts each in one call', async () => {
    const collection = await createCollection(api, board.id, acts, { Cut: 960 });
    const wouldBe = await dryRunPlan(transport, collection.id, board.id, { start: '2024-03-04', capacity: 'infinite' });
    expect(wouldBe.cards).toEqual([{ stage_id: board.stages.Cutting, start_date: '2024-03-04', end_date: '2024-03-05' }]);
    expect(wouldBe.added_load.map((load) => load.date)).toEqual(['2024-03-04', '2024-03-05']);
    expect(await statusOf(collection.id)).toBe('not_planned');

    sent.length = 0;
    const dates = await fetchPromiseDates(transport, board.id, [collection.id]);
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ path: `/v1/board/${board.id}/promise_dates`, body: { collection_ids: [collection.id] } });
    expect(dates).toHaveLength(1);
    expect(dates[0]!.collection_id).toBe(collection.id);
    // No resource works on the board, so a finite plan finds no room: null, not a date.
    expect(await fetchDraftPromiseDate(transport, board.id, [{ activity_id: acts.Cut!, quantity: 1.5, unit: 'hours' }])).toBeNull();
  });
});
