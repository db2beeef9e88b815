/**
 * How many routes a Fastify app has, read from its own `printRoutes` tree, independent of the
 * route collection the OpenAPI document is built from. (The tree merges parameters that sit
 * at the same position, `{id}|{order_id}`, so it is used for counting; `hasRoute` checks each
 * documented route exists.)
 */
import type { FastifyInstance } from 'fastify';

export function countRegisteredRoutes(app: FastifyInstance): number {
  let count = 0;
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /[├└]── \S+ \(([^)]*)\)/.exec(line);
    if (!m) continue;
    count += m[1]!
      .split(',')
      .map((s) => s.trim())
      .filter((method) => method && method !== 'HEAD').length;
  }
  return count;
}

/** `GET /v1/order/{id}` → does the app route exactly that? */
export function hasDocumentedRoute(app: FastifyInstance, route: string): boolean {
  const [method, path] = route.split(' ') as [string, string];
  return app.hasRoute({ method: method as 'GET', url: path.replace(/\{(\w+)\}/g, ':$1') });
}
