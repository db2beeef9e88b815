/**
 * GET /v1/exception: the exception inbox (docs/API.md "Exceptions"), with `kind`, `board_id`,
 * `horizon_workdays`, `user_id` and `handled`.
 */
import type { FastifyInstance } from 'fastify';
import { defaultHorizonWorkdays, exceptionKinds, maxHorizonWorkdays, type ExceptionKind } from '../../../shared/exceptions.js';
import { isUuid } from '../../../shared/ids.js';
import { single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { readRecord } from '../records.js';
import type { RequestContext } from '../resource.js';
import { boardModule } from '../resources/board.js';
import { ownHandlingMessage } from '../resources/exception-handling.js';
import { listExceptions, type ExceptionQuery } from './exceptions.js';

const isKind = (value: string): value is ExceptionKind => exceptionKinds.some((kind) => kind === value);

async function exceptionQuery(ctx: RequestContext, query: QueryString): Promise<ExceptionQuery> {
  const kind = single(query, 'kind') || undefined;
  if (kind !== undefined && !isKind(kind)) throw ApiError.badRequest(`kind must be one of ${exceptionKinds.join(', ')}, got '${kind}'`);
  const boardId = single(query, 'board_id') || undefined;
  if (boardId !== undefined && !isUuid(boardId)) throw ApiError.badRequest(`board_id must be a uuid, got '${boardId}'`);
  // Answers the 404 for a board that is not there.
  if (boardId !== undefined) await readRecord(ctx, boardModule, boardId.toLowerCase());
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
    ...(boardId ? { boardId: boardId.toLowerCase() } : {}),
    horizon,
    userId: named?.toLowerCase() ?? ctx.caller.userId ?? null,
    handled: handledText === 'true',
  };
}

export function registerExceptionRoutes(app: FastifyInstance): void {
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
