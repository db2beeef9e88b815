/**
 * Reaching the local API's switch (shared/local-api.ts) from the page: the desktop shell's
 * channels when the preload offers them, the browser host's `/host/local-api` otherwise. Both
 * answer the same state and outcomes; the key is only ever in the outcome that made it.
 */
import type { PlannerBridge } from '../../shared/ipc.js';
import type { LocalApiChange, LocalApiOutcome, LocalApiState } from '../../shared/local-api.js';
import { hostCall } from './host-call.js';

export interface LocalApiControl {
  state(): Promise<LocalApiState>;
  change(change: LocalApiChange): Promise<LocalApiOutcome>;
  newKey(): Promise<LocalApiOutcome>;
}

export function localApiControl(bridge: PlannerBridge | undefined = window.planner): LocalApiControl {
  if (bridge) {
    return {
      state: () => bridge.getLocalApi(),
      change: (change) => bridge.changeLocalApi(change),
      newKey: () => bridge.newLocalApiKey(),
    };
  }
  return {
    state: () => hostCall<LocalApiState>('GET', '/host/local-api'),
    change: (change) => hostCall<LocalApiOutcome>('POST', '/host/local-api', change),
    newKey: () => hostCall<LocalApiOutcome>('POST', '/host/local-api/key'),
  };
}
