/**
 * The commands of an environment and the change-log rows they wrote (docs/API.md "Commands
 * and undo"): what undo reads to write a command's inverse, and what the command list shows.
 * Commands are written by EnvironmentStore.command; this file only reads them.
 */
import type { ChangeEvent } from '../../shared/ipc.js';
import type { EnvironmentStore } from './environment-store.js';
import { onePerStore } from './side-table.js';
import { fixedTextStatements } from './statement-cache.js';

/**
 * Fixed texts, prepared once per open store: every planner write asks whether its command id
 * was used before, and preparing that text each time cost more than running it.
 */
const statementsOf = onePerStore((store) => fixedTextStatements(store.db));

export interface CommandRecord {
  id: string;
  description: string;
  undoes: string | null;
  actor: string | null;
  created_at: string;
}

/** One change-log row as undo reads it. */
export interface CommandChange {
  seq: number;
  resource: string;
  record_id: string;
  op: ChangeEvent['op'];
  fields: Record<string, unknown> | null;
  /** The previous values of the written fields; null for a create (and rows older than commands). */
  before: Record<string, unknown> | null;
  command_id: string | null;
}

interface ChangeRow {
  seq: number;
  resource: string;
  record_id: string;
  op: ChangeEvent['op'];
  fields: string | null;
  before: string | null;
  command_id: string | null;
}

function fromRow(row: ChangeRow): CommandChange {
  return { ...row, fields: row.fields ? JSON.parse(row.fields) : null, before: row.before ? JSON.parse(row.before) : null };
}

export function findCommand(store: EnvironmentStore, id: string): CommandRecord | undefined {
  return statementsOf(store).rows<CommandRecord>('SELECT id, description, undoes, actor, created_at FROM command WHERE id = ?').get(id);
}

/**
 * The most recent commands, newest first: in the order they were done (rowid), since a client
 * may name a command with an id of its own, which need not sort by time.
 */
export function recentCommands(store: EnvironmentStore, limit: number): CommandRecord[] {
  return statementsOf(store)
    .rows<CommandRecord>('SELECT id, description, undoes, actor, created_at FROM command ORDER BY rowid DESC LIMIT ?')
    .all(limit);
}

/** The change-log rows a command wrote, in the order it wrote them. */
export function changesOfCommand(store: EnvironmentStore, id: string): CommandChange[] {
  return statementsOf(store)
    .rows<ChangeRow>('SELECT seq, resource, record_id, op, fields, before, command_id FROM change_log WHERE command_id = ? ORDER BY seq')
    .all(id)
    .map(fromRow);
}

/** The change-log rows of one record written after `seq`, by any command or none. */
export function changesAfter(store: EnvironmentStore, resource: string, recordId: string, seq: number): CommandChange[] {
  return statementsOf(store)
    .rows<ChangeRow>(
      'SELECT seq, resource, record_id, op, fields, before, command_id FROM change_log WHERE resource = ? AND record_id = ? AND seq > ? ORDER BY seq',
    )
    .all(resource, recordId, seq)
    .map(fromRow);
}

/** The command that undid `id`, if one did. */
export function undoneBy(store: EnvironmentStore, id: string): CommandRecord | undefined {
  return statementsOf(store).rows<CommandRecord>('SELECT id, description, undoes, actor, created_at FROM command WHERE undoes = ?').get(id);
}

/**
 * The newest command this computer made that wrote one of `recordIds` and is not undone (a
 * replica's pulled changes are written by no command): what "revert my change" of the plan
 * check undoes (docs/API.md "Plan check"). Looks at the last 20 commands on them at most.
 */
export function newestCommandOn(store: EnvironmentStore, resource: string, recordIds: readonly string[]): CommandRecord | undefined {
  if (recordIds.length === 0) return undefined;
  const ids = statementsOf(store)
    .rows<{ command_id: string }>(
      `SELECT command_id, MAX(seq) AS last FROM change_log
       WHERE resource = ? AND record_id IN (SELECT value FROM json_each(?)) AND command_id IS NOT NULL
       GROUP BY command_id ORDER BY last DESC LIMIT 20`,
    )
    .all(resource, JSON.stringify(recordIds));
  for (const { command_id: id } of ids) {
    const command = findCommand(store, id);
    if (command && !undoneBy(store, id)) return command;
  }
  return undefined;
}

/**
 * The command history as undo reads it inside the transaction that writes the inverse
 * (`RecordWrites.commands`), on either engine: these functions over the SQLite store, or
 * postgres/command-book.ts's on the transaction's client.
 */
export interface CommandBookReads {
  find(id: string): Promise<CommandRecord | undefined>;
  changesOf(id: string): Promise<CommandChange[]>;
  changesAfter(resource: string, recordId: string, seq: number): Promise<CommandChange[]>;
  undoneBy(id: string): Promise<CommandRecord | undefined>;
}

export function sqliteCommandBook(store: EnvironmentStore): CommandBookReads {
  return {
    find: async (id) => findCommand(store, id),
    changesOf: async (id) => changesOfCommand(store, id),
    changesAfter: async (resource, recordId, seq) => changesAfter(store, resource, recordId, seq),
    undoneBy: async (id) => undoneBy(store, id),
  };
}
