/**
 * What the desktop shell's own HTTP listeners (the local API on 127.0.0.1, workshop mode on the
 * workshop network) do alike: read their settings file, word a port that would not open, and
 * stop without waiting for programs that keep connections alive.
 */
import type { Server } from 'node:http';
import type { ListenerProblem } from '../../shared/listener.js';
import { readJsonFile } from './json-file.js';

/**
 * A listener's settings file as an object. A missing, damaged or hand-edited file reads as the
 * fields it has, so each caller keeps the good values and the default for the rest.
 */
export function readSettingsObject(path: string): Record<string, unknown> {
  const stored = readJsonFile(path);
  // A JSON object (checked just above) is a record of unknown values.
  return typeof stored === 'object' && stored !== null && !Array.isArray(stored) ? (stored as Record<string, unknown>) : {};
}

/** Why `listen` failed, in English for logs and scripts; the settings page words the known reasons itself. */
export function listenProblemOf(error: NodeJS.ErrnoException, listener: string, host: string, port: number): ListenerProblem {
  if (error.code === 'EADDRINUSE')
    return { reason: 'port-in-use', port, message: `Port ${port} is already in use by another program; choose another port.` };
  if (error.code === 'EACCES')
    return { reason: 'port-not-allowed', port, message: `Port ${port} may not be used on this computer; choose another port.` };
  if (error.code === 'EADDRNOTAVAIL')
    return { reason: 'address-not-available', port, message: `${host} is not an address of this computer.` };
  return { reason: 'other', port, message: `${listener} could not open port ${port}: ${error.message}` };
}

/** Both listeners' servers (HTTP and HTTPS) can close and drop their open connections. */
export function stopServer(server: Pick<Server, 'close' | 'closeAllConnections'>): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    // Programs keep connections alive; switching off must not wait for them to hang up.
    server.closeAllConnections();
  });
}
