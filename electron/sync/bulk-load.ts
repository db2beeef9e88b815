/**
 * A replica's first snapshot, loaded as the bulk load it is (docs/API.md "Sync"). A replica
 * with no records and nothing to push has nothing to merge with, so each snapshot page is
 * inserted with prepared statements in one transaction — the records, then their field
 * clocks — instead of field by field through mergeRecords (merge.ts), which first reads every
 * record and its clocks and runs every write hook. What lands is what the merge would have
 * written for a record the replica does not have, but for the change-log rows
 * (docs/decisions/first-snapshot-unlogged.md), and the same change events go out.
 *
 * The caller checks the page whole first (checkBatch), so bad data refuses the page and
 * changes nothing. What a plain insert does not cover goes through mergeRecords in the same
 * transaction: records of resources, or with fields, that this version does not declare (kept
 * with their clocks). A page that meets a record the replica has after all (the planner wrote
 * meanwhile, or the remote sent an id twice) is rolled back and merged instead.
 *
 * A page may come in rows (docs/API.md "Snapshot in rows"): per resource its field names
 * once, then each record as the values of those fields and its clocks. Those are checked by a
 * check made once per resource (checkRows) and go into the tables as they came, with no
 * object made per record; rows of a resource or with a field this version does not declare
 * are made into records and take the way above. A row's clocks may come compact, as `[clock,
 * clocks]` where 0 in the clocks stands for `clock` (the one most of a record's fields share). A
 * remote sends that form to a replica of sync protocol 4 or later
 * (docs/decisions/compact-field-clocks.md); both forms are read, in any mix.
 */
import { canonicalDatetime, checkValue, isPlainObject, isValidDate, loneSurrogate, own, type FieldSpec } from '../../shared/fields.js';
import { isHlc, maxClockSkewMs, zeroHlc } from '../../shared/hlc.js';
import { isUuid } from '../../shared/ids.js';
import type { RecordStore, RecordWrites } from '../store/record-store.js';
import type { NewSyncedRecord, ReplicaBookReads } from '../store/replica-book.js';
import type { TableDef } from '../store/table-def.js';
import type { Clocks } from '../store/sync-book.js';
import { mergeInto, mergeRecords, pulledSpec, replicaOf, SyncMessageError, type RemoteRecord } from './merge.js';
import { nowMs } from '../../shared/clock.js';

/** Whether the replica has no record of any synced resource (deleted ones included) and nothing to push. */
export async function isEmptyReplica(replica: ReplicaBookReads, tables: ReadonlyMap<string, TableDef>): Promise<boolean> {
  if ((await replica.pendingCount()) > 0) return false;
  for (const table of tables.values()) if (await replica.hasRecords(table)) return false;
  return true;
}

/**
 * What mergeRecords writes for a record the replica does not have: every declared field, the
 * deletion of a deleted record, and the clocks of the fields written. Undefined when the entry
 * needs the merge (a field this version does not declare), null when nothing is written.
 */
function asNewRecord(table: TableDef, entry: RemoteRecord): NewSyncedRecord | null | undefined {
  const remote = entry.record;
  if (!remote) return null;
  const values: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(remote)) {
    if (field === 'id' || field === 'deleted_at') continue;
    if (!own(table.fields, field)) return undefined;
    values[field] = value;
  }
  if (typeof remote.deleted_at === 'string') values.deleted_at = remote.deleted_at;
  if (Object.keys(values).length === 0) return null;
  const clocks: Clocks = {};
  for (const field of Object.keys(values)) {
    const hlc = entry.clocks[field];
    if (hlc && hlc > zeroHlc) clocks[field] = hlc;
  }
  return { id: entry.id, values, clocks };
}

function isConstraintError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT');
}

/** A resource's rows of a snapshot page, checked and as the table stores them. */
export interface CheckedRows {
  table: TableDef;
  /** `id` first. */
  columns: string[];
  rows: unknown[][];
  /** Each record's clocks as JSON, as merging would keep them; by row. */
  clocks: string[];
  /** The records as mergeRecords takes them, should the page have to be merged after all. */
  entries: () => RemoteRecord[];
  /** The newest clock the page carries (text order), '' for none. */
  newest: string;
}

/**
 * How one field's pulled values are checked: its type, not its local rules (as checkBatch),
 * made once per field of a page rather than found again for every value. Answers the problem,
 * or undefined. The common values are accepted here without checkValue's answer object (a page
 * is hundreds of thousands of values), only where checkValue would accept them; anything else
 * goes to checkValue for its answer. A calendar day is looked up once per page (`days`).
 */
function checkOf(spec: FieldSpec, days: Map<string, boolean>): (value: unknown) => string | undefined {
  const pulled = pulledSpec(spec);
  const general = (value: unknown) => {
    const result = checkValue(pulled, value);
    return result.ok ? undefined : result.problem;
  };
  const validDay = (day: string) => {
    let valid = days.get(day);
    if (valid === undefined) days.set(day, (valid = isValidDate(day)));
    return valid;
  };
  const plain =
    pulled.enum === undefined &&
    pulled.minimum === undefined &&
    pulled.maximum === undefined &&
    (pulled.type === 'string' || pulled.maxLength === undefined);
  let accepts: ((value: unknown) => boolean) | undefined;
  if (plain) {
    switch (pulled.type) {
      case 'string': {
        const max = pulled.maxLength;
        accepts = (value) => typeof value === 'string' && (max === undefined || value.length <= max) && !loneSurrogate.test(value);
        break;
      }
      case 'uuid':
        accepts = isUuid;
        break;
      case 'datetime':
        accepts = (value) => typeof value === 'string' && canonicalDatetime.test(value) && validDay(value.slice(0, 10));
        break;
      case 'date':
        accepts = (value) => typeof value === 'string' && value.length === 10 && validDay(value);
        break;
      case 'integer':
        accepts = Number.isSafeInteger;
        break;
      case 'number':
        accepts = Number.isFinite;
        break;
      case 'boolean':
        accepts = (value) => typeof value === 'boolean';
        break;
    }
  }
  if (!accepts) return (value) => (value === null ? undefined : general(value));
  const fast = accepts;
  return (value) => (value === null || fast(value) ? undefined : general(value));
}

/** How a field's value is stored, when not as it is (toRow in environment-store.ts). */
function storedOf(spec: FieldSpec): ((value: unknown) => unknown) | undefined {
  if (spec.type === 'boolean') return (value) => (value === null ? null : value ? 1 : 0);
  if (spec.type === 'json') return (value) => (value === null ? null : JSON.stringify(value));
  return undefined;
}

const untested = Symbol('untested');

function recordOf(fields: readonly string[], row: readonly unknown[]): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (let i = 0; i < fields.length; i++) record[fields[i]!] = row[i];
  return record;
}

/** Whether a row's clocks are in the compact form, `[clock, clocks]`, well made as far as its shape goes. */
function isCompactClocks(given: readonly unknown[]): given is [string, Record<string, unknown>] {
  return given.length === 2 && isHlc(given[0]) && isPlainObject(given[1]);
}

/**
 * A row's clocks as an object: the object as it came, or the compact form `[clock, clocks]`
 * made into one (0 in `clocks` stands for `clock`). Undefined when the compact form is
 * malformed; anything else is left as it came, for the check to refuse.
 */
function clocksOf(fields: readonly string[], row: readonly unknown[]): unknown {
  const given = row[fields.length];
  if (!Array.isArray(given)) return given;
  if (!isCompactClocks(given)) return undefined;
  const [clock, compact] = given;
  const clocks: Record<string, unknown> = {};
  for (const key in compact) clocks[key] = compact[key] === 0 ? clock : compact[key];
  return clocks;
}

/**
 * Checks the `tables` of a snapshot page in rows, whole: any malformed part throws
 * SyncMessageError and nothing is loaded. Returns the rows to load as they are, and as records
 * those of a resource or with a field this version does not declare (for checkBatch and the merge).
 */
export function checkRows(tables: ReadonlyMap<string, TableDef>, value: unknown): { loads: CheckedRows[]; records: unknown[] } {
  if (!Array.isArray(value)) throw new SyncMessageError("the page's tables are not a list");
  const loads: CheckedRows[] = [];
  const records: unknown[] = [];
  const ceiling = String(nowMs() + maxClockSkewMs).padStart(13, '0');
  const days = new Map<string, boolean>();
  value.forEach((part: unknown, index) => {
    const where = `table ${index}`;
    if (!isPlainObject(part) || typeof part.resource !== 'string' || !Array.isArray(part.fields) || !Array.isArray(part.rows))
      throw new SyncMessageError(`${where} is not a resource with fields and rows`);
    const fields = part.fields as unknown[];
    if (fields[0] !== 'id' || !fields.every((f) => typeof f === 'string') || new Set(fields).size !== fields.length)
      throw new SyncMessageError(`${where}: its fields must be distinct names, id first`);
    const names = fields as string[];
    const width = names.length + 1;
    const table = tables.get(part.resource);
    const known = table && names.every((name) => name === 'id' || name === 'deleted_at' || own(table.fields, name));
    for (const row of part.rows as unknown[])
      if (!Array.isArray(row) || row.length !== width)
        throw new SyncMessageError(`${where}: a row is not ${width} values (its fields and its clocks)`);
    const rows = part.rows as unknown[][];
    if (!known) {
      // Another version's resource or fields: as records, checked and kept as checkBatch does.
      for (const row of rows)
        records.push({ resource: part.resource, id: row[0], record: recordOf(names, row), clocks: clocksOf(names, row) });
      return;
    }
    const deleted = names.indexOf('deleted_at');
    const checks = names.map((name) => (name === 'id' || name === 'deleted_at' ? undefined : checkOf(own(table.fields, name)!, days)));
    const converts = names.flatMap((name, i) => {
      const convert = checks[i] ? storedOf(own(table.fields, name)!) : undefined;
      return convert ? [{ i, convert }] : [];
    });
    // Clocks are kept for the fields written, deleted_at last and only for a deleted record, as merging keeps them.
    const clocked = names.filter((name) => name !== 'id' && name !== 'deleted_at');
    let newest = '';
    const stored: unknown[][] = [];
    const clocks: string[] = [];
    // Where a problem is, made only when there is one.
    let r = 0;
    const at = () => `${where} row ${r}`;
    for (; r < rows.length; r++) {
      const row = rows[r]!;
      const id = row[0];
      if (!isUuid(id)) throw new SyncMessageError(`${at()} has no uuid id`);
      for (let i = 1; i < names.length; i++) {
        if (i === deleted) {
          if (row[i] !== null && typeof row[i] !== 'string') throw new SyncMessageError(`${at()}: deleted_at must be a date-time or null`);
          continue;
        }
        const problem = checks[i]!(row[i]);
        if (problem !== undefined) throw new SyncMessageError(`${at()}: ${table.resource}.${names[i]} ${problem}`);
      }
      // The values as stored, without the clocks; the row stays as it came (entries()).
      const out = row.slice(0, names.length);
      out[0] = id.toLowerCase();
      for (const { i, convert } of converts) out[i] = convert(out[i]);
      const given = row[names.length];
      let text = '';
      if (Array.isArray(given)) {
        // The compact form: written out as the object it stands for would be, with no object made.
        if (!isCompactClocks(given)) throw new SyncMessageError(`${at()} has malformed clocks`);
        const [clock, compact] = given;
        if (clock > newest && clock.slice(0, 13) <= ceiling) newest = clock;
        for (const key in compact) {
          const hlc = compact[key];
          if (hlc === 0) continue;
          if (!isHlc(hlc)) throw new SyncMessageError(`${at()} has malformed clocks`);
          if (hlc > newest && hlc.slice(0, 13) <= ceiling) newest = hlc;
        }
        for (const name of clocked) {
          const hlc = compact[name];
          if (hlc !== undefined) text += `${text ? ',' : '{'}"${name}":"${hlc === 0 ? clock : (hlc as string)}"`;
        }
        if (deleted !== -1 && typeof out[deleted] === 'string' && compact.deleted_at !== undefined)
          text += `${text ? ',' : '{'}"deleted_at":"${compact.deleted_at === 0 ? clock : (compact.deleted_at as string)}"`;
        stored.push(out);
        clocks.push(text ? `${text}}` : '{}');
        continue;
      }
      if (!isPlainObject(given)) throw new SyncMessageError(`${at()} has malformed clocks`);
      // A record's fields mostly share one clock (written together): each is tested once.
      let last: unknown = untested;
      for (const key in given) {
        const hlc = given[key];
        if (hlc === last) continue;
        if (!isHlc(hlc)) throw new SyncMessageError(`${at()} has malformed clocks`);
        last = hlc;
        if (hlc > newest && hlc.slice(0, 13) <= ceiling) newest = hlc;
      }
      // Written out as JSON.stringify would write them: names and clocks need no escapes (a
      // field's name is snake case, a clock matches isHlc), and every clock is past zeroHlc.
      for (const name of clocked) {
        const hlc = given[name];
        if (hlc !== undefined) text += `${text ? ',' : '{'}"${name}":"${hlc as string}"`;
      }
      if (deleted !== -1 && typeof out[deleted] === 'string' && given.deleted_at !== undefined)
        text += `${text ? ',' : '{'}"deleted_at":"${given.deleted_at as string}"`;
      stored.push(out);
      clocks.push(text ? `${text}}` : '{}');
    }
    if (stored.length === 0) return;
    loads.push({
      table,
      columns: names,
      rows: stored,
      clocks,
      newest,
      entries: () =>
        rows.map((row) => ({
          resource: table.resource,
          id: (row[0] as string).toLowerCase(),
          record: recordOf(names, row),
          // Checked above: an object of clocks, or one clock made into one.
          clocks: clocksOf(names, row) as Clocks,
        })),
    });
  });
  return { loads, records };
}

/**
 * Loads one checked snapshot page in one transaction; `afterApply` runs inside it. Returns how
 * many entries it took, as mergeRecords does.
 */
export async function bulkLoad(
  records: RecordStore,
  tables: ReadonlyMap<string, TableDef>,
  entries: readonly RemoteRecord[],
  afterApply: (tx: RecordWrites) => Promise<void>,
  /** The page's rows (checkRows), loaded first. */
  loads: readonly CheckedRows[] = [],
): Promise<number> {
  const byTable = new Map<TableDef, NewSyncedRecord[]>();
  const merged: RemoteRecord[] = [];
  // The replica's clock moves past every clock written, as merging does record by record. Clocks
  // sort as text; those further ahead than the allowed skew do not move it.
  const ceiling = String(nowMs() + maxClockSkewMs).padStart(13, '0');
  let newest = '';
  for (const load of loads) if (load.newest > newest) newest = load.newest;
  for (const entry of entries) {
    const table = tables.get(entry.resource);
    const record = table ? asNewRecord(table, entry) : undefined;
    if (record === undefined) {
      merged.push(entry);
      continue;
    }
    if (record === null) continue;
    let list = byTable.get(table!);
    if (!list) byTable.set(table!, (list = []));
    list.push(record);
    for (const hlc of Object.values(entry.clocks)) if (hlc > newest && hlc.slice(0, 13) <= ceiling) newest = hlc;
  }
  try {
    await records.transaction(async (tx) => {
      const replica = replicaOf(tx);
      for (const load of loads) await replica.insertRowsForSync(load.table, load.columns, load.rows, load.clocks);
      for (const [table, list] of byTable) await replica.insertManyForSync(table, list);
      if (merged.length > 0) await mergeInto(tx, tables, merged);
      if (newest) await replica.receiveClock(newest);
      await afterApply(tx);
    });
  } catch (error) {
    if (!isConstraintError(error)) throw error;
    const all = [...loads.flatMap((load) => load.entries()), ...entries];
    return mergeRecords(records, tables, all, { afterApply });
  }
  return entries.length + loads.reduce((n, load) => n + load.rows.length, 0);
}
