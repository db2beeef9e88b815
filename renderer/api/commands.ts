/**
 * A planner's action as one server command (docs/API.md "Commands and undo"): the batch
 * commands that change many records in one call, the command id every write answers with,
 * and undo through the server. The undo history (state/undo.ts) keeps only command ids.
 */
import type { BridgeRequest } from '../../shared/ipc.js';
import { operationPath, type AnswerOf, type BodyOf, type Operation, type Shape } from '../../shared/operation.js';
import { undoCommandOperation, type CommandResult, type KeptCommandResult } from '../../shared/operations/commands.js';
import { sendRequest } from './client.js';
import type { Transport } from './transport.js';

export type { CommandResult } from '../../shared/operations/commands.js';

/** The header every write answers with; its value is what undo takes. */
export const commandIdHeader = 'x-planner-command-id';

/**
 * One call of an operation declared in shared/operations: its body is of the declaration's
 * type, and so is its answer (the server checked the body against the same declaration).
 */
export async function callOperation<O extends Operation>(
  transport: Transport,
  operation: O,
  input: OperationInput<O> = {},
): Promise<AnswerOf<O>> {
  const response = await sendRequest(transport, operationRequest(operation, input));
  // The answer of the operation the server ran, as its declaration names it.
  return response.body as AnswerOf<O>;
}

/** What one call of an operation sends beside its declaration: path parameters, query, body. */
export interface OperationInput<O extends Operation> {
  params?: Record<string, string>;
  query?: Record<string, string>;
  body?: BodyOf<O>;
}

function operationRequest<O extends Operation>(operation: O, input: OperationInput<O>): BridgeRequest {
  return {
    method: operation.method,
    path: operationPath(operation, input.params),
    ...(input.query ? { query: input.query } : {}),
    ...(input.body !== undefined ? { body: input.body } : {}),
  };
}

/** One write of a declared operation (planning a collection), answered with its body and the id of the command it was. */
export function sendOperationCommand<O extends Operation>(
  transport: Transport,
  operation: O,
  input: OperationInput<O> = {},
): Promise<{ body: AnswerOf<O>; commandId: string }> {
  return sendCommand<AnswerOf<O>>(transport, operationRequest(operation, input));
}

/** Runs one batch command: all of it lands, or nothing does (the API's 422 says why). */
export async function runCommand<O extends Operation<Shape, CommandResult>>(
  transport: Transport,
  command: O,
  body: BodyOf<O>,
  description?: string,
): Promise<AnswerOf<O>> {
  // The server's description has at most 200 characters (docs/API.md).
  return callOperation(transport, command, {
    body: description ? Object.assign({}, body, { description: description.slice(0, 200) }) : body,
  });
}

/**
 * Undoes a command; answers the undo's own command, which redo undoes in turn. A 409 means
 * someone changed those records since, or it was undone already: nothing was written.
 */
export async function undoCommand(transport: Transport, commandId: string): Promise<KeptCommandResult> {
  return callOperation(transport, undoCommandOperation, { params: { id: commandId } });
}

/** One write, answered with its body and the id of the command it was. */
export async function sendCommand<T>(transport: Transport, request: BridgeRequest): Promise<{ body: T; commandId: string }> {
  const response = await sendRequest(transport, request);
  const commandId = response.headers[commandIdHeader];
  // Every write answers with it; a server without commands cannot be undone through them.
  if (!commandId) throw new Error(`The Planning API did not name the command of ${request.method} ${request.path}.`);
  return { body: response.body as T, commandId };
}
