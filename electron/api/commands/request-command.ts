/**
 * Every write request is a command (docs/API.md "Commands and undo"): one transaction, one
 * undo step. A client may name the command itself (`x-planner-command-id`, a UUID) and say
 * what it was (`x-planner-command-description`); otherwise the server makes an id (UUIDv7)
 * and a description from the operation ("Edit card"). The answer carries the id in
 * `x-planner-command-id`, which `POST /v1/command/{id}/undo` takes.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import { isUuid, uuidv7 } from '../../../shared/ids.js';
import type { CommandMeta } from '../../store/changes.js';
import { CommandConflictError, type RecordWrites } from '../../store/record-store.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../resource.js';

export const commandIdHeader = 'x-planner-command-id';
export const commandDescriptionHeader = 'x-planner-command-description';
export const maxDescriptionLength = 200;

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  if (Array.isArray(value)) throw ApiError.badRequest(`Send ${name} once.`);
  return value;
}

/** A write's default description in the planner's words: `Edit order row` from `OrderRow`. */
export function describeWrite(verb: string, title: string): string {
  return `${verb} ${title.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase()}`;
}

/** Checks a description a client gave (header or body): text of 1 to 200 characters. */
export function checkDescription(value: string, where: string): string {
  const text = value.trim();
  if (text.length === 0 || text.length > maxDescriptionLength) {
    throw ApiError.badRequest(`${where} must be 1 to ${maxDescriptionLength} characters.`);
  }
  return text;
}

/**
 * The command a request names in its headers, or a new one described by `fallback`. An id
 * that is no UUID, or a description too long, is a 400 before anything is written.
 */
export function commandFor(request: FastifyRequest, fallback: string): CommandMeta {
  const id = header(request, commandIdHeader);
  if (id !== undefined && !isUuid(id)) throw ApiError.badRequest(`${commandIdHeader} must be a UUID.`);
  const described = header(request, commandDescriptionHeader);
  const description = described === undefined ? fallback : checkDescription(described, commandDescriptionHeader);
  return { id: id?.toLowerCase() ?? uuidv7(), description, actor: actorOf(request.ctx) };
}

function actorOf(ctx: RequestContext): string | null {
  return ctx.caller.userId ?? ctx.caller.keyId ?? null;
}

/** Thrown to roll back a command that wrote nothing, carrying its answer out. */
class NothingWritten<T> {
  constructor(readonly answer: T) {}
}

/**
 * A write request as a command (its headers name it, or `fallback` describes it), in a
 * transaction of the asynchronous store (record-store.ts), so on either engine: `write` gets
 * the transaction's reads and writes. A command id used before is a 409, found by the
 * transaction itself. When `wroteNothing` says so of the answer (every holiday was there, no
 * entry to mark), the transaction is rolled back: the answer comes without a command, and the
 * undo list gets no empty step.
 */
export async function asCommandOnRecords<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  /** The fallback description, or the whole command when the caller made it (an undo). */
  command: string | CommandMeta,
  write: (tx: RecordWrites) => Promise<T>,
  options: {
    wroteNothing?: (answer: T) => boolean;
    /**
     * The answer to a command id used before, instead of the 409: an action a device may send
     * again (docs/API.md "The floor") answers what that command did, and writes nothing.
     */
    replay?: (meta: CommandMeta) => Promise<T>;
  } = {},
): Promise<T> {
  const meta = typeof command === 'string' ? commandFor(request, command) : command;
  let result: T;
  try {
    result = await request.ctx.records.transaction(
      async (tx) => {
        const answer = await write(tx);
        if (options.wroteNothing?.(answer)) throw new NothingWritten(answer);
        return answer;
      },
      { command: meta },
    );
  } catch (error) {
    // Thrown above with this write's answer, a T.
    if (error instanceof NothingWritten) return error.answer as T;
    if (error instanceof CommandConflictError && error.problem === 'id-taken' && options.replay) return await options.replay(meta);
    if (error instanceof CommandConflictError && error.problem === 'id-taken')
      throw ApiError.conflict(`A command with id ${meta.id} was done already.`);
    // Another undo of the same command got there first (PostgreSQL's unique index on `undoes`).
    if (error instanceof CommandConflictError) throw ApiError.conflict('This command was undone already; undo that one to redo it.');
    throw error;
  }
  reply.header(commandIdHeader, meta.id);
  return result;
}
