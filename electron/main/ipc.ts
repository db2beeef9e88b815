/**
 * The one IPC channel between renderer and main (docs/architecture.md "Processes", "Electron security"). The renderer is
 * untrusted: a request is only answered if it comes from an app frame, and only after the same
 * payload check the browser host applies, so both hosts refuse exactly the same input.
 */
import { BrowserWindow, type IpcMain, type IpcMainInvokeEvent, type WebContents } from 'electron';
import type { ApiErrorBody } from '../../shared/errors.js';
import { bridgeChannels, parseBridgeRequest, type BridgeResponse } from '../../shared/ipc.js';
import { ApiError } from '../api/errors.js';
import type { LocalInstance } from '../host/local-instance.js';
import { isAppUrl } from './protocol.js';

export type SenderCheck = (event: IpcMainInvokeEvent) => boolean;
export type BridgeHandler = (event: IpcMainInvokeEvent, payload: unknown) => Promise<BridgeResponse>;
type Bridgeable = Pick<LocalInstance, 'request' | 'onChange'>;

/**
 * The frame, not the webContents, is checked: a webContents showing the app can still hold an
 * iframe from elsewhere, and that frame can reach ipcRenderer through the preload too.
 */
export function isAppFrame(event: IpcMainInvokeEvent): boolean {
  const frame = event.senderFrame;
  return frame !== null && isAppUrl(frame.url);
}

export function createBridgeHandler(instance: Pick<LocalInstance, 'request'>, isTrustedSender: SenderCheck): BridgeHandler {
  return async (event, payload) => {
    if (!isTrustedSender(event)) {
      // A rejection rather than a 4xx: a foreign frame gets no API-shaped answer at all.
      throw new Error('Refused: the request did not come from the app.');
    }
    const request = parseBridgeRequest(payload);
    if ('error' in request) return errorResponse(ApiError.badRequest(request.error));
    try {
      return await instance.request(request);
    } catch (error) {
      // The API answers its own failures; this is the bridge itself failing (e.g. while
      // quitting). The renderer still gets the documented error body, never internals.
      const failure = new ApiError('internal', [
        { description: 'Something went wrong on our side. Quote the reference when you report it.' },
      ]);
      const response = errorResponse(failure);
      console.error(`Bridge request failed (reference ${response.body.reference}):`, error);
      return response;
    }
  };
}

function errorResponse(error: ApiError): BridgeResponse & { body: ApiErrorBody } {
  return { status: error.status, headers: { 'content-type': 'application/json' }, body: error.body() };
}

/**
 * Registers the request channel and forwards change events to the app's pages. Returns a
 * function that undoes both. `recipients` exists for tests; the app sends to every window.
 */
export function registerBridge(
  ipcMain: IpcMain,
  instance: Bridgeable,
  isTrustedSender: SenderCheck,
  recipients: () => WebContents[] = allWindows,
): () => void {
  ipcMain.handle(bridgeChannels.request, createBridgeHandler(instance, isTrustedSender));
  const stopForwarding = instance.onChange((events) => {
    for (const contents of recipients()) {
      // The store calls listeners inside its write path: a throw here would turn a committed
      // write into a failed request, so a window that cannot be reached is only logged.
      try {
        if (!contents.isDestroyed() && isAppUrl(contents.getURL())) contents.send(bridgeChannels.change, events);
      } catch (error) {
        console.error('Could not send change events to a window:', error);
      }
    }
  });
  return () => {
    stopForwarding();
    ipcMain.removeHandler(bridgeChannels.request);
  };
}

function allWindows(): WebContents[] {
  return BrowserWindow.getAllWindows().map((window) => window.webContents);
}
