/**
 * The command routes (docs/API.md "Commands and undo"): batch commands, undo and the list of
 * recent commands. Each batch command is one call, one transaction and one undo step. Its
 * body is declared in shared/operations/commands.ts and checked against that declaration
 * (422 with field paths, before anything is written; operation-route.ts); the typed input is
 * handed to the command (card-commands.ts, record-commands.ts, replan-command.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import {
  addOvertimeOperation,
  assignCardsOperation,
  editOrderRowsOperation,
  labelCardsOperation,
  moveCardsOperation,
  replanCollectionsOperation,
  setTimeStatusOperation,
  undoCommandOperation,
  type CommandResult,
} from '../../../shared/operations/commands.js';
import { isUuid } from '../../../shared/ids.js';
import { operationRoute } from '../conventions/operation-route.js';
import { ApiError } from '../errors.js';
import { answerIn } from './batch.js';
import { linkCards, moveCards } from './card-commands.js';
import { addOvertime, editOrderRows, setTimeStatus } from './record-commands.js';
import { asCommandOnRecords, checkDescription, commandFor } from './request-command.js';
import { undoCommand, undoMetaFor } from './undo.js';
import { replanCollections } from './replan-command.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { RecordWrites } from '../../store/record-store.js';
import { present } from '../records.js';
import { collectionModule } from '../resources/collection.js';
import { parseShapeOptions } from '../conventions/list-query.js';
import { dryRun } from '../planning/dry-run.js';

export { maxBatchItems } from '../../../shared/operations/commands.js';

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/** `{id, …fields}` items as the commands take them: the id, and the fields to write. */
function edits(items: readonly ({ id: string } & Record<string, unknown>)[]): { id: string; fields: Record<string, unknown> }[] {
  return items.map(({ id, ...fields }) => ({ id, fields }));
}

/**
 * Runs `write` as one command described by the body's `description`, the request header, or
 * `fallback`, in an asynchronous transaction, so on either engine. The body was checked against
 * the operation's declaration (operation-route.ts). A command that changed nothing (every label
 * already on its cards) keeps no command: the undo list gets no step that undoes nothing,
 * and the answer names none (docs/API.md "Commands and undo").
 */
async function batchOnRecords(
  request: FastifyRequest,
  reply: FastifyReply,
  input: { description?: string },
  fallback: string,
  write: (tx: RecordWrites) => Promise<void>,
): Promise<CommandResult> {
  const meta = commandFor(request, fallback);
  if (input.description !== undefined) meta.description = checkDescription(input.description, 'description');
  const changedNothing = (answer: CommandResult) => answer.changed.length === 0;
  const answer = await asCommandOnRecords(
    request,
    reply,
    meta,
    async (tx) => {
      await write(tx);
      return answerIn(tx, meta);
    },
    { wroteNothing: changedNothing },
  );
  return changedNothing(answer) ? { ...answer, command_id: null } : answer;
}

export async function commandRoutes(app: FastifyInstance): Promise<void> {
  operationRoute(app, moveCardsOperation, (request, reply, input) =>
    batchOnRecords(request, reply, input, `Move ${plural(input.cards.length, 'card')}`, (tx) =>
      moveCards(request.ctx, tx, edits(input.cards)),
    ),
  );

  /** Add and remove are what a link command does: one of them at least. */
  const linkChange = (input: { cards: string[]; add?: string[]; remove?: string[] }) => {
    if (input.add === undefined && input.remove === undefined)
      throw ApiError.unprocessable([{ field: 'add', description: 'send add, remove or both' }]);
    return { cards: input.cards, add: input.add ?? [], remove: input.remove ?? [] };
  };

  operationRoute(app, labelCardsOperation, (request, reply, input) => {
    const change = linkChange(input);
    return batchOnRecords(request, reply, input, `Label ${plural(change.cards.length, 'card')}`, (tx) =>
      linkCards(request.ctx, tx, 'labels', change),
    );
  });

  // A card dragged from one person's row onto another's: assigned to them instead, and its dates
  // following the drop (`move`), as one command (docs/API.md "Commands and undo").
  operationRoute(app, assignCardsOperation, (request, reply, input) => {
    const change = linkChange(input);
    const moves = edits(input.move ?? []);
    const given = new Set(change.cards.map((id) => id.toLowerCase()));
    const strays = moves.flatMap((move, index) =>
      given.has(move.id.toLowerCase()) ? [] : [{ field: `move.${index}.id`, description: `move.${index}.id is not one of cards` }],
    );
    if (strays.length > 0) throw ApiError.unprocessable(strays);
    return batchOnRecords(request, reply, input, `Assign ${plural(change.cards.length, 'card')}`, async (tx) => {
      await linkCards(request.ctx, tx, 'resources', change);
      if (moves.length > 0) await moveCards(request.ctx, tx, moves, 'move');
    });
  });

  operationRoute(app, setTimeStatusOperation, (request, reply, input) =>
    batchOnRecords(request, reply, input, `Set ${plural(input.entries.length, 'time entry', 'time entries')} to ${input.status}`, (tx) =>
      setTimeStatus(request.ctx, tx, input.entries, input.status),
    ),
  );

  operationRoute(app, editOrderRowsOperation, (request, reply, input) =>
    batchOnRecords(request, reply, input, `Edit ${plural(input.rows.length, 'order row')}`, (tx) =>
      editOrderRows(request.ctx, tx, edits(input.rows)),
    ),
  );

  operationRoute(app, addOvertimeOperation, (request, reply, input) => {
    const minutes = input.overtime.reduce((total, day) => total + day.minutes, 0);
    return batchOnRecords(request, reply, input, `Add ${Math.round(minutes / 6) / 10} h of overtime`, (tx) =>
      addOvertime(request.ctx, tx, input.overtime),
    );
  });

  operationRoute(app, replanCollectionsOperation, async (request, reply, input) => {
    let planned: StoredRecord[] = [];
    const { description: _given, dry_run: dry, ...replan } = input;
    const shape = { ...parseShapeOptions({}), with: ['cards'] };
    if (dry) {
      // The new plans, made and rolled back (planning/dry-run.ts): what "Replan late…" shows
      // before the planner commits, one collection's new end beside its old one.
      return dryRun(request.ctx, async (tx, inside) => ({
        command_id: null,
        description: input.description ?? `Replan ${plural(input.collection_ids.length, 'collection')}`,
        changed: [],
        dry_run: true,
        data: await present(inside, collectionModule, await replanCollections(request.ctx, tx, replan), shape),
      }));
    }
    const answer = await batchOnRecords(
      request,
      reply,
      input,
      `Replan ${plural(input.collection_ids.length, 'collection')}`,
      async (tx) => {
        planned = await replanCollections(request.ctx, tx, replan);
      },
    );
    return { ...answer, data: await present(request.ctx, collectionModule, planned, shape) };
  });

  operationRoute(app, undoCommandOperation, async (request, reply) => {
    const id = (request.params.id ?? '').toLowerCase();
    if (!isUuid(id)) throw ApiError.notFound('No command with that id.');
    const meta = await undoMetaFor(request.ctx.records, id, commandFor(request, ''));
    return asCommandOnRecords(request, reply, meta, async (tx) => {
      await undoCommand(request.ctx, tx, meta, id);
      return answerIn(tx, meta);
    });
  });

  app.get<{ Querystring: Record<string, string | string[] | undefined> }>(
    '/command',
    { config: { doc: { summary: 'Recent commands, newest first', tag: 'Commands', query: { limit: '1–1000, default 50.' } } } },
    async (request) => {
      const raw = request.query.limit;
      if (Array.isArray(raw)) throw ApiError.badRequest('Send limit once.');
      const limit = raw === undefined ? 50 : Number(raw);
      if (!/^\d+$/.test(raw ?? '50') || limit < 1 || limit > 1000) throw ApiError.badRequest('limit must be a whole number from 1 to 1000');
      return {
        data: (await request.ctx.records.recentCommands(limit)).map(({ id, description, undoes, created_at }) => ({
          id,
          description,
          undoes,
          created_at,
        })),
      };
    },
  );
}
