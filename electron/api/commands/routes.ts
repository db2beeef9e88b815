/**
 * The command routes (docs/API.md "Commands and undo"): batch commands, undo and the list of
 * recent commands. Each batch command is one call, one transaction and one undo step; its
 * body is checked here (422 with field paths, before anything is written) and the typed
 * input handed to the command (card-commands.ts, record-commands.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FieldProblem } from '../../../shared/errors.js';
import { isPlainObject, isValidDate } from '../../../shared/fields.js';
import { isUuid } from '../../../shared/ids.js';
import { timeStatuses } from '../../../shared/resources/time-tracking.js';
import { recentCommands } from '../../store/command-book.js';
import { requiredBody } from '../conventions/request-body.js';
import { ApiError } from '../errors.js';
import type { RouteDoc } from '../route-doc.js';
import { answerOf, type CommandAnswer } from './batch.js';
import { linkCards, moveCards, moveFields, type CardMove } from './card-commands.js';
import { editOrderRows, setTimeStatus, type OrderRowEdit } from './record-commands.js';
import { checkDescription, commandFor, runCommand } from './request-command.js';
import { undoCommand, undoMetaFor } from './undo.js';
import { replanCollections, type Replan } from './replan-command.js';
import type { StoredRecord } from '../../store/environment-store.js';
import { present } from '../records.js';
import { collectionModule } from '../resources/collection.js';
import { parseShapeOptions } from '../conventions/list-query.js';

/** Most items one batch command takes: a planboard selection is far below it. */
export const maxBatchItems = 1000;

const answerDescription = 'The command: its id (for undo), description and the records it wrote';

function doc(summary: string, body?: Record<string, unknown>): { config: { doc: RouteDoc } } {
  return {
    config: {
      doc: {
        summary,
        tag: 'Commands',
        ...(body ? { body } : {}),
        ...(body ? { success: { status: 200, description: answerDescription } } : {}),
      },
    },
  };
}

const ids = { type: 'array', items: { type: 'string', format: 'uuid' }, maxItems: maxBatchItems };
const description = {
  type: 'string',
  maxLength: 200,
  description: 'What the planner did, shown in undo lists (a default is made when left out).',
};

/** A list of at most `maxBatchItems` items under `name`; problems for anything else. */
function listOf(body: Record<string, unknown>, name: string, problems: FieldProblem[], required = true): unknown[] {
  const value = body[name];
  if (value === undefined && !required) return [];
  if (!Array.isArray(value) || (required && value.length === 0) || value.length > maxBatchItems) {
    problems.push({ field: name, description: `${name} must be a list of ${required ? '1' : '0'} to ${maxBatchItems} items` });
    return [];
  }
  return value;
}

function idsOf(body: Record<string, unknown>, name: string, problems: FieldProblem[], required = true): string[] {
  const out: string[] = [];
  listOf(body, name, problems, required).forEach((id, index) => {
    if (isUuid(id)) out.push(id.toLowerCase());
    else problems.push({ field: `${name}.${index}`, description: `${name}.${index} must be a UUID` });
  });
  return out;
}

/** A list of `{id, …fields}` objects, each id a UUID and each field one of `allowed` (when given). */
function editsOf(
  body: Record<string, unknown>,
  name: string,
  problems: FieldProblem[],
  allowed?: readonly string[],
): { id: string; fields: Record<string, unknown> }[] {
  const out: { id: string; fields: Record<string, unknown> }[] = [];
  listOf(body, name, problems).forEach((item, index) => {
    const at = `${name}.${index}`;
    if (!isPlainObject(item)) return problems.push({ field: at, description: `${at} must be an object` });
    const { id, ...fields } = item;
    if (!isUuid(id)) problems.push({ field: `${at}.id`, description: `${at}.id must be a UUID` });
    const unknown = allowed ? Object.keys(fields).filter((f) => !allowed.includes(f)) : [];
    for (const f of unknown)
      problems.push({ field: `${at}.${f}`, description: `${at}.${f} is not something this command sets (it sets ${allowed!.join(', ')})` });
    if (Object.keys(fields).length === 0) problems.push({ field: at, description: `${at} changes nothing` });
    if (isUuid(id) && unknown.length === 0) out.push({ id: id.toLowerCase(), fields });
  });
  return out;
}

function describedBy(body: Record<string, unknown>, problems: FieldProblem[]): string | undefined {
  if (body.description === undefined) return undefined;
  if (typeof body.description !== 'string' || body.description.trim() === '' || body.description.length > 200) {
    problems.push({ field: 'description', description: 'description must be text of 1 to 200 characters' });
    return undefined;
  }
  return checkDescription(body.description, 'description');
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * Reads a batch body with `read` (which collects problems), then runs `write` as one command
 * described by the body's `description`, the request header, or `fallback(input)`.
 */
function batch<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  read: (body: Record<string, unknown>, problems: FieldProblem[]) => T,
  fallback: (input: T) => string,
  write: (input: T) => void,
): CommandAnswer {
  const body = requiredBody(request.body);
  const problems: FieldProblem[] = [];
  const given = describedBy(body, problems);
  const input = read(body, problems);
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  const meta = commandFor(request, fallback(input));
  if (given) meta.description = given;
  runCommand(request.ctx, reply, meta, () => write(input));
  return answerOf(request.ctx, meta);
}

export async function commandRoutes(app: FastifyInstance): Promise<void> {
  app.post(
    '/command/move_cards',
    doc('Move or resize cards as one command', {
      type: 'object',
      required: ['cards'],
      properties: {
        description,
        cards: {
          type: 'array',
          maxItems: maxBatchItems,
          items: {
            type: 'object',
            required: ['id'],
            properties: { id: { type: 'string', format: 'uuid' }, ...Object.fromEntries(moveFields.map((f) => [f, {}])) },
          },
        },
      },
    }),
    (request, reply) =>
      batch<CardMove[]>(
        request,
        reply,
        (body, problems) => editsOf(body, 'cards', problems, moveFields),
        (moves) => `Move ${plural(moves.length, 'card')}`,
        (moves) => moveCards(request.ctx, moves),
      ),
  );

  for (const [kind, path, verb] of [
    ['labels', 'label_cards', 'Label'],
    ['resources', 'assign_cards', 'Assign'],
  ] as const) {
    app.post(
      `/command/${path}`,
      doc(kind === 'labels' ? 'Add and remove labels on cards as one command' : 'Assign and unassign resources on cards as one command', {
        type: 'object',
        required: ['cards'],
        properties: { description, cards: ids, add: ids, remove: ids },
      }),
      (request, reply) =>
        batch(
          request,
          reply,
          (body, problems) => {
            const change = {
              cards: idsOf(body, 'cards', problems),
              add: idsOf(body, 'add', problems, false),
              remove: idsOf(body, 'remove', problems, false),
            };
            if (body.add === undefined && body.remove === undefined)
              problems.push({ field: 'add', description: 'send add, remove or both' });
            return change;
          },
          (change) => `${verb} ${plural(change.cards.length, 'card')}`,
          (change) => linkCards(request.ctx, kind, change),
        ),
    );
  }

  app.post(
    '/command/set_time_status',
    doc('Set the status of time entries as one command', {
      type: 'object',
      required: ['entries', 'status'],
      properties: { description, entries: ids, status: { type: 'string', enum: [...timeStatuses] } },
    }),
    (request, reply) =>
      batch(
        request,
        reply,
        (body, problems) => {
          const entries = idsOf(body, 'entries', problems);
          const status = body.status;
          if (typeof status !== 'string' || !(timeStatuses as readonly string[]).includes(status)) {
            problems.push({ field: 'status', description: `status must be one of ${timeStatuses.join(', ')}` });
          }
          return { entries, status: status as string };
        },
        (input) => `Set ${plural(input.entries.length, 'time entry', 'time entries')} to ${input.status}`,
        (input) => setTimeStatus(request.ctx, input.entries, input.status),
      ),
  );

  app.post(
    '/command/edit_order_rows',
    doc('Edit order rows as one command', {
      type: 'object',
      required: ['rows'],
      properties: {
        description,
        rows: {
          type: 'array',
          maxItems: maxBatchItems,
          items: { type: 'object', required: ['id'], properties: { id: { type: 'string', format: 'uuid' } } },
        },
      },
    }),
    (request, reply) =>
      batch<OrderRowEdit[]>(
        request,
        reply,
        (body, problems) => editsOf(body, 'rows', problems),
        (rows) => `Edit ${plural(rows.length, 'order row')}`,
        (rows) => editOrderRows(request.ctx, rows),
      ),
  );

  app.post(
    '/command/replan_collections',
    doc('Re-plan collections finite, the earliest due date first, as one command', {
      type: 'object',
      required: ['board_id', 'collection_ids'],
      properties: {
        description,
        board_id: { type: 'string', format: 'uuid' },
        collection_ids: ids,
        start: { type: 'string', format: 'date' },
      },
    }),
    (request, reply) => {
      let planned: StoredRecord[] = [];
      const answer = batch<Replan>(
        request,
        reply,
        (body, problems) => {
          const input: Replan = { board_id: '', collection_ids: idsOf(body, 'collection_ids', problems) };
          if (isUuid(body.board_id)) input.board_id = body.board_id.toLowerCase();
          else problems.push({ field: 'board_id', description: 'board_id must be a UUID' });
          if (body.start !== undefined && body.start !== null) {
            if (typeof body.start === 'string' && isValidDate(body.start)) input.start = body.start;
            else problems.push({ field: 'start', description: 'start must be a date (YYYY-MM-DD)' });
          }
          return input;
        },
        (input) => `Replan ${plural(input.collection_ids.length, 'collection')}`,
        (input) => {
          planned = replanCollections(request.ctx, input);
        },
      );
      return { ...answer, data: present(request.ctx, collectionModule, planned, { ...parseShapeOptions({}), with: ['cards'] }) };
    },
  );

  app.post<{ Params: { id: string } }>(
    '/command/:id/undo',
    {
      config: {
        doc: {
          summary: 'Undo a command (undo an undo to redo)',
          tag: 'Commands',
          success: { status: 200, description: answerDescription },
        },
      },
    },
    (request, reply) => {
      const id = request.params.id.toLowerCase();
      if (!isUuid(id)) throw ApiError.notFound('No command with that id.');
      const given = commandFor(request, '');
      const meta = undoMetaFor(request.ctx, id, given);
      runCommand(request.ctx, reply, meta, () => undoCommand(request.ctx, id));
      return answerOf(request.ctx, meta);
    },
  );

  app.get<{ Querystring: Record<string, string | string[] | undefined> }>(
    '/command',
    { config: { doc: { summary: 'Recent commands, newest first', tag: 'Commands', query: { limit: '1–1000, default 50.' } } } },
    (request) => {
      const raw = request.query.limit;
      if (Array.isArray(raw)) throw ApiError.badRequest('Send limit once.');
      const limit = raw === undefined ? 50 : Number(raw);
      if (!/^\d+$/.test(raw ?? '50') || limit < 1 || limit > 1000) throw ApiError.badRequest('limit must be a whole number from 1 to 1000');
      return {
        data: recentCommands(request.ctx.store, limit).map(({ id, description, undoes, created_at }) => ({
          id,
          description,
          undoes,
          created_at,
        })),
      };
    },
  );
}
