/**
 * What exists on `window` beyond the DOM. In the Electron window the preload exposes the
 * bridge as `window.planner`; in the browser host it is absent, and the renderer falls back
 * to the HTTP bridge (see api/transport.ts).
 */
import type { PlannerBridge } from '../shared/ipc.js';

declare global {
  interface Window {
    planner?: PlannerBridge;
  }
}

export {};
