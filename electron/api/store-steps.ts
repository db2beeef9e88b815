/**
 * Code that runs on both stores, the asynchronous RecordStore and the synchronous
 * EnvironmentStore (docs/architecture.md "The asynchronous store boundary"): the generic write
 * (write-plan.ts), the record it writes (records.ts), webhook events and the modules' rules are
 * called from asynchronous transactions (every route of the API, a replica's push, and so
 * PostgreSQL) and from synchronous ones (the local instance's own routes, kept data moved into
 * the tables, SQLite's webhook hook). Instead of a copy for each, such code is written once as a generator that
 * yields each step it needs of the store — read a record, the records with a key, a list, the
 * values of many records, insert, update, soft-delete, a call on the webhook delivery queue — and is run by either driver: `onStore` answers every step at once from
 * the synchronous EnvironmentStore, `onRecords` awaits every step from a RecordStore or a
 * transaction's RecordWrites. `yield*` stands where `await` will: once the last synchronous
 * caller has moved, the generators become async functions and this file goes.
 */
import type { ResourceSpec, StoredOf } from '../../shared/fields.js';
import type { EnvironmentStore, StoredRecord } from '../store/environment-store.js';
import type { ListQuery } from '../store/record-sql.js';
import type { TableDef } from '../store/table-def.js';
import type { RecordReads, RecordWrites } from '../store/record-store.js';
import { WebhookQueue, type DeliveryQueueWrites } from '../store/webhook-queue.js';

/** One step of the store that a generator asks for. */
export type StoreStep =
  | { kind: 'get'; table: TableDef; id: string; options?: { includeDeleted?: boolean } }
  | { kind: 'getWhereIn'; table: TableDef; field: string; values: readonly unknown[] }
  | { kind: 'list'; table: TableDef; query: ListQuery }
  | { kind: 'max'; table: TableDef; field: string; match: Record<string, unknown> }
  | { kind: 'eachValues'; table: TableDef; query: ListQuery; fields: readonly string[]; visit: (values: unknown[]) => void }
  | { kind: 'insert'; table: TableDef; values: Record<string, unknown> }
  | { kind: 'update'; table: TableDef; id: string; values: Record<string, unknown> }
  | { kind: 'softDelete'; table: TableDef; id: string; at?: string }
  | { kind: 'lock'; table: TableDef; id: string }
  | { kind: 'deliveries'; method: keyof DeliveryQueueWrites; args: readonly unknown[] };

/** A computation that needs the store, answering T (see the file head). */
export type Steps<T> = Generator<StoreStep, T, unknown>;

// Each driver answers a step with what the store's method of that name returns: the casts below
// say so to the type checker, which cannot follow a value through `yield`.

export function* get<S extends ResourceSpec>(
  table: TableDef<S>,
  id: string,
  options?: { includeDeleted?: boolean },
): Steps<StoredOf<S> | undefined> {
  // The driver answers with what the store's method returns.
  return (yield { kind: 'get', table, id, ...(options ? { options } : {}) }) as StoredOf<S> | undefined;
}

export function* getWhereIn<S extends ResourceSpec>(
  table: TableDef<S>,
  field: string & keyof StoredOf<S>,
  values: readonly unknown[],
): Steps<StoredOf<S>[]> {
  // The driver answers with what the store's method returns.
  return (yield { kind: 'getWhereIn', table, field, values }) as StoredOf<S>[];
}

export function* list<S extends ResourceSpec>(table: TableDef<S>, query: ListQuery): Steps<{ count: number; rows: StoredOf<S>[] }> {
  // The driver answers with what the store's method returns.
  return (yield { kind: 'list', table, query }) as { count: number; rows: StoredOf<S>[] };
}

/** The largest value of a column among live records matching `match` (null when none). */
export function* max(table: TableDef, field: string, match: Record<string, unknown>): Steps<unknown> {
  return yield { kind: 'max', table, field, match };
}

/** The `fields` of each record the query matches, as values, given to `visit` (RecordReads.eachValues). */
export function* eachValues(table: TableDef, query: ListQuery, fields: readonly string[], visit: (values: unknown[]) => void): Steps<void> {
  yield { kind: 'eachValues', table, query, fields, visit };
}

export function* insert(table: TableDef, values: Record<string, unknown>): Steps<StoredRecord> {
  // The driver answers with what the store's method returns.
  return (yield { kind: 'insert', table, values }) as StoredRecord;
}

export function* update(table: TableDef, id: string, values: Record<string, unknown>): Steps<StoredRecord | undefined> {
  // The driver answers with what the store's method returns.
  return (yield { kind: 'update', table, id, values }) as StoredRecord | undefined;
}

export function* softDelete(table: TableDef, id: string, at?: string): Steps<boolean> {
  // The driver answers with what the store's method returns.
  return (yield { kind: 'softDelete', table, id, ...(at !== undefined ? { at } : {}) }) as boolean;
}

/**
 * Locks a record to the end of the transaction, so that a rule that reads and then decides
 * (a user's hours on a day, their running timer) is not decided twice at once on two nodes of a
 * team server: the second waits and reads what the first wrote. On the synchronous store, and
 * on SQLite's asynchronous one, the transaction holds the whole file already: nothing to do.
 */
export function* lock(table: TableDef, id: string): Steps<void> {
  yield { kind: 'lock', table, id };
}

/**
 * A call on the webhook delivery queue, in the transaction (DeliveryQueueWrites): the SQLite
 * queue's method of that name answers at once, a transaction's `deliveries` with a promise.
 */
export function* deliveries<M extends keyof DeliveryQueueWrites>(
  method: M,
  ...args: Parameters<DeliveryQueueWrites[M]>
): Steps<Awaited<ReturnType<DeliveryQueueWrites[M]>>> {
  // The driver answers with what the queue's method returns.
  return (yield { kind: 'deliveries', method, args }) as Awaited<ReturnType<DeliveryQueueWrites[M]>>;
}

/** Whether a rule answered with steps (a generator) rather than at once. */
function isSteps<T>(answer: T | Steps<T>): answer is Steps<T> {
  const candidate = answer as { next?: unknown; throw?: unknown } | null | undefined;
  return (
    typeof candidate === 'object' && candidate !== null && typeof candidate.next === 'function' && typeof candidate.throw === 'function'
  );
}

/** A rule's answer (resource.ts, RuleAnswer), given at once or as steps, as steps. */
export function* runRule<T>(answer: T | Steps<T>): Steps<T> {
  return isSteps(answer) ? yield* answer : answer;
}

/**
 * What answers steps: the synchronous store, whose methods answer at once, or the asynchronous
 * one's reads (a RecordStore) or a transaction's reads and writes (RecordWrites), whose answer
 * promises. The methods have the same names and arguments on all of them.
 */
interface StepTarget {
  get(table: TableDef, id: string, options?: { includeDeleted?: boolean }): unknown;
  list(table: TableDef, query: ListQuery): unknown;
  max(table: TableDef, field: string, match: Record<string, unknown>): unknown;
  eachValues(table: TableDef, query: ListQuery, fields: readonly string[], visit: (values: unknown[]) => void): unknown;
  getWhereIn(table: TableDef, field: never, values: readonly unknown[]): unknown;
  insert?(table: TableDef, values: Record<string, unknown>): unknown;
  update?(table: TableDef, id: string, values: Record<string, unknown>): unknown;
  softDelete?(table: TableDef, id: string, at?: string): unknown;
}

/** The answer of one step: a value from the synchronous store, a promise from the asynchronous one. */
function perform(target: StepTarget, step: StoreStep, queue: () => object, locker: (table: TableDef, id: string) => unknown): unknown {
  const writer = () => {
    if (!target.insert || !target.update || !target.softDelete)
      throw new Error('A write step outside a transaction: run it on the transaction’s writes.');
    // It has all three, as just checked.
    return target as Required<StepTarget>;
  };
  switch (step.kind) {
    case 'get':
      return target.get(step.table, step.id, step.options);
    case 'list':
      return target.list(step.table, step.query);
    case 'max':
      return target.max(step.table, step.field, step.match);
    case 'eachValues':
      return target.eachValues(step.table, step.query, step.fields, step.visit);
    case 'getWhereIn':
      // The field names a column of the table (the generator's typed helper checked it).
      return target.getWhereIn(step.table, step.field as never, step.values);
    case 'insert':
      return writer().insert(step.table, step.values);
    case 'update':
      return writer().update(step.table, step.id, step.values);
    case 'softDelete':
      return writer().softDelete(step.table, step.id, step.at);
    case 'lock':
      return locker(step.table, step.id);
    case 'deliveries': {
      // Both queues have the method of that name with these arguments (DeliveryQueueWrites).
      const target = queue() as Record<string, (...args: unknown[]) => unknown>;
      return target[step.method]!.apply(target, [...step.args]);
    }
  }
}

/** Runs `steps` on the synchronous store, each step answered at once. */
export function onStore<T>(store: EnvironmentStore, steps: Steps<T>): T {
  let next = steps.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = perform(
        store,
        next.value,
        () => WebhookQueue.of(store),
        () => undefined,
      );
    } catch (error) {
      // Thrown where the step was asked for, so the generator's own try and finally run.
      next = steps.throw(error);
      continue;
    }
    next = steps.next(answer);
  }
  return next.value;
}

/** A lock step on a transaction's writes (its record held to the end); outside one, nothing to hold. */
function lockIn(records: RecordReads | RecordWrites): (table: TableDef, id: string) => unknown {
  return (table, id) => ('sync' in records ? records.sync.getForSync(table, id, { lock: true }) : undefined);
}

/**
 * Runs `steps` on the asynchronous store, awaiting each step: reads only on a RecordStore (a
 * read route), reads and writes on a transaction's RecordWrites.
 */
export async function onRecords<T>(records: RecordReads | RecordWrites, steps: Steps<T>): Promise<T> {
  let next = steps.next();
  while (!next.done) {
    let answer: unknown;
    try {
      answer = await perform(
        records,
        next.value,
        () => {
          if (!('deliveries' in records))
            throw new Error('A delivery queue step outside a transaction: run it on the transaction’s writes.');
          return records.deliveries;
        },
        lockIn(records),
      );
    } catch (error) {
      // As in onStore: thrown where the step was asked for.
      next = steps.throw(error);
      continue;
    }
    next = steps.next(answer);
  }
  return next.value;
}
