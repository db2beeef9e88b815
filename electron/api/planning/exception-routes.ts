/**
 * GET /v1/exception: the exception inbox (docs/API.md "Exceptions"), with `kind`, `board_id`,
 * `horizon_workdays`, `user_id` and `handled`; GET /v1/why_late: why its late collections are
 * late, and the bottlenecks (docs/API.md "Why late"), with `board_id` and `collection_id`.
 */
import type { FastifyInstance } from 'fastify';
import { defaultHorizonWorkdays, exceptionKinds, maxHorizonWorkdays, type ExceptionKind } from '../../../shared/exceptions.js';
import { isUuid } from '../../../shared/ids.js';
import { single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { readRecord } from '../records.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { boardModule } from '../resources/board.js';
import { collectionModule } from '../resources/collection.js';
import { ownHandlingMessage } from '../resources/exception-handling.js';
import { listExceptions, type ExceptionQuery } from './exceptions.js';
import { whyLate, type WhyLateQuery } from './why-late.js';

const isKind = (value: string): value is ExceptionKind => exceptionKinds.some((kind) => kind === value);

async function exceptionQuery(ctx: RequestContext, query: QueryString): Promise<ExceptionQuery> {
  const kind = single(query, 'kind') || undefined;
  if (kind !== undefined && !isKind(kind)) throw ApiError.badRequest(`kind must be one of ${exceptionKinds.join(', ')}, got '${kind}'`);
  const boardId = await existing(ctx, query, 'board_id', boardModule);
  const horizonText = single(query, 'horizon_workdays') || String(defaultHorizonWorkdays);
  const horizon = Number(horizonText);
  if (!/^\d+$/.test(horizonText) || horizon < 1 || horizon > maxHorizonWorkdays) {
    throw ApiError.badRequest(`horizon_workdays must be a whole number from 1 to ${maxHorizonWorkdays}, got '${horizonText}'`);
  }
  const handledText = single(query, 'handled') || 'false';
  if (handledText !== 'true' && handledText !== 'false') throw ApiError.badRequest(`handled must be true or false, got '${handledText}'`);
  const named = single(query, 'user_id') || undefined;
  if (named !== undefined && !isUuid(named)) throw ApiError.badRequest(`user_id must be a uuid, got '${named}'`);
  // A signed-in user sees their own handling; an API key (an integration, the app's bridge) may name whose.
  if (named !== undefined && ctx.caller.kind === 'user' && named.toLowerCase() !== ctx.caller.userId)
    throw ApiError.forbidden(ownHandlingMessage);
  return {
    ...(kind ? { kind } : {}),
    ...(boardId ? { boardId } : {}),
    horizon,
    userId: named?.toLowerCase() ?? ctx.caller.userId ?? null,
    handled: handledText === 'true',
  };
}

/** A uuid of a record that is there (404 otherwise), lower case; undefined when not given. */
async function existing(ctx: RequestContext, query: QueryString, name: string, module: ResourceModule): Promise<string | undefined> {
  const id = single(query, name) || undefined;
  if (id === undefined) return undefined;
  if (!isUuid(id)) throw ApiError.badRequest(`${name} must be a uuid, got '${id}'`);
  // Answers the 404 for a record that is not there.
  await readRecord(ctx, module, id.toLowerCase());
  return id.toLowerCase();
}

async function whyLateQuery(ctx: RequestContext, query: QueryString): Promise<WhyLateQuery> {
  const boardId = await existing(ctx, query, 'board_id', boardModule);
  const collectionId = await existing(ctx, query, 'collection_id', collectionModule);
  return { ...(boardId ? { boardId } : {}), ...(collectionId ? { collectionId } : {}) };
}

export function registerExceptionRoutes(app: FastifyInstance): void {
  app.get<{ Querystring: QueryString }>(
    '/why_late',
    {
      config: {
        doc: {
          summary:
            'Why each late collection is late, in one sentence with the days, and the stages and people that make the most collections late, per week',
          tag: 'Exceptions',
          query: {
            board_id: 'Only late collections of this board.',
            collection_id: 'Only this collection (an empty list when it is not late).',
          },
        },
      },
    },
    async (request) => whyLate(request.ctx, await whyLateQuery(request.ctx, request.query)),
  );

  app.get<{ Querystring: QueryString }>(
    '/exception',
    {
      config: {
        doc: {
          summary: 'The exception inbox: what needs the planner, worked out from the records now',
          tag: 'Exceptions',
          query: {
            kind: `Only this kind: ${exceptionKinds.join(', ')}.`,
            board_id: 'Only items of this board.',
            horizon_workdays: `Workdays ahead for over_capacity and unplanned_due (default ${defaultHorizonWorkdays}, at most ${maxHorizonWorkdays}).`,
            user_id: "Whose handling (seen, snoozed) leaves items out: default the caller's user; a signed-in user names only themselves.",
            handled: 'true: list handled items too, each with its handling (default false).',
          },
        },
      },
    },
    async (request) => listExceptions(request.ctx, await exceptionQuery(request.ctx, request.query)),
  );
}
