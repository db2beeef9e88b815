/**
 * A sliding-window rate limit, in memory, per key: at most `limit` events in any `windowMs`.
 * One limiter serves every limit of the API: the OAuth sign-in and token endpoints (counted per
 * IP and client, docs/API.md "Rate limits") and failed authentication (counted per address,
 * docs/API.md "Authentication"), on the API and on the local API.
 *
 * Its memory is bounded whatever anonymous callers send: at most `maxKeys` keys, the least
 * recently used dropped first; each key holds at most `limit` times; a key longer than
 * 128 characters is kept as its SHA-256 digest. No timers: old times go when a key is touched.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply } from 'fastify';
import { ApiError, toApiError } from './errors.js';
import { nowMs } from '../../shared/clock.js';

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
  /** Keys kept at most (default 10,000): about 3 MB at the most with 20 times per key. */
  maxKeys?: number;
}

export interface RateLimitState {
  /** False when the key is at its limit (`take` then counted nothing). */
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until an event is free again (0 when nothing is counted). */
  resetSeconds: number;
}

export const defaultRateLimit: RateLimitOptions = { limit: 20, windowMs: 60_000 };

const defaultMaxKeys = 10_000;
const longestKeptKey = 128;

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();
  private readonly maxKeys: number;

  constructor(private readonly options: RateLimitOptions) {
    this.maxKeys = Math.max(1, options.maxKeys ?? defaultMaxKeys);
  }

  /** How many keys it keeps now (never more than `maxKeys`). */
  get size(): number {
    return this.hits.size;
  }

  /** Counts one event for `key` unless it is at its limit; says where the key stands. */
  take(key: string, now: number = nowMs()): RateLimitState {
    return this.touch(key, now, true);
  }

  /** Where `key` stands, counting nothing. */
  peek(key: string, now: number = nowMs()): RateLimitState {
    return this.touch(key, now, false);
  }

  private touch(key: string, now: number, count: boolean): RateLimitState {
    const { limit, windowMs } = this.options;
    const name = key.length > longestKeptKey ? createHash('sha256').update(key).digest('base64url') : key;
    const kept = this.hits.get(name);
    const recent = kept ? kept.filter((t) => t > now - windowMs) : [];
    const allowed = recent.length < limit;
    if (allowed && count) recent.push(now);
    // Deleting and setting again moves the key to the end of the Map's order, so the first key
    // is always the least recently used one: the one to drop when the table is full.
    this.hits.delete(name);
    if (recent.length > 0) this.hits.set(name, recent);
    while (this.hits.size > this.maxKeys) this.hits.delete(this.hits.keys().next().value!);
    return {
      allowed,
      limit,
      remaining: Math.max(0, limit - recent.length),
      resetSeconds: recent.length > 0 ? Math.max(1, Math.ceil((recent[0]! + windowMs - now) / 1000)) : 0,
    };
  }
}

/** The `RateLimit-*` headers real clients of the public API read. */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    'ratelimit-limit': String(state.limit),
    'ratelimit-remaining': String(state.remaining),
    'ratelimit-reset': String(state.resetSeconds),
  };
}

/** 429 with the error body, the `RateLimit-*` headers and `Retry-After`. */
export function tooManyRequests(state: RateLimitState, description: string): ApiError {
  const retryAfter = Math.max(1, state.resetSeconds);
  return new ApiError('tooManyRequests', [{ description: `${description} Try again in ${retryAfter} s.` }], {
    ...rateLimitHeaders(state),
    'retry-after': String(retryAfter),
  });
}

/**
 * What counts the requests of a limited endpoint: this process's SlidingWindowLimiter, or a team
 * server's PostgresRateLimiter, which every node shares (store/postgres/rate-limits.ts).
 */
export interface RequestLimiter {
  take(key: string): RateLimitState | Promise<RateLimitState>;
  peek(key: string): RateLimitState | Promise<RateLimitState>;
}

/** Counts one request of a limited endpoint: sets the headers, and throws a 429 over the limit. */
export async function limitRequest(limiter: RequestLimiter, key: string, reply: FastifyReply): Promise<void> {
  const state = await limiter.take(key);
  reply.headers(rateLimitHeaders(state));
  if (!state.allowed) throw tooManyRequests(state, 'Too many requests.');
}

/**
 * A refused request of an endpoint that counts refusals, not requests (the OAuth token
 * endpoint): counts it, sets the headers, and answers what to throw: the refusal itself, or a
 * 429 past the limit. A failure of the server's own (a 5xx) is not the caller's and is not counted.
 */
export async function countedRefusal(
  limiter: RequestLimiter,
  key: string,
  reply: FastifyReply,
  error: unknown,
  description: string,
): Promise<unknown> {
  const refusal = toApiError(error);
  if (!refusal || refusal.status >= 500) return error;
  const state = await limiter.take(key);
  reply.headers(rateLimitHeaders(state));
  return state.allowed ? error : tooManyRequests(state, description);
}
