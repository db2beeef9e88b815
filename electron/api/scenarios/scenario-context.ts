/**
 * A request inside a scenario (docs/API.md "Scenarios"): with `x-planner-scenario: <id>`, every
 * route but the scenario routes themselves reads and writes the scenario's copy of the plan
 * instead of the live one. The scenario's store has no outbox and no webhook events
 * (electron/store/scenario-book.ts, electron/store/postgres/scenario-book.ts), so nothing written there leaves it. Sync routes refuse
 * the header: a scenario is never pulled from, pushed to or synced.
 */
import type { FastifyRequest } from 'fastify';
import { isUuid } from '../../../shared/ids.js';
import { scenarioHeader } from '../../../shared/operations/scenarios.js';
import { ApiError } from '../errors.js';
import { contextOnRecords, type RequestContext } from '../resource.js';

export function unknownScenario(): ApiError {
  return ApiError.notFound(`No scenario with that id in this environment (${scenarioHeader}); GET /v1/scenario lists them.`);
}

/** The request's context in the scenario its header names; the context as it is without the header. */
export async function inScenario(request: FastifyRequest, ctx: RequestContext): Promise<RequestContext> {
  const value = request.headers[scenarioHeader];
  if (value === undefined) return ctx;
  if (Array.isArray(value)) throw ApiError.badRequest(`Send ${scenarioHeader} once.`);
  const url = request.routeOptions.url ?? '';
  // The scenario routes always act on the live plan: they fork it, compare with it, promote onto it.
  if (url === '/v1/scenario' || url.startsWith('/v1/scenario/')) return ctx;
  if (url.startsWith('/v1/sync/')) throw ApiError.badRequest(`Sync does not run inside a scenario: send no ${scenarioHeader} header.`);
  const book = ctx.records.scenarios;
  const id = value.trim().toLowerCase();
  const records = isUuid(id) ? await book.records(id) : undefined;
  if (!records) throw unknownScenario();
  return contextOnRecords(ctx, records);
}
