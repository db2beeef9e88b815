/**
 * The one way the renderer reaches the Planning API. Two implementations exist because the
 * same UI runs in two hosts: the Electron window (IPC through the preload) and a browser
 * served by the local Node host (HTTP on 127.0.0.1). Everything above this file is unaware
 * of which one it got.
 */
import type { BridgeRequest, BridgeResponse, ChangeEvent } from '../../shared/ipc.js';
import { createHttpTransport } from './transport.http.js';
import { createIpcTransport } from './transport.ipc.js';

/**
 * What a change listener hears: the records that changed, or `missed` when changes may have
 * gone by unheard (the event stream was connecting or reconnecting) and any record may be stale.
 */
export type ChangeNotice = ChangeEvent[] | 'missed';

export interface Transport {
  request(req: BridgeRequest): Promise<BridgeResponse>;
  /** Returns a function that removes the listener. */
  onChange(listener: (notice: ChangeNotice) => void): () => void;
}

/** Picks the transport once, at startup: the preload's bridge when present, HTTP otherwise. */
export function chooseTransport(): Transport {
  return window.planner ? createIpcTransport(window.planner) : createHttpTransport();
}
