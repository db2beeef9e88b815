/**
 * A transport that runs every request in the scenario open at the time (docs/API.md
 * "Scenarios"), except the scenario routes themselves, which always act on the live plan, and
 * sync, which never runs in one. The host turns `scenario` into the `x-planner-scenario` header.
 *
 * A scenario's copy of the plan sends no change events (nothing in it leaves it), so the
 * screens hear of its writes from here: after each write in a scenario, and when the planner
 * opens or leaves one, every listener hears `missed` and reads again what it shows.
 */
import type { BridgeRequest } from '../../shared/ipc.js';
import type { ChangeNotice, Transport } from './transport-types.js';

export interface ScenarioSource {
  /** The open scenario's id; null on the live plan. */
  current(): string | null;
  /** Calls `listener` when the planner opens a scenario or goes back to the live plan. */
  subscribe(listener: () => void): () => void;
}

/** Whether a request runs inside the open scenario, rather than on the live plan. */
export function runsInScenario(request: BridgeRequest): boolean {
  return !/^\/v1\/(scenario|sync)(\/|$)/.test(request.path);
}

export function withScenario(transport: Transport, scenario: ScenarioSource): Transport {
  const listeners = new Set<(notice: ChangeNotice) => void>();
  const everyoneReadsAgain = () => {
    for (const listener of listeners) listener('missed');
  };
  scenario.subscribe(everyoneReadsAgain);
  return {
    async request(request) {
      const id = scenario.current();
      if (id === null || !runsInScenario(request)) return transport.request(request);
      const response = await transport.request({ ...request, scenario: id });
      if (request.method !== 'GET' && response.status < 300) everyoneReadsAgain();
      return response;
    },
    onChange(listener) {
      listeners.add(listener);
      const stop = transport.onChange(listener);
      return () => {
        listeners.delete(listener);
        stop();
      };
    },
  };
}
