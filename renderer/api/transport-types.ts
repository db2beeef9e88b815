/**
 * What a transport is, apart from the transports themselves (transport.ts picks one), so the
 * two implementations import these types without importing the file that imports them.
 */
import type { BridgeRequest, BridgeResponse, ChangeEvent } from '../../shared/ipc.js';

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
