/**
 * Eager loading with `with=rel,rel.sub.sub` (docs/API.md "Relations"). Each relation level costs
 * one query for the whole page (per 500 keys and per 500 records), never one per record. Loaded
 * records are presented like any other (virtual fields, no write-only fields, admin-only ones for
 * admins only), and may load their own relations in turn. What an answer embeds is counted
 * against a budget level by level, before the next level is read (answer-work.ts).
 */
import type { StoredRecord } from '../../../shared/fields.js';
import { own } from '../../../shared/fields.js';
import { ApiError } from '../errors.js';
import { hiddenFields } from '../permissions.js';
import type { Relation, RequestContext, ResourceModule } from '../resource.js';
import { moduleNamed } from '../registry.js';
import type { AnswerWork } from './answer-work.js';
import { isWhole, markWhole } from './answer-json.js';

type WithTree = Map<string, WithTree>;

const maxDepth = 5;

function buildTree(paths: string[]): WithTree {
  const tree: WithTree = new Map();
  for (const path of paths) {
    const parts = path.split('.');
    let node = tree;
    for (const part of parts) {
      let child = node.get(part);
      if (!child) {
        child = new Map();
        node.set(part, child);
      }
      node = child;
    }
  }
  return tree;
}

/**
 * A stored record as a client reads it: without the fields it may not see, and with
 * `deleted_at`, which every record of the public API carries (null unless deleted; deleted
 * records are listed only by the trash). Not a declared field, so it is never written.
 */
export function readableCopy(record: Record<string, unknown>, hidden: readonly string[]): Record<string, unknown> {
  const copy: Record<string, unknown> = { ...record, deleted_at: record.deleted_at ?? null };
  for (const name of hidden) delete copy[name];
  return copy;
}

/** Records of one level of an answer, and how many times the answer holds each (a shared record counts each time). */
type Times = Map<Record<string, unknown>, number>;

/** Values per query, as the SQLite store sends them at most (environment-store.ts getWhereIn). */
const keysPerQuery = 500;
/** Records read and presented per batch, a few milliseconds' work; other requests get a turn between batches (AnswerWork.turn). */
const recordsPerBatch = 500;

/**
 * The live records of `table` whose `field` is one of `values`, read a batch at a time. With a
 * `cap`, it stops as soon as it has read more than that: `cut` then says there are more.
 */
async function readWhereIn(
  ctx: RequestContext,
  work: AnswerWork,
  table: ResourceModule['table'],
  field: string,
  values: readonly unknown[],
  cap?: number,
): Promise<{ rows: StoredRecord[]; cut: boolean }> {
  const keys = [...new Set(values.filter((value) => value !== null && value !== undefined))];
  const rows: StoredRecord[] = [];
  for (let i = 0; i < keys.length; i += keysPerQuery) {
    const some = keys.slice(i, i + keysPerQuery);
    let after: string | undefined;
    for (;;) {
      // After a full batch, the level is big: others get a turn before the next.
      await work.turn(rows.length > 0);
      const page = await ctx.records.getWhereIn(table, field as never, some, {
        limit: recordsPerBatch,
        ...(after === undefined ? {} : { after }),
      });
      for (const row of page) rows.push(row);
      if (cap !== undefined && rows.length > cap) return { rows, cut: true };
      if (page.length < recordsPerBatch) break;
      after = page[page.length - 1]!.id;
    }
  }
  return { rows, cut: false };
}

/** Loaded records as a client reads them, presented by their module a batch at a time. */
async function presentLoaded(ctx: RequestContext, work: AnswerWork, module: ResourceModule, rows: StoredRecord[]) {
  const hidden = hiddenFields(module.spec, ctx.caller);
  const out: Record<string, unknown>[] = [];
  for (let i = 0; i < rows.length; i += recordsPerBatch) {
    if (i > 0) await work.turn(true);
    const batch = rows.slice(i, i + recordsPerBatch).map((row) => readableCopy(row, hidden));
    await module.rules?.present?.(ctx, batch, []);
    for (const record of batch) out.push(record);
  }
  return out;
}

/** A loaded record under one record, with the link that puts it there (a many-to-many relation's pivot). */
interface Placed {
  target: Record<string, unknown>;
  link?: StoredRecord;
}

function single(found: Record<string, unknown> | undefined): Placed | null {
  return found ? { target: found } : null;
}

const idOf = (record: Record<string, unknown>) => record.id;
const valueOf = (field: string) => (record: Record<string, unknown>) => record[field];

/**
 * What one relation puts under each record: one record or none, or a list. Read level by level,
 * a batch at a time; a list longer than the budget's room is refused before it is presented.
 */
async function placeRelation(
  ctx: RequestContext,
  work: AnswerWork,
  relation: Exclude<Relation, { kind: 'fields' }>,
  records: Record<string, unknown>[],
  path: string,
): Promise<{ under: (record: Record<string, unknown>) => Placed[] | Placed | null }> {
  const target = moduleNamed(relation.target);
  const listed = async (table: ResourceModule['table'], field: string, values: readonly unknown[], cap?: number) => {
    const { rows, cut } = await readWhereIn(ctx, work, table, field, values, cap);
    // Each of them goes into the answer at least once: more than the room left is over the budget.
    if (cut) work.embeds(rows.length, path, true);
    return rows;
  };
  const loaded = async (rows: StoredRecord[]) => presentLoaded(ctx, work, target, rows);
  const ids = records.map(idOf);
  if (relation.kind === 'belongsTo') {
    const rows = await loaded(await listed(target.table, 'id', records.map(valueOf(relation.foreignKey))));
    const byId = new Map(rows.map((row) => [row.id, row]));
    return { under: (record) => single(byId.get(record[relation.foreignKey])) };
  }
  if (relation.kind === 'hasOne') {
    const rows = await loaded(await listed(target.table, relation.foreignKey, ids));
    const byOwner = new Map(rows.map((row) => [row[relation.foreignKey], row]));
    return { under: (record) => single(byOwner.get(record.id)) };
  }
  if (relation.kind === 'hasMany') {
    const key = relation.localKey ?? 'id';
    const rows = await loaded(await listed(target.table, relation.foreignKey, records.map(valueOf(key)), work.room));
    const byParent = groupBy(rows, (row) => row[relation.foreignKey]);
    return { under: (record) => (byParent.get(record[key]) ?? []).map((found) => ({ target: found })) };
  }
  if (relation.kind === 'manyToMany') {
    const links = await listed(moduleNamed(relation.link).table, relation.ownerKey, ids, work.room);
    const rows = await loaded(await listed(target.table, 'id', links.map(valueOf(relation.targetKey))));
    const byId = new Map(rows.map((row) => [row.id, row]));
    const byOwner = groupBy(links, (l) => l[relation.ownerKey]);
    return {
      under: (record) =>
        (byOwner.get(record.id) ?? []).flatMap((l) => {
          const found = byId.get(l[relation.targetKey]);
          return found ? [{ target: found, link: l }] : [];
        }),
    };
  }
  return placePeers(relation, records, listed, loaded);
}

/**
 * The records that share a link target with each record (the resources in a group with it), in
 * creation order, each once, never the record itself: three queries for the whole page.
 */
async function placePeers(
  relation: Extract<Relation, { kind: 'peers' }>,
  records: Record<string, unknown>[],
  listed: (table: ResourceModule['table'], field: string, values: readonly unknown[]) => Promise<StoredRecord[]>,
  loaded: (rows: StoredRecord[]) => Promise<Record<string, unknown>[]>,
): Promise<{ under: (record: Record<string, unknown>) => Placed[] }> {
  const link = moduleNamed(relation.link).table;
  const ownLinks = await listed(link, relation.ownerKey, records.map(idOf));
  const sharedLinks = await listed(link, relation.sharedKey, ownLinks.map(valueOf(relation.sharedKey)));
  const peers = await loaded(await listed(moduleNamed(relation.target).table, 'id', sharedLinks.map(valueOf(relation.ownerKey))));
  const byId = new Map(peers.map((r) => [r.id, r]));
  const members = groupBy(sharedLinks, (l) => l[relation.sharedKey]);
  const sharedBy = groupBy(ownLinks, (l) => l[relation.ownerKey]);
  return {
    under: (record) => {
      const ids = new Set<string>();
      for (const mine of sharedBy.get(record.id) ?? []) {
        for (const other of members.get(mine[relation.sharedKey]) ?? []) {
          // A link's owner key is a uuid column (the relation's declaration names it).
          const id = other[relation.ownerKey] as string;
          if (id !== record.id && byId.has(id)) ids.add(id);
        }
      }
      // Ids are UUIDv7: sorted, they are in creation order, as every other relation lists.
      return [...ids].sort().map((id) => ({ target: byId.get(id)! }));
    },
  };
}

/**
 * A many-to-many target as its link lists it: the link's fields merged in ({id, time}) unless
 * the target has a field of that name (a stage's own priority); `pivot` always holds them all.
 * Links with the same fields share one object.
 */
function mergedWithPivot(relation: Extract<Relation, { kind: 'manyToMany' }>, merged: Map<unknown, Map<string, Record<string, unknown>>>) {
  return ({ target, link }: Placed): Record<string, unknown> => {
    const pivot = Object.fromEntries((relation.pivot ?? []).map((field) => [field, link![field]]));
    const key = JSON.stringify(pivot);
    let copies = merged.get(target);
    if (!copies) merged.set(target, (copies = new Map()));
    let copy = copies.get(key);
    if (!copy) {
      copy = { ...target, ...Object.fromEntries(Object.entries(pivot).filter(([field]) => !(field in target))), pivot };
      if (isWhole(target)) markWhole(copy);
      copies.set(key, copy);
    }
    return copy;
  };
}

/**
 * Loads `tree` under `records`, top down: each level is read for the whole level at once, and
 * counted (each record as many times as the answer holds it, `times`) before the next level
 * is read, so an answer over the budget is refused before it is built (docs/API.md "Relations").
 * A record loaded once is one object wherever the answer embeds it.
 */
async function loadTree(
  ctx: RequestContext,
  work: AnswerWork,
  module: ResourceModule,
  records: Record<string, unknown>[],
  times: Times,
  tree: WithTree,
  path: string,
): Promise<void> {
  for (const [name, children] of tree) {
    const relation = own(module.relations, name);
    if (!relation) throw ApiError.badRequest(`Relation not found: ${name}`);
    if (relation.kind === 'fields') {
      for (const record of records) record[name] = Object.fromEntries(relation.fields.map((field) => [field, record[field] ?? null]));
      continue;
    }
    const at = path ? `${path}.${name}` : name;
    const { under } = await placeRelation(ctx, work, relation, records, at);
    const placed = new Map(records.map((record) => [record, under(record)]));
    const targetTimes: Times = new Map();
    let count = 0;
    for (const [record, found] of placed) {
      const n = times.get(record) ?? 1;
      for (const { target } of found === null ? [] : Array.isArray(found) ? found : [found]) {
        targetTimes.set(target, (targetTimes.get(target) ?? 0) + n);
        count += n;
      }
    }
    work.embeds(count, at);
    await work.turn();
    const targets = [...targetTimes.keys()];
    if (children.size > 0) await loadTree(ctx, work, moduleNamed(relation.target), targets, targetTimes, children, at);
    else for (const target of targets) markWhole(target);
    const asListed = relation.kind === 'manyToMany' ? mergedWithPivot(relation, new Map()) : ({ target }: Placed) => target;
    for (const [record, found] of placed) {
      // A list each: by `localKey` several records share one group (resources of one type).
      record[name] = found === null ? null : Array.isArray(found) ? found.map(asListed) : found.target;
    }
  }
}

function groupBy<T extends Record<string, unknown>>(rows: T[], key: (row: T) => unknown): Map<unknown, T[]> {
  const groups = new Map<unknown, T[]>();
  for (const row of rows) {
    const k = key(row);
    const list = groups.get(k);
    if (list) list.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

/**
 * Loads the relations `paths` name under `records` (the answer's own records, each held once),
 * counting what they embed in `work`.
 */
export async function loadRelations(
  ctx: RequestContext,
  work: AnswerWork,
  module: ResourceModule,
  records: Record<string, unknown>[],
  paths: string[],
): Promise<void> {
  if (paths.length === 0) return;
  const tree = checkRelations(module, paths);
  if (records.length > 0) await loadTree(ctx, work, module, records, new Map(), tree, '');
}

/**
 * The declared name of a relation as `with` gives it: as declared, or in camelCase
 * (`orderRows`), the spelling of the public API's relation methods that its clients also send.
 */
function declaredName(module: ResourceModule, name: string): string | undefined {
  if (own(module.relations, name)) return name;
  const snake = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  return snake !== name && own(module.relations, snake) ? snake : undefined;
}

/**
 * Checks every relation a `with` names, so an unknown one fails even on an empty page, and
 * before a POST or PUT writes anything. Answers the tree by declared names: records embed a
 * relation under that name however it was asked for.
 */
export function checkRelations(module: ResourceModule, paths: string[]): WithTree {
  for (const path of paths) {
    if (path.split('.').length > maxDepth) throw ApiError.badRequest(`with paths may be at most ${maxDepth} levels deep: ${path}`);
  }
  const declared = paths.map((path) => {
    // Undefined past an object of the record's own fields, which has no relations of its own.
    let m: ResourceModule | undefined = module;
    return path
      .split('.')
      .map((part) => {
        const name = m && declaredName(m, part);
        if (!m || !name) throw ApiError.badRequest(`Relation not found: ${part}`);
        const relation: Relation = m.relations![name]!;
        m = relation.kind === 'fields' ? undefined : moduleNamed(relation.target);
        return name;
      })
      .join('.');
  });
  return buildTree(declared);
}
