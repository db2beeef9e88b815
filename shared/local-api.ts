/**
 * The local API: the Planning API served over HTTP on 127.0.0.1 for other programs on this
 * computer (a spreadsheet, a script), with a key made for it. Settings switches it on and off,
 * chooses its port and makes a new key, through the desktop shell's channels or the browser
 * host's `/host/local-api` endpoints; both hosts check a change with `parseLocalApiChange`, so
 * they refuse exactly the same input.
 *
 * The key is a secret: only its hash is stored, and the page sees it once, in the answer to the
 * request that made it. Every other answer carries the state alone.
 */
import type { ListenerProblem } from './listener.js';

/** A fixed default, so an integration set up once keeps finding the API after a restart. */
export const defaultLocalApiPort = 4317;
/** Ports below 1024 need administrator rights on most systems. */
export const minLocalApiPort = 1024;
export const maxLocalApiPort = 65535;

export interface LocalApiState {
  /** Serving now. */
  enabled: boolean;
  /** The port it serves on, or will serve on once switched on. */
  port: number;
  /** The API's base URL on that port, e.g. `http://127.0.0.1:4317/v1`. */
  url: string;
  /** What a program sends as `x-api-env`. */
  environment: string;
  /** When the working key was made; null when there is none (never switched on, or a restore dropped it). */
  keyMadeAt: string | null;
  /** Why it is off although it was left on (e.g. its port was taken when the app started). */
  problem: LocalApiProblem | null;
}

/** Why switching on (or moving to another port) did not work. */
export type LocalApiProblem = ListenerProblem;

/** Switch on or off, and/or choose the port (moved at once when it is on). */
export interface LocalApiChange {
  enabled?: boolean;
  port?: number;
}

/**
 * The answer to a change or a new key. `key` is there only when a key was just made: the one
 * time the page (and the planner) ever see it. A failed change leaves everything as it was.
 */
export type LocalApiOutcome =
  { status: 'done'; state: LocalApiState; key?: string } | { status: 'failed'; state: LocalApiState; problem: LocalApiProblem };

export function localApiUrl(port: number): string {
  return `http://127.0.0.1:${port}/v1`;
}

export function isLocalApiPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= minLocalApiPort && value <= maxLocalApiPort;
}

/** Validates an untrusted change: an object with `enabled` (boolean) and/or `port`, nothing else. */
export function parseLocalApiChange(payload: unknown): LocalApiChange | { error: string } {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return { error: 'the change must be an object' };
  const change: LocalApiChange = {};
  for (const [key, value] of Object.entries(payload)) {
    if (key === 'enabled') {
      if (typeof value !== 'boolean') return { error: 'enabled must be true or false' };
      change.enabled = value;
    } else if (key === 'port') {
      if (!isLocalApiPort(value)) return { error: `port must be a whole number from ${minLocalApiPort} to ${maxLocalApiPort}` };
      change.port = value;
    } else {
      return { error: `unknown key ${key}` };
    }
  }
  if (change.enabled === undefined && change.port === undefined) return { error: 'the change needs enabled or port' };
  return change;
}
