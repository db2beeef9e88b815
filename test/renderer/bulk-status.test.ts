import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BridgeRequest } from '../../shared/ipc.js';
import type { Transport } from '../../renderer/api/transport.js';
import { setStatusOfAll } from '../../renderer/views/time/bulk-status.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { recordingTransport } from './recording-transport.js';
import { createCard } from '../helpers/signed-in.js';

let api: TestApi;
/** The renderer's transport over real HTTP to a real API, with every request it sent. */
let sent: BridgeRequest[];
let transport: Transport;
let cardId: string;

beforeAll(async () => {
  api = await startTestApi();
  ({ transport, sent } = recordingTransport(api));
  ({ cardId } = await createCard((method, path, body) => api.http(method, path, body), 'Frames'));
});

afterAll(async () => {
  await api?.close();
});

async function entry(hour: number, status?: string): Promise<string> {
  const at = String(hour).padStart(2, '0');
  const made = await api.http('POST', '/v1/time_tracking', {
    card_id: cardId,
    start: `2024-03-04T${at}:00:00Z`,
    end: `2024-03-04T${at}:30:00Z`,
    ...(status ? { status } : {}),
  });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return made.body.id;
}

const statusOf = async (id: string) => (await api.http('GET', `/v1/time_tracking/${id}`)).body.status;

describe('setting the status of many time entries', () => {
  it('is one set_time_status command: all change, or none and each refused entry says why', async () => {
    const drafts = [await entry(8), await entry(9)];
    const pending = await entry(10, 'pending');
    sent.length = 0;
    const refused = await setStatusOfAll(transport, [drafts[0]!, pending, drafts[1]!], 'rejected');
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({ method: 'POST', path: '/v1/command/set_time_status' });
    expect(refused.done).toEqual([]);
    expect(refused.failed.map((failure) => failure.id)).toEqual(drafts);
    for (const failure of refused.failed) {
      expect(failure.message).toContain('cannot change from draft to rejected');
      // The place in the list sent is no word of the planner's.
      expect(failure.message).not.toMatch(/entries\.\d/);
    }
    expect(await statusOf(pending)).toBe('pending');

    const done = await setStatusOfAll(transport, [pending], 'rejected');
    expect(done).toEqual({ done: [pending], failed: [] });
    expect(await statusOf(pending)).toBe('rejected');
  });

  it('hands over a refusal that names no entry, writing nothing', async () => {
    const id = await entry(11);
    await expect(setStatusOfAll(transport, [id], 'done' as never)).rejects.toMatchObject({ status: 422 });
    expect(await statusOf(id)).toBe('draft');
  });
});
