/**
 * The app's requests while a scenario is open (renderer/api/scenario-transport.ts, docs/API.md
 * "Scenarios"), against a real API: they run in the scenario, except the scenario routes and
 * sync; a write in the scenario leaves the live plan as it was; and the screens hear that they
 * must read again after such a write and when the planner opens or leaves a scenario.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withScenario } from '../../renderer/api/scenario-transport.js';
import type { ChangeNotice } from '../../renderer/api/transport.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { recordingTransport } from './recording-transport.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
  await api.http('POST', '/v1/project', { name: 'Live' });
});

afterAll(async () => {
  await api?.close();
});

/** A scenario source the test switches by hand, as the app's store does. */
function switchable() {
  let current: string | null = null;
  const listeners = new Set<() => void>();
  return {
    source: { current: () => current, subscribe: (listener: () => void) => (listeners.add(listener), () => listeners.delete(listener)) },
    open(id: string | null) {
      current = id;
      for (const listener of listeners) listener();
    },
  };
}

const names = (body: unknown) => (body as { data: { name: string }[] }).data.map((project) => project.name).sort();

describe('a transport with a scenario open', () => {
  it('runs reads and writes in the scenario, the scenario routes and sync on the live plan, and tells the screens to read again', async () => {
    const { transport: recording, sent } = recordingTransport(api);
    const scenario = switchable();
    const transport = withScenario(recording, scenario.source);
    const heard: ChangeNotice[] = [];
    const stop = transport.onChange((notice) => heard.push(notice));

    const made = await transport.request({ method: 'POST', path: '/v1/scenario', body: { name: 'Try' } });
    expect(made.status).toBe(201);
    const id = (made.body as { id: string }).id;
    scenario.open(id);
    expect(heard).toEqual(['missed']);

    const written = await transport.request({ method: 'POST', path: '/v1/project', body: { name: 'Only in the scenario' } });
    expect(written.status).toBe(201);
    expect(heard).toEqual(['missed', 'missed']);
    const inScenario = await transport.request({ method: 'GET', path: '/v1/project' });
    expect(names(inScenario.body)).toEqual(['Live', 'Only in the scenario']);
    // A read tells nobody anything.
    expect(heard).toHaveLength(2);

    // The scenario list and sync never run in it (the API would refuse sync with the header).
    expect((await transport.request({ method: 'GET', path: '/v1/scenario' })).status).toBe(200);
    expect((await transport.request({ method: 'GET', path: `/v1/scenario/${id}/compare` })).status).toBe(200);
    await transport.request({ method: 'GET', path: '/v1/sync/status' });
    expect(sent.filter((request) => request.scenario === id).map((request) => `${request.method} ${request.path}`)).toEqual([
      'POST /v1/project',
      'GET /v1/project',
    ]);

    // Back on the live plan: the screens read again, and the live plan never had the scenario's project.
    scenario.open(null);
    expect(heard).toEqual(['missed', 'missed', 'missed']);
    expect(names((await transport.request({ method: 'GET', path: '/v1/project' })).body)).toEqual(['Live']);
    stop();
  });

  it('sends a failed write in the scenario to nobody: nothing changed', async () => {
    const { transport: recording } = recordingTransport(api);
    const scenario = switchable();
    const transport = withScenario(recording, scenario.source);
    const id = ((await transport.request({ method: 'POST', path: '/v1/scenario', body: { name: 'Bad input' } })).body as { id: string }).id;
    scenario.open(id);
    const heard: ChangeNotice[] = [];
    transport.onChange((notice) => heard.push(notice));
    const refused = await transport.request({ method: 'POST', path: '/v1/project', body: { name: 5 } });
    expect(refused.status).toBe(422);
    expect(heard).toEqual([]);
  });
});
