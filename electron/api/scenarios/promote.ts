/**
 * Lays a scenario's changes onto the live plan as it is now (docs/API.md "Scenarios"): for each
 * record the scenario changed since its fork, the fields whose value it changed (its net
 * change), written in the live plan in the caller's one transaction, so in one command: one undo
 * step, one sync group, all or nothing. What colleagues changed in the live plan since is kept.
 *
 * A clash is a record both changed since the fork on a field where the two now disagree, a
 * record the scenario deleted and the live plan changed, or one the live plan deleted and the
 * scenario changed. Each is listed once per record; the caller says what to do with each
 * (`mine`, `theirs`, `leave`), or nothing is written. Fields the server works out itself
 * (read-only ones: a collection's end, a card's rank) never clash: where the live plan changed
 * one since, its value stays.
 */
import type { Resolution, ScenarioClash } from '../../../shared/operations/scenarios.js';
import type { ScenarioChange } from '../../store/scenario-book.js';
import type { RecordWrites } from '../../store/record-store.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { TableDef } from '../../store/table-def.js';
import { moduleNamedOrNone } from '../registry.js';
import { tableNamed, tables } from '../tables.js';

/** Fields every write touches, and the one a delete sets: never compared as plan fields. */
const bookkeeping = new Set(['id', 'created_at', 'updated_at']);

/** One value as JSON with sorted keys: a json field's object compares by content. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    // A plain object from a decoded record or change-log row.
    const object = value as Record<string, unknown>;
    return `{${Object.keys(object)
      .sort()
      .map((key) => `${JSON.stringify(key)}:${canonical(object[key])}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** A record's field in the planner's words: `start_date` → "start date". */
const fieldWords = (field: string) => field.replace(/_id$/, '').replace(/_/g, ' ');
const resourceWords = (resource: string) => {
  const words = resource.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
};
const shown = (value: unknown) =>
  value === null || value === undefined || value === '' ? 'nothing' : typeof value === 'string' ? value : canonical(value);

/** What promote writes for one record. */
type Write =
  | { kind: 'insert'; table: TableDef; values: Record<string, unknown> }
  | { kind: 'update'; table: TableDef; id: string; values: Record<string, unknown>; clashing: string[]; restore: boolean }
  | { kind: 'delete'; table: TableDef; id: string };

interface Planned {
  change: ScenarioChange;
  write: Write;
  clash?: ScenarioClash;
}

/** How a record is named in a clash: a card by its name and its collection's, anything else by its name or id. */
async function nameOf(tx: RecordWrites, change: ScenarioChange, live: StoredRecord | undefined): Promise<string> {
  const record: Record<string, unknown> = { ...change.now, ...live };
  const name = typeof record.name === 'string' && record.name !== '' ? `"${record.name}"` : change.id;
  if (change.resource !== 'card' || typeof record.collection_id !== 'string') return `${resourceWords(change.resource)} ${name}`;
  const collection = await tx.get(tables.collection, record.collection_id);
  return `Card ${name}${collection?.name ? ` of ${collection.name}` : ''}`;
}

/** The fields the live plan wrote on a record since the fork (its change log after the base). */
async function liveWrites(tx: RecordWrites, change: ScenarioChange, base: number): Promise<Set<string>> {
  const fields = new Set<string>();
  for (const row of await tx.commands.changesAfter(change.resource, change.id, base)) {
    for (const field of Object.keys(row.fields ?? {})) if (!bookkeeping.has(field)) fields.add(field);
  }
  return fields;
}

async function plan(tx: RecordWrites, change: ScenarioChange, base: number): Promise<Planned | undefined> {
  const table = tableNamed(change.resource);
  // Only the plan is promoted: records of this instance alone (webhooks, OAuth clients, KPI snapshots) stay in the scenario.
  const module = moduleNamedOrNone(change.resource);
  if (!table || !module || module.syncs === false) return undefined;
  const now: Record<string, unknown> = change.now;
  const deletedHere = change.now.deleted_at !== null;
  if (change.created) {
    if (deletedHere || (await tx.get(table, change.id, { includeDeleted: true }))) return undefined;
    const values = Object.fromEntries(Object.entries(now).filter(([field]) => field !== 'deleted_at'));
    return { change, write: { kind: 'insert', table, values } };
  }
  // The scenario's net change: the fields whose value differs from the fork's.
  const net = change.written.filter((field) =>
    field === 'deleted_at' ? (change.fork.deleted_at === null) !== !deletedHere : !same(now[field], change.fork[field]),
  );
  if (net.length === 0) return undefined;
  const stored = await tx.get(table, change.id);
  const live: Record<string, unknown> | undefined = stored;
  const writtenLive = await liveWrites(tx, change, base);
  const name = async () => nameOf(tx, change, stored);

  if (deletedHere) {
    if (!live) return undefined;
    const write: Write = { kind: 'delete', table, id: change.id };
    if (writtenLive.size === 0) return { change, write };
    const fields = [...writtenLive];
    const description = `${await name()} is deleted in this scenario, and its ${fields.map(fieldWords).join(', ')} changed in the live plan since.`;
    return { change, write, clash: { resource: change.resource, id: change.id, description, fields } };
  }

  const values: Record<string, unknown> = {};
  const clashing: string[] = [];
  for (const field of net) {
    if (field === 'deleted_at') continue;
    const value = now[field];
    if (live && same(live[field], value)) continue;
    const changedLive = live !== undefined && writtenLive.has(field) && !same(live[field], change.fork[field]);
    if (changedLive && table.fields[field]?.readOnly) continue;
    values[field] = value;
    if (changedLive) clashing.push(field);
  }
  if (!live) {
    // Deleted in the live plan since the fork (or never restored there): the scenario changed it.
    const fields = Object.keys(values);
    if (fields.length === 0 && !net.includes('deleted_at')) return undefined;
    const description = `${await name()} was deleted in the live plan since, and this scenario changed its ${fields.map(fieldWords).join(', ') || 'state'}.`;
    const restore = (await tx.get(table, change.id, { includeDeleted: true })) !== undefined;
    const write: Write = { kind: 'update', table, id: change.id, values, clashing: fields, restore };
    // The scenario restored a record the live plan still has deleted from before the fork: no clash.
    if (net.includes('deleted_at') && !writtenLive.has('deleted_at')) return { change, write };
    return { change, write, clash: { resource: change.resource, id: change.id, description, fields } };
  }
  if (Object.keys(values).length === 0) return undefined;
  const write: Write = { kind: 'update', table, id: change.id, values, clashing, restore: false };
  if (clashing.length === 0) return { change, write };
  const what = clashing.map(
    (field) => `${fieldWords(field)} ${shown(now[field])} in this scenario, ${shown(live[field])} in the live plan`,
  );
  return {
    change,
    write,
    clash: { resource: change.resource, id: change.id, description: `${await name()}: ${what.join('; ')}.`, fields: clashing },
  };
}

/** What the scenario's changes would do to the live plan now: the writes, and the clashes among them. */
export async function planPromote(tx: RecordWrites, changes: readonly ScenarioChange[], base: number): Promise<Planned[]> {
  const planned: Planned[] = [];
  for (const change of changes) {
    const one = await plan(tx, change, base);
    if (one) planned.push(one);
  }
  return planned;
}

/** The clashes of a plan of writes (planPromote), one per record. */
export function clashesOf(planned: readonly Planned[]): ScenarioClash[] {
  return planned.flatMap((p) => (p.clash ? [p.clash] : []));
}

/**
 * Writes a plan of writes in the live plan, each clash as `resolve` says (every clash has a
 * resolution: the caller checked). Answers how many records it wrote and left out.
 */
export async function writePromote(
  tx: RecordWrites,
  planned: readonly Planned[],
  resolve: Readonly<Record<string, Resolution>>,
): Promise<{ changed: number; leftOut: number }> {
  let changed = 0;
  let leftOut = 0;
  for (const { write, clash } of planned) {
    const resolution = clash ? resolve[clash.id]! : 'mine';
    if (resolution === 'leave') {
      leftOut++;
      continue;
    }
    if (write.kind === 'insert') {
      await tx.insert(write.table, write.values);
    } else if (write.kind === 'delete') {
      if (resolution === 'theirs') continue;
      await tx.softDelete(write.table, write.id);
    } else {
      if (write.restore && resolution === 'theirs') continue;
      if (write.restore) await tx.restore(write.table, write.id);
      const values = resolution === 'theirs' ? omit(write.values, write.clashing) : write.values;
      if (Object.keys(values).length === 0 && !write.restore) continue;
      if (Object.keys(values).length > 0) await tx.update(write.table, write.id, values);
    }
    changed++;
  }
  return { changed, leftOut };
}

function omit(values: Record<string, unknown>, fields: readonly string[]): Record<string, unknown> {
  return Object.fromEntries(Object.entries(values).filter(([field]) => !fields.includes(field)));
}
