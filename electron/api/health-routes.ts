/**
 * Health checks for what stands in front of the server: a reverse proxy, a load balancer over
 * several nodes, an orchestrator (docs/API.md "Health checks").
 *
 *   GET /health/live    200 while the process answers requests at all (restart it when not)
 *   GET /health/ready   200 when it can serve: its databases answer and it is not stopping;
 *                       503 with the reasons otherwise (send requests elsewhere meanwhile)
 *
 * Every request is authenticated, these too: they need the operator's health token in
 * `x-health-token`. It opens nothing but these two routes, so a proxy's configuration holds no
 * key to anyone's data. A server started without a token has no health routes (404).
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, sendError } from './errors.js';

export interface HealthOptions {
  token: string;
  /** Why the server cannot serve now, in words; empty when it can. */
  problems(): string[] | Promise<string[]>;
}

/** Shortest token the server takes: a guessable token would make the checks open to anyone. */
export const minHealthTokenLength = 16;

const digest = (text: string) => createHash('sha256').update(text).digest();

export function registerHealthRoutes(app: FastifyInstance, options: HealthOptions): void {
  // Compared as digests, so neither the length nor the content leaks through timing.
  const wanted = digest(options.token);
  const authenticate = async (request: FastifyRequest) => {
    const given = request.headers['x-health-token'];
    if (typeof given !== 'string' || !timingSafeEqual(digest(given), wanted))
      throw ApiError.notLoggedIn('Send the health token of this server in x-health-token.');
  };
  const check = { onRequest: authenticate };

  app.get('/health/live', check, async () => ({ status: 'live' }));
  app.get('/health/ready', check, async (_request, reply) => {
    const problems = await options.problems();
    if (problems.length === 0) return { status: 'ready' };
    return sendError(
      reply,
      new ApiError(
        'unavailable',
        problems.map((description) => ({ description })),
      ),
    );
  });
}
