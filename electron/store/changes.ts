/**
 * What a write is, as the store records it: where it comes from, its change-log row as a write
 * hook sees it, and the planner's command it belongs to. Types only, shared by both engines,
 * the API and sync, so that none of them needs the SQLite store to name a change
 * (docs/architecture.md "The asynchronous store boundary").
 */
import type { ChangeEvent } from '../../shared/ipc.js';

/**
 * Where a write comes from. `local`: this replica's API (it gets new clocks and, on a local
 * replica, goes to the outbox). `sync`: a change another replica made, being applied here with
 * that replica's field clocks; it is never queued again, and uniqueness is the remote's call.
 */
export type WriteOrigin = { kind: 'local' } | { kind: 'sync'; clocks: Record<string, string>; checkUnique: boolean };

/** One write as the change log records it, given to write hooks inside the transaction. */
export interface LoggedChange {
  origin: WriteOrigin;
  seq: number;
  resource: string;
  id: string;
  op: ChangeEvent['op'];
  /** The fields written (all of them on create). */
  fields: Record<string, unknown> | null;
  at: string;
  /** The command the write belongs to (see EnvironmentStore.command); undefined outside one. */
  commandId?: string;
}

/** A change as a write hook of either engine sees it (PostgreSQL's WriteHook; this store's onWrite has a LoggedChange). */
export type WrittenChange = Pick<LoggedChange, 'resource' | 'id' | 'op' | 'fields' | 'at' | 'commandId'>;

/** A planner's action as the store records it (docs/API.md "Commands and undo"). */
export interface CommandMeta {
  id: string;
  description: string;
  /** The command this one undoes. */
  undoes?: string | null;
  /** Who did it: a user id or an API key id. */
  actor?: string | null;
}

/**
 * Runs inside the writing transaction, right after the change-log row: whatever it writes
 * (webhook events, sync outbox rows) commits or rolls back with the change itself.
 */
export type WriteHook = (change: LoggedChange) => void;
