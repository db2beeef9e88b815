/**
 * The Electron transport: the preload already speaks the bridge contract, so this only
 * adapts `window.planner` to `Transport`. Calls go through the bridge object (not detached
 * methods) because contextBridge proxies must be called on the object they came from.
 */
import type { PlannerBridge } from '../../shared/ipc.js';
import type { Transport } from './transport-types.js';

export function createIpcTransport(bridge: PlannerBridge): Transport {
  return {
    request: (req) => bridge.request(req),
    onChange: (listener) => bridge.onChange(listener),
  };
}
