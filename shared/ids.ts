/**
 * Record ids are UUIDv7 strings generated where the record is created (docs/architecture.md "The store"):
 * the timestamp prefix keeps new rows together in SQLite's indexes, and any replica can
 * create ids offline without coordinating. Uses Web Crypto, present in Node 20 and browsers.
 */
import { nowDate, nowMs } from './clock.js';

const hex: string[] = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

let lastMs = 0;
let sequence = 0;

/**
 * Ids made in the same millisecond still sort in creation order: the 12 bits after the
 * timestamp count up within a millisecond (RFC 9562 §6.2, method 1), and a full counter moves
 * on to the next millisecond.
 */
export function uuidv7(now: number = nowMs()): string {
  let ms = Math.max(now, lastMs);
  if (ms === lastMs) {
    sequence++;
    if (sequence > 0xfff) {
      ms++;
      sequence = 0;
    }
  } else {
    sequence = 0;
  }
  lastMs = ms;
  const bytes = new Uint8Array(16);
  globalThis.crypto.getRandomValues(bytes);
  // 48-bit big-endian millisecond timestamp.
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256;
    ms = Math.floor(ms / 256);
  }
  bytes[6] = 0x70 | (sequence >> 8); // version 7 and the counter's high bits
  bytes[7] = sequence & 0xff;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80; // RFC 9562 variant
  let s = '';
  for (let i = 0; i < 16; i++) {
    s += hex[bytes[i]!];
    if (i === 3 || i === 5 || i === 7 || i === 9) s += '-';
  }
  return s;
}

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && uuidPattern.test(value);
}

/** ISO 8601 UTC with `Z` and no fraction, the public API's timestamp shape. */
export function nowTimestamp(date: Date = nowDate()): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
