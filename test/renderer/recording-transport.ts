/**
 * The renderer's transport over real HTTP to a real API (test/helpers/api.ts), keeping every
 * request it sent, so a test of renderer code can check what reached the API and how often.
 */
import type { Transport } from '../../renderer/api/transport.js';
import type { BridgeRequest, BridgeResponse } from '../../shared/ipc.js';
import { scenarioHeader } from '../../shared/operations/scenarios.js';
import type { TestApi } from '../helpers/api.js';

export function recordingTransport(api: TestApi): { transport: Transport; sent: BridgeRequest[] } {
  const sent: BridgeRequest[] = [];
  const transport: Transport = {
    async request(request): Promise<BridgeResponse> {
      sent.push(request);
      const query = request.query ? `?${new URLSearchParams(request.query as Record<string, string>).toString()}` : '';
      // The host sends a request's scenario as the header (electron/host/local-instance.ts).
      const headers = request.scenario ? { [scenarioHeader]: request.scenario } : undefined;
      const answer = await api.http(request.method, `${request.path}${query}`, request.body, headers);
      return { status: answer.status, headers: Object.fromEntries(answer.headers.entries()), body: answer.body };
    },
    onChange: () => () => {},
  };
  return { transport, sent };
}
