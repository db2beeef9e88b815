/**
 * A sliding-window rate limit, in memory, per key (IP + client id): at most `limit` requests in
 * any `windowMs`. Every answer of a limited endpoint carries `RateLimit-Limit`,
 * `RateLimit-Remaining` and `RateLimit-Reset` (seconds until a request is free again), as real
 * clients of the public API read them; over the limit the answer is 429 with `Retry-After`.
 * No timers: old entries are dropped when keys are touched or the table grows.
 */
import type { FastifyReply } from 'fastify';
import { ApiError } from '../errors.js';

export interface RateLimitOptions {
  limit: number;
  windowMs: number;
}

export const defaultRateLimit: RateLimitOptions = { limit: 20, windowMs: 60_000 };

const sweepAbove = 10_000;

export class SlidingWindowLimiter {
  private readonly hits = new Map<string, number[]>();

  constructor(private readonly options: RateLimitOptions) {}

  /** Counts one request for `key`; sets the headers, and throws a 429 when over the limit. */
  take(key: string, reply: FastifyReply, now: number = Date.now()): void {
    const { limit, windowMs } = this.options;
    if (this.hits.size > sweepAbove) this.sweep(now);
    const recent = (this.hits.get(key) ?? []).filter((t) => t > now - windowMs);
    const allowed = recent.length < limit;
    if (allowed) recent.push(now);
    this.hits.set(key, recent);
    const reset = recent.length > 0 ? Math.max(1, Math.ceil((recent[0]! + windowMs - now) / 1000)) : 0;
    const headers = {
      'ratelimit-limit': String(limit),
      'ratelimit-remaining': String(Math.max(0, limit - recent.length)),
      'ratelimit-reset': String(reset),
    };
    reply.headers(headers);
    if (!allowed) {
      throw new ApiError('tooManyRequests', [{ description: `Too many requests; try again in ${reset} s.` }], { ...headers, 'retry-after': String(reset) });
    }
  }

  private sweep(now: number): void {
    for (const [key, times] of this.hits) {
      if (!times.some((t) => t > now - this.options.windowMs)) this.hits.delete(key);
    }
  }
}
