/**
 * Applying records pulled from the remote (or handed back with a refusal) to this replica, one
 * transaction per batch. Every field is last-writer-wins by hybrid clock, so a field this
 * replica changed later — a pending local edit — keeps its value; a delete wins over edits;
 * a deleted record comes back only when its restore is newer than the delete. Applied writes
 * carry the remote's clocks and never go to the outbox.
 *
 * A batch is checked whole before anything is written: a malformed id, clock or name, or a
 * value of the wrong type refuses the batch and changes nothing. Fields and resources this
 * version does not declare (another app version's) are kept with their clocks, and move into
 * the tables once a migration declares them (electron/store/unknown-data.ts).
 */
import { checkValue, isPlainObject, own, type FieldSpec } from '../../shared/fields.js';
import { isHlc, zeroHlc } from '../../shared/hlc.js';
import { isUuid, nowTimestamp } from '../../shared/ids.js';
import type { RecordStore, RecordWrites } from '../store/record-store.js';
import type { ReplicaBookWrites } from '../store/replica-book.js';
import type { TableDef } from '../store/table-def.js';
import type { Clocks } from '../store/sync-book.js';
import { keptNamePattern } from '../store/unknown-data.js';
import type { OverruledWatch } from './overruled.js';
import { pulledChanges, type PulledChange } from './plan-changes.js';

export class SyncMessageError extends Error {}

export interface RemoteRecord {
  resource: string;
  id: string;
  /** The record with `deleted_at`; null when the remote has none (a refused create). */
  record: Record<string, unknown> | null;
  clocks: Clocks;
}

const pulledSpecs = new WeakMap<FieldSpec, FieldSpec>();

/**
 * What a pulled value is checked against: the field's type, but not its local rules (the
 * remote's records passed its own), made once per field rather than once per value.
 */
export function pulledSpec(spec: FieldSpec): FieldSpec {
  let pulled = pulledSpecs.get(spec);
  if (!pulled) pulledSpecs.set(spec, (pulled = { ...spec, nullable: true, check: undefined, pattern: undefined }));
  return pulled;
}

function checkEntry(tables: ReadonlyMap<string, TableDef>, entry: unknown, index: number): RemoteRecord {
  const where = `record ${index}`;
  if (!isPlainObject(entry)) throw new SyncMessageError(`${where} is not an object`);
  const table = typeof entry.resource === 'string' ? tables.get(entry.resource) : undefined;
  // A resource of another version is kept; a name no version could give is not a resource.
  if (!table && !(typeof entry.resource === 'string' && keptNamePattern.test(entry.resource))) {
    throw new SyncMessageError(`${where} names no resource: ${String(entry.resource)}`);
  }
  if (!isUuid(entry.id)) throw new SyncMessageError(`${where} has no uuid id`);
  if (!isPlainObject(entry.clocks) || !Object.values(entry.clocks).every(isHlc))
    throw new SyncMessageError(`${where} has malformed clocks`);
  if (entry.record !== null && !isPlainObject(entry.record)) throw new SyncMessageError(`${where} has a malformed record`);
  if (entry.record) {
    for (const [field, value] of Object.entries(entry.record)) {
      if (field === 'deleted_at' || field === 'id') continue;
      const spec: FieldSpec | undefined = table ? own(table.fields, field) : undefined;
      if (!spec) {
        // A field of another version: kept as it is (mergeRecords).
        if (!keptNamePattern.test(field))
          throw new SyncMessageError(
            `${where}: ${String(entry.resource)} has a field named ${JSON.stringify(field)}, which no version could give one`,
          );
        continue;
      }
      if (value === null) continue;
      const result = checkValue(pulledSpec(spec), value);
      if (!result.ok) throw new SyncMessageError(`${where}: ${table!.resource}.${field} ${result.problem}`);
    }
    if (entry.record.deleted_at !== null && entry.record.deleted_at !== undefined && typeof entry.record.deleted_at !== 'string') {
      throw new SyncMessageError(`${where}: deleted_at must be a date-time or null`);
    }
  }
  return {
    resource: entry.resource as string,
    id: (entry.id as string).toLowerCase(),
    record: entry.record as Record<string, unknown> | null,
    clocks: entry.clocks as Clocks,
  };
}

/** Checks a pulled batch; throws SyncMessageError when any entry is malformed. */
export function checkBatch(tables: ReadonlyMap<string, TableDef>, entries: unknown): RemoteRecord[] {
  if (!Array.isArray(entries)) throw new SyncMessageError('the batch is not a list');
  return entries.map((entry, i) => checkEntry(tables, entry, i));
}

/** A transaction's replica book: a sync client works only on a local replica's store (replica-book.ts). */
export function replicaOf(tx: RecordWrites): ReplicaBookWrites {
  if (!tx.replica) throw new Error("This store keeps no replica's books: only a local replica syncs with a remote.");
  return tx.replica;
}

/**
 * Merges one remote record. With `force` the remote's version replaces the local one whatever
 * the clocks say (after the remote refused this replica's change).
 */
async function mergeOne(
  replica: ReplicaBookWrites,
  table: TableDef,
  entry: RemoteRecord,
  force: string | undefined,
  watch: OverruledWatch | undefined,
  applied: ((change: PulledChange) => void) | undefined,
): Promise<void> {
  const local = await replica.getForSync(table, entry.id);
  const localClocks = await replica.clocksOf(entry.resource, entry.id);
  const remote = entry.record;
  if (!remote) {
    // The remote has no such record: this replica's create was refused. Keep it in the trash.
    if (local && !local.deleted_at) await replica.writeForSync(table, entry.id, { deleted_at: nowTimestamp() }, {});
    return;
  }
  const values: Record<string, unknown> = {};
  const clocks: Clocks = {};
  // Forced (after a refusal): the fields whose latest local write is the refused one.
  const newer = (field: string) =>
    force !== undefined ? localClocks[field] === force : !local || (entry.clocks[field] ?? zeroHlc) > (localClocks[field] ?? zeroHlc);
  const forced: Clocks = {};
  for (const [field, value] of Object.entries(remote)) {
    if (field === 'id' || field === 'deleted_at' || !own(table.fields, field)) continue;
    if (newer(field)) {
      // A local change about to lose to a later one elsewhere is shown to the planner (overruled.ts).
      if (local && force === undefined)
        await watch?.check(replica, table, entry.id, field, local, localClocks[field], value, entry.clocks[field]);
      values[field] = value;
      if (entry.clocks[field]) clocks[field] = entry.clocks[field]!;
      if (force !== undefined) forced[field] = entry.clocks[field] ?? zeroHlc;
    }
  }
  const remoteDeleted = typeof remote.deleted_at === 'string';
  const localDeleted = Boolean(local?.deleted_at);
  if (remoteDeleted && !localDeleted) {
    values.deleted_at = remote.deleted_at; // a delete wins over concurrent edits
    if (entry.clocks.deleted_at) clocks.deleted_at = entry.clocks.deleted_at;
  } else if (!remoteDeleted && localDeleted && newer('deleted_at')) {
    values.deleted_at = null; // restored after it was deleted here
    if (entry.clocks.deleted_at) clocks.deleted_at = entry.clocks.deleted_at;
    if (force !== undefined) forced.deleted_at = entry.clocks.deleted_at ?? zeroHlc;
  } else if (!local && remoteDeleted) {
    values.deleted_at = remote.deleted_at;
  }
  if (Object.keys(values).length === 0) return;
  await replica.writeForSync(table, entry.id, values, clocks);
  if (applied) {
    // The plan check after the pull names the change and its computer (plan-changes.ts).
    for (const change of pulledChanges(table, entry, local, Object.keys(values), clocks)) applied(change);
  }
  // The replica now holds the remote's values of those fields: their clocks are the remote's too.
  if (force !== undefined) await replica.setClocks(entry.resource, entry.id, forced);
  for (const hlc of Object.values(entry.clocks)) await replica.receiveClock(hlc);
}

/**
 * Keeps what this version does not declare of a remote record: its unknown fields, or the
 * whole record of an unknown resource, each field last-writer-wins by its clock.
 */
async function keepUnknown(replica: ReplicaBookWrites, table: TableDef | undefined, entry: RemoteRecord): Promise<void> {
  if (!entry.record) return;
  const unknown: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(entry.record)) {
    if (field === 'id' || (table && (field === 'deleted_at' || own(table.fields, field)))) continue;
    // A record of an unknown resource that was never deleted says `deleted_at: null`, with no clock.
    if (field === 'deleted_at' && value === null && !entry.clocks.deleted_at) continue;
    unknown[field] = value;
  }
  if (Object.keys(unknown).length === 0) return;
  // Written by whoever the remote names no one: null, the remote's word (unknown-data.ts).
  await replica.keep(entry.resource, entry.id, unknown, (field) => entry.clocks[field] ?? zeroHlc, null);
  if (!table) for (const hlc of Object.values(entry.clocks)) await replica.receiveClock(hlc);
}

/**
 * What mergeRecords and mergeInto are told: `force`, the hlc of this replica's refused mutation
 * (see mergeOne); `watch` notes overruled edits; `applied` hears of each record the merge
 * changed here (plan-changes.ts); `afterApply` runs last, in the same transaction.
 */
export interface MergeOptions {
  force?: string;
  afterApply?: (tx: RecordWrites) => Promise<void>;
  watch?: OverruledWatch;
  applied?: (change: PulledChange) => void;
}

/**
 * Merges a checked batch in the transaction `tx` (which may hold more: a push's answer with its
 * acknowledgement). Awaits only the transaction's own reads and writes. Returns how many entries it took.
 */
export async function mergeInto(
  tx: RecordWrites,
  tables: ReadonlyMap<string, TableDef>,
  entries: readonly RemoteRecord[],
  options: MergeOptions = {},
): Promise<number> {
  const replica = replicaOf(tx);
  let applied = 0;
  for (const entry of entries) {
    const table = tables.get(entry.resource);
    await keepUnknown(replica, table, entry);
    if (table) await mergeOne(replica, table, entry, options.force, options.watch, options.applied);
    applied++;
  }
  await options.afterApply?.(tx);
  return applied;
}

/**
 * Merges a checked batch (a pulled page) in one transaction of its own, all or nothing: its
 * changes meet the transaction's write hooks (webhook events, automation) inside it.
 */
export function mergeRecords(
  records: RecordStore,
  tables: ReadonlyMap<string, TableDef>,
  entries: readonly RemoteRecord[],
  options: MergeOptions = {},
): Promise<number> {
  return records.transaction((tx) => mergeInto(tx, tables, entries, options));
}
