/**
 * The one way the renderer reaches the Planning API. Two implementations exist because the
 * same UI runs in two hosts: the Electron window (IPC through the preload) and a browser
 * served by the local Node host (HTTP on 127.0.0.1). Everything above this file is unaware
 * of which one it got.
 */
import { createHttpTransport } from './transport.http.js';
import { createIpcTransport } from './transport.ipc.js';
import type { Transport } from './transport-types.js';

export type { ChangeNotice, Transport } from './transport-types.js';

/** Picks the transport once, at startup: the preload's bridge when present, HTTP otherwise. */
export function chooseTransport(): Transport {
  return window.planner ? createIpcTransport(window.planner) : createHttpTransport();
}
