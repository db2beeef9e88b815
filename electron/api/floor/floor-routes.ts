/**
 * The floor's routes (docs/API.md "The floor"):
 *
 *   GET  /v1/floor/jobs?date=YYYY-MM-DD   the caller's jobs that day, then the next
 *   POST /v1/floor/start                  {card_id, at, command_id?}
 *   POST /v1/floor/pause                  {card_id, at, command_id?}
 *   POST /v1/floor/finish                 {card_id, at, command_id?}
 *   POST /v1/floor/quantities             {card_id, order_row_id, made, scrapped, note?, at, command_id?}
 *
 * Each action is one command (docs/architecture.md "Commands and undo") named by the device's
 * `command_id`: sent again, it answers what that command did and writes nothing more. The bodies
 * are declared in shared/operations/floor.ts (docs/architecture.md "Operations").
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { BodyOf } from '../../../shared/operation.js';
import {
  floorFinishOperation,
  floorPauseOperation,
  floorQuantitiesOperation,
  floorStartOperation,
  type FloorActionResult,
} from '../../../shared/operations/floor.js';
import type { CommandMeta } from '../../store/changes.js';
import type { RecordWrites } from '../../store/record-store.js';
import { answerIn } from '../commands/batch.js';
import { asCommandOnRecords, commandFor } from '../commands/request-command.js';
import { single, type QueryString } from '../conventions/list-query.js';
import { operationRoute } from '../conventions/operation-route.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../resource.js';
import { finishJob, floorJobs, floorOperator, operatorsToday, pauseJob, reportQuantities, startJob, tapInstant } from './floor.js';

type FloorOperation = typeof floorStartOperation | typeof floorQuantitiesOperation;

/** The command a floor action is: the body's `command_id` (else the header's, else a new one). */
function floorCommand(request: FastifyRequest, description: string, commandId: string | undefined): CommandMeta {
  const meta = commandFor(request, description);
  return commandId ? { ...meta, id: commandId.toLowerCase() } : meta;
}

/** What a command id used before did, when it was this caller's; 409 for anyone else's. */
async function replayed(ctx: RequestContext, meta: CommandMeta): Promise<FloorActionResult> {
  return ctx.records.transaction(async (tx) => {
    const done = await tx.commands.find(meta.id);
    if (!done || done.actor !== meta.actor) throw ApiError.conflict(`A command with id ${meta.id} was done already.`);
    const answer = await answerIn(tx, { ...meta, description: done.description });
    return { command_id: answer.command_id, replayed: true, changed: answer.changed };
  });
}

export function registerFloorRoutes(app: FastifyInstance): void {
  function floorRoute<O extends FloorOperation>(
    operation: O,
    write: (ctx: RequestContext, tx: RecordWrites, input: BodyOf<O>, at: string) => Promise<boolean>,
  ): void {
    operationRoute(app, operation, async (request: FastifyRequest, reply: FastifyReply, input: BodyOf<O>) => {
      const { ctx } = request;
      const at = tapInstant(input.at);
      await floorOperator(ctx);
      const meta = floorCommand(request, operation.summary, input.command_id);
      const answer = await asCommandOnRecords<FloorActionResult | null>(
        request,
        reply,
        meta,
        async (tx) => {
          if (!(await write(ctx, tx, input, at))) return null;
          const done = await answerIn(tx, meta);
          return { command_id: done.command_id, replayed: false, changed: done.changed };
        },
        { wroteNothing: (result) => result === null, replay: (taken) => replayed(ctx, taken) },
      );
      return answer ?? { command_id: null, replayed: false, changed: [] };
    });
  }

  floorRoute(floorStartOperation, (ctx, tx, input, at) => startJob(ctx, tx, input.card_id, at));
  floorRoute(floorPauseOperation, (ctx, tx, input, at) => pauseJob(ctx, tx, input.card_id, at));
  floorRoute(floorFinishOperation, (ctx, tx, input, at) => finishJob(ctx, tx, input.card_id, at));
  floorRoute(floorQuantitiesOperation, (ctx, tx, input) => reportQuantities(ctx, tx, input));

  app.get<{ Querystring: QueryString }>(
    '/floor/jobs',
    {
      config: {
        doc: {
          summary: "The caller's jobs: their resource's cards on a day, then the next, in the planner's order",
          tag: 'Floor',
          query: { date: "The day, YYYY-MM-DD (default: today in the user's time zone)." },
        },
      },
    },
    async (request) => {
      const given = single(request.query, 'date');
      if (given !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(given)) throw ApiError.badRequest('date must be YYYY-MM-DD');
      const date = given ?? operatorsToday(await floorOperator(request.ctx));
      return floorJobs(request.ctx, date);
    },
  );
}
