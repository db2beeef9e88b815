/**
 * A planner's action as one server command (docs/API.md "Commands and undo"): the batch
 * commands that change many records in one call, the command id every write answers with,
 * and undo through the server. The undo history (state/undo.ts) keeps only command ids.
 */
import type { BridgeRequest } from '../../shared/ipc.js';
import { sendRequest } from './client.js';
import { apiPath } from './paths.js';
import type { Transport } from './transport.js';

/** The header every write answers with; its value is what undo takes. */
export const commandIdHeader = 'x-planner-command-id';

export interface CommandResult {
  command_id: string;
  description: string;
  changed: { resource: string; id: string }[];
}

export type BatchCommand = 'move_cards' | 'label_cards' | 'assign_cards' | 'set_time_status' | 'edit_order_rows' | 'replan_collections';

/** Runs one batch command: all of it lands, or nothing does (the API's 422 says why). */
export async function runCommand(
  transport: Transport,
  command: BatchCommand,
  body: Record<string, unknown>,
  description?: string,
): Promise<CommandResult> {
  const response = await sendRequest(transport, {
    method: 'POST',
    path: `/v1/command/${command}`,
    // The server's description has at most 200 characters (docs/API.md).
    body: description ? { ...body, description: description.slice(0, 200) } : body,
  });
  return response.body as CommandResult;
}

/**
 * Undoes a command; answers the undo's own command, which redo undoes in turn. A 409 means
 * someone changed those records since, or it was undone already: nothing was written.
 */
export async function undoCommand(transport: Transport, commandId: string): Promise<CommandResult> {
  const response = await sendRequest(transport, { method: 'POST', path: apiPath`/v1/command/${commandId}/undo` });
  return response.body as CommandResult;
}

/** One write, answered with its body and the id of the command it was. */
export async function sendCommand<T>(transport: Transport, request: BridgeRequest): Promise<{ body: T; commandId: string }> {
  const response = await sendRequest(transport, request);
  const commandId = response.headers[commandIdHeader];
  // Every write answers with it; a server without commands cannot be undone through them.
  if (!commandId) throw new Error(`The Planning API did not name the command of ${request.method} ${request.path}.`);
  return { body: response.body as T, commandId };
}
