/**
 * Eager loading with `with=rel,rel.sub.sub` (docs/API.md). Each relation level costs
 * one query for the whole page, never one per record. Loaded records are presented like any
 * other (virtual fields, no write-only fields, admin-only ones for admins only), and may load
 * their own relations in turn.
 */
import type { StoredRecord } from '../../store/environment-store.js';
import { own } from '../../../shared/fields.js';
import { ApiError } from '../errors.js';
import { hiddenFields } from '../permissions.js';
import type { Relation, RequestContext, ResourceModule } from '../resource.js';
import { moduleNamed } from '../registry.js';

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

async function presentLoaded(ctx: RequestContext, module: ResourceModule, rows: StoredRecord[], tree: WithTree) {
  const hidden = hiddenFields(module.spec, ctx.caller);
  const out = rows.map((row) => readableCopy(row, hidden));
  await module.rules?.present?.(ctx, out, []);
  await loadTree(ctx, module, out, tree);
  return out;
}

async function loadTree(ctx: RequestContext, module: ResourceModule, records: Record<string, unknown>[], tree: WithTree) {
  for (const [name, children] of tree) {
    const relation = own(module.relations, name);
    if (!relation) throw ApiError.badRequest(`Relation not found: ${name}`);
    if (relation.kind === 'fields') {
      for (const record of records) record[name] = Object.fromEntries(relation.fields.map((field) => [field, record[field] ?? null]));
      continue;
    }
    const target = moduleNamed(relation.target);
    if (relation.kind === 'peers') {
      await loadPeers(ctx, relation, name, records, children);
    } else if (relation.kind === 'belongsTo') {
      const ids = records.map((r) => r[relation.foreignKey]).filter((v): v is string => typeof v === 'string');
      const loaded = await presentLoaded(ctx, target, await ctx.records.getWhereIn(target.table, 'id', ids), children);
      const byId = new Map(loaded.map((r) => [r.id, r]));
      for (const record of records) record[name] = byId.get(record[relation.foreignKey]) ?? null;
    } else if (relation.kind === 'hasOne') {
      const loaded = await presentLoaded(
        ctx,
        target,
        await ctx.records.getWhereIn(
          target.table,
          relation.foreignKey,
          records.map((r) => r.id),
        ),
        children,
      );
      const byOwner = new Map(loaded.map((row) => [row[relation.foreignKey], row]));
      for (const record of records) record[name] = byOwner.get(record.id) ?? null;
    } else if (relation.kind === 'hasMany') {
      const key = relation.localKey ?? 'id';
      const values = records.map((r) => r[key]).filter((v) => v !== null && v !== undefined);
      const loaded = await presentLoaded(ctx, target, await ctx.records.getWhereIn(target.table, relation.foreignKey, values), children);
      const byParent = groupBy(loaded, (row) => row[relation.foreignKey]);
      // A copy each: by `localKey` several records share one group (resources of one type).
      for (const record of records) record[name] = [...(byParent.get(record[key]) ?? [])];
    } else {
      // Through the link records; their pivot fields are merged into each target.
      const link = moduleNamed(relation.link);
      const links = await ctx.records.getWhereIn(
        link.table,
        relation.ownerKey,
        records.map((r) => r.id),
      );
      const loaded = await presentLoaded(
        ctx,
        target,
        await ctx.records.getWhereIn(
          target.table,
          'id',
          links.map((l) => l[relation.targetKey]),
        ),
        children,
      );
      const byId = new Map(loaded.map((r) => [r.id, r]));
      const byOwner = groupBy(links, (l) => l[relation.ownerKey]);
      for (const record of records) {
        record[name] = (byOwner.get(record.id) ?? []).flatMap((l) => {
          const target = byId.get(l[relation.targetKey]);
          if (!target) return [];
          // Link fields are merged in ({id, time}) unless the target has a field of that name
          // (a stage's own priority); `pivot` always holds them all.
          const pivot = Object.fromEntries((relation.pivot ?? []).map((field) => [field, l[field]]));
          const merged = Object.fromEntries(Object.entries(pivot).filter(([field]) => !(field in target)));
          return [{ ...target, ...merged, pivot }];
        });
      }
    }
  }
}

/**
 * The records that share a link target with each record (the resources in a group with it), in
 * creation order, each once, never the record itself: three queries for the whole page.
 */
async function loadPeers(
  ctx: RequestContext,
  relation: Extract<Relation, { kind: 'peers' }>,
  name: string,
  records: Record<string, unknown>[],
  children: WithTree,
): Promise<void> {
  const link = moduleNamed(relation.link);
  const ownLinks = await ctx.records.getWhereIn(
    link.table,
    relation.ownerKey,
    records.map((r) => r.id),
  );
  const sharedLinks = await ctx.records.getWhereIn(
    link.table,
    relation.sharedKey,
    ownLinks.map((l) => l[relation.sharedKey]),
  );
  const target = moduleNamed(relation.target);
  const loaded = await presentLoaded(
    ctx,
    target,
    await ctx.records.getWhereIn(
      target.table,
      'id',
      sharedLinks.map((l) => l[relation.ownerKey]),
    ),
    children,
  );
  const byId = new Map(loaded.map((r) => [r.id, r]));
  const members = groupBy(sharedLinks, (l) => l[relation.sharedKey]);
  const sharedBy = groupBy(ownLinks, (l) => l[relation.ownerKey]);
  for (const record of records) {
    const ids = new Set<string>();
    for (const mine of sharedBy.get(record.id) ?? []) {
      for (const other of members.get(mine[relation.sharedKey]) ?? []) {
        // A link's owner key is a uuid column (the relation's declaration names it).
        const id = other[relation.ownerKey] as string;
        if (id !== record.id && byId.has(id)) ids.add(id);
      }
    }
    // Ids are UUIDv7: sorted, they are in creation order, as every other relation lists.
    record[name] = [...ids].sort().map((id) => byId.get(id)!);
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

export async function loadRelations(
  ctx: RequestContext,
  module: ResourceModule,
  records: Record<string, unknown>[],
  paths: string[],
): Promise<void> {
  if (paths.length === 0) return;
  const tree = checkRelations(module, paths);
  if (records.length > 0) await loadTree(ctx, module, records, tree);
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
