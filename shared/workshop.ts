/**
 * Workshop mode (docs/decisions/workshop-mode.md): the desktop app serves the floor view (and
 * only it) over HTTPS on the workshop network to paired devices. Settings switches it on and
 * off, chooses its address and port, shows a pairing code and lists the paired devices, through
 * the desktop shell's channels (shared/ipc.ts); main checks every change with
 * `parseWorkshopChange` / `parseDeviceId`.
 *
 * The page never sees a device's key or the certificate's private key: the state holds the
 * certificate's fingerprint, the pairing code (shown to be typed on a device) and, per device,
 * its name and times only.
 */
import type { ListenerProblem } from './listener.js';

/** A fixed default, so a device paired once finds the desktop again after a restart. */
export const defaultWorkshopPort = 4443;
/** Every interface: the opt-in mode that serves the workshop network (docs/decisions/workshop-mode.md). */
export const defaultWorkshopHost = '0.0.0.0';
export const minWorkshopPort = 1024;
export const maxWorkshopPort = 65535;
/** How long a pairing code works (docs/API.md "Workshop mode"). */
export const pairingCodeMinutes = 5;
/** Wrong codes tried before the code on screen stops working. */
export const pairingAttempts = 5;
/** The pairing code's letters: no 0/O, 1/I/L, so a code read off a screen is typed right. */
export const pairingAlphabet = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';
export const pairingCodeLength = 8;
export const maxDeviceNameLength = 60;

export interface WorkshopDevice {
  id: string;
  name: string;
  pairedAt: string;
  /** The last request the device's key opened; null until it made one after pairing. */
  lastUsedAt: string | null;
}

export interface WorkshopPairing {
  code: string;
  expiresAt: string;
  /** What the QR code holds: the pairing page on the first address, with code and fingerprint. */
  url: string;
}

export type WorkshopProblem = ListenerProblem;

export interface WorkshopState {
  enabled: boolean;
  /** The address it listens on: `0.0.0.0` (every interface) by default. */
  host: string;
  port: number;
  /** Where devices reach it: `https://<this computer's address>:<port>/floor/` per network address. */
  addresses: string[];
  /** The certificate's SHA-256 fingerprint (`AB:CD:…`); null until it is first switched on. */
  fingerprint: string | null;
  /** The code on screen, while one is; made with `newPairingCode`. */
  pairing: WorkshopPairing | null;
  devices: WorkshopDevice[];
  /** Why it is off although it was left on (its port was taken when the app started). */
  problem: WorkshopProblem | null;
}

export interface WorkshopChange {
  enabled?: boolean;
  host?: string;
  port?: number;
}

export type WorkshopOutcome =
  { status: 'done'; state: WorkshopState } | { status: 'failed'; state: WorkshopState; problem: WorkshopProblem };

export function isWorkshopPort(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= minWorkshopPort && value <= maxWorkshopPort;
}

/** A dotted IPv4 address (every interface is `0.0.0.0`). */
export function isWorkshopHost(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(value);
  return match !== null && match.slice(1).every((octet) => Number(octet) <= 255 && String(Number(octet)) === octet);
}

/** Validates an untrusted change: `enabled`, `host` and/or `port`, nothing else. */
export function parseWorkshopChange(payload: unknown): WorkshopChange | { error: string } {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return { error: 'the change must be an object' };
  const change: WorkshopChange = {};
  for (const [key, value] of Object.entries(payload)) {
    if (key === 'enabled') {
      if (typeof value !== 'boolean') return { error: 'enabled must be true or false' };
      change.enabled = value;
    } else if (key === 'host') {
      if (!isWorkshopHost(value)) return { error: 'host must be an IPv4 address such as 0.0.0.0 or 192.168.1.10' };
      change.host = value;
    } else if (key === 'port') {
      if (!isWorkshopPort(value)) return { error: `port must be a whole number from ${minWorkshopPort} to ${maxWorkshopPort}` };
      change.port = value;
    } else {
      return { error: `unknown key ${key}` };
    }
  }
  if (Object.keys(change).length === 0) return { error: 'the change needs enabled, host or port' };
  return change;
}

/** Validates an untrusted device id (for Revoke). */
export function parseDeviceId(payload: unknown): { id: string } | { error: string } {
  if (typeof payload !== 'object' || payload === null || Array.isArray(payload)) return { error: 'the request must be an object' };
  const keys = Object.keys(payload);
  // An object, checked above; its one field is read as unknown and checked next.
  const id = (payload as { id?: unknown }).id;
  if (keys.length !== 1 || typeof id !== 'string' || !/^[A-Za-z0-9_-]{1,64}$/.test(id)) return { error: 'the request needs only id' };
  return { id };
}
