/**
 * The hardening every page of the app runs under (docs/architecture.md "Electron security"). Kept as data so tests
 * can assert it exactly, and so a weakened flag shows up as a one-line diff in review.
 */
import type { Session, WebPreferences } from 'electron';

import { contentSecurityPolicy } from '../../shared/csp.js';

export { contentSecurityPolicy };

/**
 * The renderer is treated as untrusted web content: no Node, an isolated preload world, the
 * Chromium sandbox, and none of the switches that relax the same-origin model. The preload
 * path is added where the window is made, since it depends on where the build put it.
 */
export const secureWebPreferences = Object.freeze({
  contextIsolation: true,
  sandbox: true,
  nodeIntegration: false,
  nodeIntegrationInWorker: false,
  nodeIntegrationInSubFrames: false,
  webSecurity: true,
  allowRunningInsecureContent: false,
  experimentalFeatures: false,
  webviewTag: false,
} as const satisfies WebPreferences);

/**
 * A planning app needs no camera, location, notifications or devices, so every permission is
 * refused without asking: a compromised page cannot talk the user into granting one.
 * The CSP also goes on every response the session sees, in case a page is ever served by
 * something other than our protocol handler (which sets it too).
 */
export function secureSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, _permission, callback) => callback(false));
  session.setPermissionCheckHandler(() => false);
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({
      responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [contentSecurityPolicy] },
    });
  });
}
