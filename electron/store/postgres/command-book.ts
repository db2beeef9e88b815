/**
 * The commands of an environment on PostgreSQL and the change-log rows they wrote (docs/API.md
 * "Commands and undo"): the reads of command-book.ts, with the same names and results as
 * promises, each taking a client inside `withEnvironment`. Undo reads a command's changes and
 * the later changes of its records in the transaction that writes the inverse, so they take
 * that transaction's client rather than a store.
 *
 * `seq` is the change log's `position`. Across transactions, positions follow insert order,
 * not commit order (change-log.ts); but within one record they follow commit order, which is
 * all `changesAfter` needs: every write of a record holds that record's row lock from before it
 * appends its change until its transaction ends (postgres/record-store.ts), so a later writer
 * of the same record appends after the earlier one has committed.
 *
 * The command row is written by `recordCommand`, which PostgresRecordStore.transaction calls
 * for a transaction that is a command (on SQLite, EnvironmentStore.command writes it).
 */
import type { CommandMeta } from '../changes.js';
import type { CommandBookReads, CommandChange, CommandRecord } from '../command-book.js';
import { nowTimestamp } from '../../../shared/ids.js';
import { CommandConflictError } from '../record-store.js';
import type { PostgresClient } from './postgres-database.js';

export type { CommandChange, CommandRecord } from '../command-book.js';

const uniqueViolation = '23505';
const commandColumns = 'id, description, undoes, actor, created_at';
const changeColumns = 'position::text AS seq, resource, record_id, op, fields, before, command_id';

interface ChangeRow extends Omit<CommandChange, 'seq'> {
  seq: string;
}

/** Positions are bigint, read as text; every position is a safe integer (as SQLite's seq). */
function fromRow(row: ChangeRow): CommandChange {
  return { ...row, seq: Number(row.seq) };
}

/**
 * Writes the command's row in the caller's transaction, before its writes, so it commits or
 * rolls back with them. Throws CommandConflictError when another transaction has the same id
 * or undoes the same command (waiting for that one to end first, as a unique index does).
 */
export async function recordCommand(client: PostgresClient, meta: CommandMeta): Promise<void> {
  try {
    await client.query(`INSERT INTO command (${commandColumns}) VALUES ($1, $2, $3, $4, $5)`, [
      meta.id,
      meta.description,
      meta.undoes ?? null,
      meta.actor ?? null,
      nowTimestamp(),
    ]);
  } catch (error) {
    const { code, constraint } = error as { code?: unknown; constraint?: unknown };
    if (code !== uniqueViolation) throw error;
    throw new CommandConflictError(constraint === 'command_undoes' ? 'undone-already' : 'id-taken', meta.id);
  }
}

export async function findCommand(client: PostgresClient, id: string): Promise<CommandRecord | undefined> {
  const { rows } = await client.query<CommandRecord>(`SELECT ${commandColumns} FROM command WHERE id = $1`, [id]);
  return rows[0];
}

/** The most recent commands, newest first: in the order they were written (`seq`). */
export async function recentCommands(client: PostgresClient, limit: number): Promise<CommandRecord[]> {
  const { rows } = await client.query<CommandRecord>(`SELECT ${commandColumns} FROM command ORDER BY seq DESC LIMIT $1`, [limit]);
  return rows;
}

/** The change-log rows a command wrote, in the order it wrote them. */
export async function changesOfCommand(client: PostgresClient, id: string): Promise<CommandChange[]> {
  const { rows } = await client.query<ChangeRow>(`SELECT ${changeColumns} FROM change_log WHERE command_id = $1 ORDER BY position`, [id]);
  return rows.map(fromRow);
}

/** The change-log rows of one record written after `seq`, by any command or none. */
export async function changesAfter(client: PostgresClient, resource: string, recordId: string, seq: number): Promise<CommandChange[]> {
  const { rows } = await client.query<ChangeRow>(
    `SELECT ${changeColumns} FROM change_log WHERE resource = $1 AND record_id = $2 AND position > $3 ORDER BY position`,
    [resource, recordId, seq],
  );
  return rows.map(fromRow);
}

/** The command that undid `id`, if one did. */
export async function undoneBy(client: PostgresClient, id: string): Promise<CommandRecord | undefined> {
  const { rows } = await client.query<CommandRecord>(`SELECT ${commandColumns} FROM command WHERE undoes = $1`, [id]);
  return rows[0];
}

/** These reads on one transaction's client (RecordWrites.commands). */
export function postgresCommandBook(client: PostgresClient): CommandBookReads {
  return {
    find: (id) => findCommand(client, id),
    changesOf: (id) => changesOfCommand(client, id),
    changesAfter: (resource, recordId, seq) => changesAfter(client, resource, recordId, seq),
    undoneBy: (id) => undoneBy(client, id),
  };
}
