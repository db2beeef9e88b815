/**
 * What a local SQLite instance keeps besides records, behind the store boundary
 * (docs/architecture.md "The asynchronous store boundary"): the app's user, and a replica's
 * own view of its sync (what waits to be pushed, the refused changes, the overruled edits, what
 * the plan check found after a pull, the last runs). The desktop-only routes read and write these through a RecordStore's `local`
 * books, and a transaction's, like any record: a conflict retried and its entry resolved are
 * one transaction. The team server has none of them (`local` is undefined there).
 */
import type { Conflict, Mutation } from '../../shared/operations/sync.js';
import { newestCommandOn, type CommandRecord } from './command-book.js';
import type { EnvironmentStore } from './environment-store.js';
import type { PlanFinding, PlanFindingNotice } from '../../shared/plan-check.js';
import { overruledEditsOf, type OverruledEdit, type OverruledStatus } from './overruled-edits.js';
import { planFindingsOf } from './plan-findings.js';
import { bookOf, type ReplicaRole } from './sync-book.js';
import { syncHistoryOf, type SyncRun } from './sync-history.js';

/** The sync figures of a replica's status line (docs/API.md "Sync"). */
export interface LocalSyncCounts {
  role: ReplicaRole;
  /** Changes waiting to be pushed. */
  pending: number;
  files_to_send: number;
  files_to_fetch: number;
  /** Open entries of refused changes. */
  conflicts: number;
  /** Open overruled edits. */
  overruled: number;
}

export interface OverruledQuery {
  all: boolean;
  limit: number;
  offset: number;
  resource?: string;
  recordId?: string;
}

export interface LocalBookReads {
  /** The user this app's planner chose to be (docs/API.md "The app's user"), if any. */
  appUserId(): Promise<string | undefined>;
  syncCounts(): Promise<LocalSyncCounts>;
  /** Changes waiting to be pushed, oldest first. */
  pending(limit: number): Promise<Mutation[]>;
  conflicts(options: { open: boolean; limit: number; offset: number }): Promise<{ count: number; data: Conflict[] }>;
  /** The entry a conflict id belongs to (any mutation of a refused action names the whole action). */
  conflict(id: string): Promise<Conflict | undefined>;
  overruled(options: OverruledQuery): Promise<{ count: number; data: OverruledEdit[] }>;
  overruledEdit(id: string): Promise<OverruledEdit | undefined>;
  /** The last sync runs, newest first. */
  syncRuns(limit: number): Promise<SyncRun[]>;
  /** What the plan check found after pulls, newest first (docs/API.md "Plan check"). */
  planFindings(options: { all: boolean; limit: number; offset: number }): Promise<{ count: number; data: PlanFinding[] }>;
  planFinding(id: string): Promise<PlanFinding | undefined>;
  /** The newest command made here, not undone, that wrote one of the records (command-book.ts newestCommandOn). */
  newestCommandOn(resource: string, recordIds: readonly string[]): Promise<CommandRecord | undefined>;
}

export interface LocalBookWrites extends LocalBookReads {
  /** Chooses the app's user; undefined: nobody. */
  chooseAppUser(userId: string | undefined): Promise<void>;
  /** Resolves a conflict entry: every mutation of a refused action at once. */
  resolveConflict(id: string, resolution: 'retried' | 'discarded'): Promise<void>;
  resolveOverruled(id: string, status: Exclude<OverruledStatus, 'open'>): Promise<void>;
  /** Keeps what a plan check found, in one turn. */
  noticePlanFindings(findings: readonly PlanFindingNotice[]): Promise<void>;
  acceptPlanFinding(id: string): Promise<void>;
}

const appUserKey = 'app_user_id';

/**
 * The local books of an environment's SQLite file; `inTurn` runs each call in the store's turn
 * (record-store.ts: outside a transaction, calls of one file take turns; inside one, it is
 * the transaction's own and answers at once).
 */
export function sqliteLocalBooks(store: EnvironmentStore, inTurn: <T>(fn: () => T) => Promise<T>): LocalBookWrites {
  const book = () => bookOf(store);
  return {
    appUserId: () => inTurn(() => book().getState<string>(appUserKey)),
    syncCounts: () =>
      inTurn(() => ({
        role: book().role,
        pending: book().pendingCount(),
        files_to_send: book().queuedFileCount('send'),
        files_to_fetch: book().queuedFileCount('fetch'),
        conflicts: book().openConflictCount(),
        overruled: overruledEditsOf(store).openCount(),
      })),
    pending: (limit) => inTurn(() => book().pending(limit)),
    conflicts: (options) => inTurn(() => book().conflicts(options)),
    conflict: (id) => inTurn(() => book().conflict(id)),
    overruled: (options) => inTurn(() => overruledEditsOf(store).list(options)),
    overruledEdit: (id) => inTurn(() => overruledEditsOf(store).get(id)),
    syncRuns: (limit) => inTurn(() => syncHistoryOf(store).list(limit)),
    chooseAppUser: (userId) => inTurn(() => book().setState(appUserKey, userId)),
    resolveConflict: (id, resolution) => inTurn(() => book().resolveConflict(id, resolution)),
    resolveOverruled: (id, status) => inTurn(() => overruledEditsOf(store).resolve(id, status)),
    planFindings: (options) => inTurn(() => planFindingsOf(store).list(options)),
    planFinding: (id) => inTurn(() => planFindingsOf(store).get(id)),
    newestCommandOn: (resource, recordIds) => inTurn(() => newestCommandOn(store, resource, recordIds)),
    noticePlanFindings: (findings) => inTurn(() => planFindingsOf(store).notice(findings)),
    acceptPlanFinding: (id) => inTurn(() => planFindingsOf(store).resolve(id, 'accepted')),
  };
}
