/**
 * How a delivery proves it came from this instance (docs/API.md "Verifying a delivery"):
 * `x-planner-signature: sha256=<hex HMAC-SHA256 of "<timestamp>.<body>">` keyed with the
 * webhook's secret, where `<timestamp>` is the `x-planner-timestamp` header (Unix seconds).
 * Signing the timestamp with the body lets a receiver refuse old deliveries replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { nowMs } from '../../../shared/clock.js';

export const signatureHeader = 'x-planner-signature';
export const timestampHeader = 'x-planner-timestamp';
export const deliveryHeader = 'x-planner-delivery';
export const eventHeader = 'x-planner-event';

export function signDelivery(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

/** The check a receiver makes; here for tests and as the reference for the docs' sample. */
export function verifyDelivery(
  secret: string,
  timestamp: string,
  body: string,
  signature: string,
  toleranceSeconds = 300,
  now = nowMs(),
): boolean {
  const seconds = Number(timestamp);
  if (!Number.isInteger(seconds) || Math.abs(now / 1000 - seconds) > toleranceSeconds) return false;
  const expected = Buffer.from(signDelivery(secret, timestamp, body));
  const actual = Buffer.from(signature);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
