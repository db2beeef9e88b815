/**
 * Deep insertion (docs/API.md, deep insertion): a write is first checked as a whole tree — the
 * record, its owned children (`order_rows`), their children, and links to other records
 * (`labels: [{id}]`) — collecting every field problem with its path (`order_rows.1.quantity`).
 * Only a tree without problems is applied, in one transaction: all of it lands, or none.
 *
 * Nested arrays sent in a PUT replace the existing set: children and links left out are
 * deleted. With `update_without_delete_nested=true` they are kept and the sent items are
 * upserted. Items carrying an `id` update that child; an id that is not a child of this
 * record is a 422. The flag works the same on json lists declared `mergeById` (a resource's
 * `boards[].stages[]`), which are one column, not records: see `mergeStoredLists`.
 *
 * A to-one reference may be sent as the related record, `"project": {"id": "…"}`, instead of
 * its key `project_id`: see `referencesAsKeys`.
 */
import type { FieldProblem } from '../../shared/errors.js';
import { checkValue, checkWrite, isPlainObject, mergeStoredLists, ruleOf } from '../../shared/fields.js';
import { isUuid, nowTimestamp } from '../../shared/ids.js';
import type { StoredRecord } from '../../shared/fields.js';
import { dependentsOf, moduleNamed } from './registry.js';
import type { Relation, RequestContext, ResourceModule } from './resource.js';
import type { RecordWrites } from '../store/record-store.js';

export interface WritePlan {
  module: ResourceModule;
  /** The record being updated; undefined for a create. */
  current: StoredRecord | undefined;
  /** Column values to write (validated). */
  values: Record<string, unknown>;
  /** The body as sent, for domain rules that look at what the client said. */
  input: Record<string, unknown>;
  children: { relation: string; foreignKey: string; items: WritePlan[]; keepAbsent: boolean }[];
  links: {
    relation: Extract<Relation, { kind: 'manyToMany' }>;
    targets: { id: string; pivot: Record<string, unknown> }[];
    keepAbsent: boolean;
  }[];
}

export interface PlanOptions {
  /** `update_without_delete_nested`: keep nested records the body leaves out. */
  keepAbsent: boolean;
  /**
   * `update_without_delete_nested` as a client sent it: json lists declared `mergeById` merge
   * into the stored list too. Sync and conflict retries leave it off although they keep absent
   * records: what they carry are whole stored column values, which replace.
   */
  mergeLists?: boolean;
  /** Fields the route fixes (a nested path's parent id); never taken from the body. */
  fixed?: Record<string, unknown>;
  /** The field the parent record fills in for an inline child (`stage.board_id`). */
  parentKey?: string;
  /** Take server-owned fields from the input too (sync: a replica's computed fields). */
  trusted?: boolean;
  /** For an inline child: its parent as it will be after this write. */
  parent?: Record<string, unknown>;
}

function prefixed(prefix: string, problems: FieldProblem[]): FieldProblem[] {
  return problems.map((p) => ({ ...p, field: prefix + p.field, description: prefix ? `${prefix}${p.description}` : p.description }));
}

/**
 * Checks `uuid` fields that name another record: the record must exist in this environment.
 * A value the write does not change is not checked again, so a record read and written back
 * whole still saves after something it names was deleted.
 */
async function checkReferences(
  tx: RecordWrites,
  module: ResourceModule,
  values: Record<string, unknown>,
  skip: string[],
  current: StoredRecord | undefined,
): Promise<FieldProblem[]> {
  const problems: FieldProblem[] = [];
  for (const [name, field] of Object.entries(module.spec.fields)) {
    const value = values[name];
    if (!field.references || typeof value !== 'string' || skip.includes(name) || current?.[name] === value) continue;
    const target = moduleNamed(field.references);
    if (!(await tx.get(target.table, value))) {
      problems.push({ field: name, description: `${name} names no ${target.spec.title} with id ${value}`, rule: 'reference' });
    }
  }
  return problems;
}

/** Two ids (or nulls) naming the same record; ids compare without case. */
function sameRecord(a: unknown, b: unknown): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a.toLowerCase() === b.toLowerCase();
  return (a ?? null) === (b ?? null);
}

/**
 * Reads to-one references sent as the related record (docs/API.md: references to
 * existing records are `{"id": "<uuid>"}`, e.g. a user's `resource`), for every `belongsTo`
 * relation: `"project": {"id": X}` is `"project_id": X`, and `null` clears it. From then on it
 * is that key: checked like it, and ignored like it where the key is server-owned or fixed by
 * the path. Only `id` is read; the related record is never written inline.
 *
 * A record read with `with=project` and written back whole carries both; when the client
 * changed one of them, the one that differs from the stored key is the change. Two different
 * changes are refused. A refused reference stands in for its key when the key was not sent
 * (`board: null` is not also a missing `board_id`): `refused` lists those keys.
 */
function referencesAsKeys(
  module: ResourceModule,
  input: Record<string, unknown>,
  current: StoredRecord | undefined,
  takes: (key: string) => boolean,
  problems: FieldProblem[],
  refused: Set<string>,
): Record<string, unknown> {
  let out = input;
  for (const [name, relation] of Object.entries(module.relations ?? {})) {
    if (relation.kind !== 'belongsTo' || !Object.prototype.hasOwnProperty.call(input, name) || input[name] === undefined) continue;
    const key = relation.foreignKey;
    const field = module.spec.fields[key];
    if (!field || !takes(key)) continue;
    const ref = input[name];
    let id: unknown;
    if (ref === null && field.nullable) id = null;
    else if (isPlainObject(ref) && ref.id !== undefined && ref.id !== null) id = ref.id;
    else {
      problems.push({ field: name, description: `${name} must be {"id": "<uuid>"}${field.nullable ? ' or null' : ''}` });
      if (input[key] === undefined) refused.add(key);
      continue;
    }
    const sent = input[key];
    if (sent !== undefined && !sameRecord(sent, id)) {
      const stored = current?.[key];
      if (sameRecord(id, stored)) continue; // the object is as read: the key is the change
      if (!sameRecord(sent, stored)) {
        problems.push({ field: name, description: `${name} and ${key} name different records` });
        continue;
      }
    }
    out = { ...out, [key]: id };
  }
  return out;
}

/**
 * `archive: true | false`, which clients of the public API send to archive a resource or an
 * activity, as `archived_at` (docs/API.md "Archived records"): true archives it now (an archived
 * record keeps its date), false brings it back. An `archived_at` sent beside it wins. Every
 * resource with `archived_at` takes it; anything but a boolean is a 422 on `archive`.
 */
function archiveAsTimestamp(
  module: ResourceModule,
  input: Record<string, unknown>,
  current: StoredRecord | undefined,
  problems: FieldProblem[],
): Record<string, unknown> {
  const field = module.spec.fields.archived_at;
  if (!field || field.readOnly || input.archive === undefined || !Object.prototype.hasOwnProperty.call(input, 'archive')) return input;
  const { archive, ...rest } = input;
  if (typeof archive !== 'boolean') {
    problems.push({ field: 'archive', description: 'archive must be true or false' });
    return rest;
  }
  if (rest.archived_at !== undefined) return rest;
  // archived_at is a datetime column wherever a resource has one.
  return { ...rest, archived_at: archive ? ((current?.archived_at as string | null | undefined) ?? nowTimestamp()) : null };
}

/**
 * Checks a write of `module` and plans it (see the file head); its problems are added to
 * `problems`. Reads through `tx`, so on either engine.
 */
export async function planWrite(
  ctx: RequestContext,
  tx: RecordWrites,
  module: ResourceModule,
  input: Record<string, unknown>,
  current: StoredRecord | undefined,
  options: PlanOptions,
  problems: FieldProblem[],
  prefix = '',
): Promise<WritePlan> {
  const skip = [...Object.keys(options.fixed ?? {}), ...(options.parentKey ? [options.parentKey] : [])];
  const own: FieldProblem[] = [];
  let prepared = module.rules?.prepareInput?.(input) ?? input;
  const takes = (key: string) => !skip.includes(key) && (options.trusted === true || !module.spec.fields[key]?.readOnly);
  const refused = new Set<string>();
  prepared = archiveAsTimestamp(module, prepared, current, own);
  prepared = referencesAsKeys(module, prepared, current, takes, own, refused);
  if (options.mergeLists && current) prepared = mergeStoredLists(module.spec, prepared, current);
  const check = checkWrite(module.spec, prepared, current ? 'update' : 'create', skip, options.trusted, current);
  own.push(...check.problems.filter((p) => !refused.has(p.field)));
  const values = { ...check.values, ...options.fixed };
  const found = prefixed(prefix, own);
  const plan: WritePlan = { module, current, values, input, children: [], links: [] };

  for (const [name, relation] of Object.entries(module.relations ?? {})) {
    if (!(name in values)) continue;
    const items = values[name];
    delete values[name];
    if (!Array.isArray(items)) continue; // checkWrite already reported the wrong type
    if (relation.kind === 'hasMany' && relation.owned) {
      plan.children.push(await planChildren(ctx, tx, relation, name, items, current, { ...current, ...values }, options, found, prefix));
    } else if (relation.kind === 'manyToMany') {
      plan.links.push(await planLinks(tx, relation, name, items, options, found, prefix));
    }
  }
  // Virtual fields that are not writable relations are computed by the module, not written.
  // Those a client writes (an order's board_id) reach the module's afterWrite as its input,
  // checked (references included) like any field.
  const virtual: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(module.spec.fields)) {
    if (!field.virtual) continue;
    if (name in values) virtual[name] = values[name];
    delete values[name];
  }
  plan.input = { ...input, ...virtual };

  if (found.length === own.length) {
    found.push(...prefixed(prefix, await checkReferences(tx, module, { ...values, ...virtual }, skip, current)));
    found.push(...prefixed(prefix, await (module.rules?.check?.(ctx, tx, values, current, options.parent, prepared) ?? [])));
  }
  problems.push(...found);
  return plan;
}

async function planChildren(
  ctx: RequestContext,
  tx: RecordWrites,
  relation: Extract<Relation, { kind: 'hasMany' }>,
  name: string,
  items: unknown[],
  parent: StoredRecord | undefined,
  parentState: Record<string, unknown>,
  options: PlanOptions,
  problems: FieldProblem[],
  prefix: string,
): Promise<WritePlan['children'][number]> {
  const target = moduleNamed(relation.target);
  // The relation's foreign key is a column of its target (the declaration names it).
  const existing = parent ? await tx.getWhereIn(target.table, relation.foreignKey, [parent.id]) : [];
  const byId = new Map(existing.map((r) => [r.id, r]));
  const plans: WritePlan[] = [];
  for (const [index, item] of items.entries()) {
    const at = `${prefix}${name}.${index}.`;
    if (!isPlainObject(item)) {
      problems.push({ field: `${prefix}${name}.${index}`, description: `${prefix}${name}.${index} must be an object` });
      continue;
    }
    let current: StoredRecord | undefined;
    if (item.id !== undefined && item.id !== null) {
      current = typeof item.id === 'string' ? byId.get(item.id.toLowerCase()) : undefined;
      if (!current) {
        problems.push({ field: `${at}id`, description: `${at}id names no ${target.spec.title} of this record` });
        continue;
      }
    }
    const childOptions = {
      keepAbsent: options.keepAbsent,
      mergeLists: options.mergeLists,
      parentKey: relation.foreignKey,
      parent: parentState,
    };
    plans.push(await planWrite(ctx, tx, target, item, current, childOptions, problems, at));
  }
  return { relation: name, foreignKey: relation.foreignKey, items: plans, keepAbsent: options.keepAbsent };
}

async function planLinks(
  tx: RecordWrites,
  relation: Extract<Relation, { kind: 'manyToMany' }>,
  name: string,
  items: unknown[],
  options: PlanOptions,
  problems: FieldProblem[],
  prefix: string,
): Promise<WritePlan['links'][number]> {
  const target = moduleNamed(relation.target);
  const link = moduleNamed(relation.link);
  const targets = new Map<string, Record<string, unknown>>();
  for (const [index, item] of items.entries()) {
    const at = `${prefix}${name}.${index}`;
    const ref = typeof item === 'string' ? { id: item } : item;
    if (!isPlainObject(ref) || !isUuid(ref.id)) {
      problems.push({ field: `${at}.id`, description: `${at} must be {"id": "<uuid>"} naming a ${target.spec.title}` });
      continue;
    }
    const id = ref.id.toLowerCase();
    if (!(await tx.get(target.table, id))) {
      problems.push({ field: `${at}.id`, description: `${at}.id names no ${target.spec.title} with id ${id}`, rule: 'reference' });
      continue;
    }
    const pivot: Record<string, unknown> = {};
    for (const field of relation.pivot ?? []) {
      if (ref[field] === undefined) {
        // A new link starts at the pivot field's declared default (a stage activity's priority 0).
        const fallback = link.spec.fields[field]?.default;
        if (fallback !== undefined) pivot[field] = fallback;
        continue;
      }
      const result = checkValue(link.spec.fields[field]!, ref[field]);
      if (result.ok) pivot[field] = result.value;
      else problems.push({ field: `${at}.${field}`, description: `${at}.${field} ${result.problem}`, ...ruleOf(result) });
    }
    targets.set(id, pivot);
  }
  return { relation, targets: [...targets].map(([id, pivot]) => ({ id, pivot })), keepAbsent: options.keepAbsent };
}

/** Applies a checked plan in the transaction `tx`, on either engine. Returns the written record. */
export async function applyWrite(
  ctx: RequestContext,
  tx: RecordWrites,
  plan: WritePlan,
  parentValues: Record<string, unknown> = {},
): Promise<StoredRecord> {
  const { module } = plan;
  const values = { ...plan.values, ...parentValues };
  // A planned update names a live record (the plan read it in this transaction).
  const record = plan.current ? (await tx.update(module.table, plan.current.id, values))! : await tx.insert(module.table, values);

  for (const group of plan.children) {
    const written = new Set<string>();
    for (const child of group.items) {
      written.add((await applyWrite(ctx, tx, child, { [group.foreignKey]: record.id })).id);
    }
    if (!group.keepAbsent) {
      // The plan made this group from a hasMany relation of the module (see planChildren).
      const relation = module.relations![group.relation] as Extract<Relation, { kind: 'hasMany' }>;
      const target = moduleNamed(relation.target);
      for (const stale of await tx.getWhereIn(target.table, group.foreignKey, [record.id])) {
        if (!written.has(stale.id)) await deleteWithRules(ctx, tx, target, stale);
      }
    }
  }

  for (const group of plan.links) {
    const { relation } = group;
    const link = moduleNamed(relation.link);
    const existing = await tx.getWhereIn(link.table, relation.ownerKey, [record.id]);
    // A link's target key is a uuid column (the relation's declaration names it).
    const byTarget = new Map(existing.map((l) => [l[relation.targetKey] as string, l]));
    for (const { id, pivot } of group.targets) {
      const current = byTarget.get(id);
      const copied = Object.fromEntries(Object.entries(relation.ownerCopy ?? {}).map(([to, from]) => [to, record[from]]));
      if (!current) await tx.insert(link.table, { ...pivot, ...copied, [relation.ownerKey]: record.id, [relation.targetKey]: id });
      else if (Object.entries(pivot).some(([k, v]) => current[k] !== v)) await tx.update(link.table, current.id, pivot);
    }
    if (!group.keepAbsent) {
      const wanted = new Set(group.targets.map((t) => t.id));
      // As above: the target key holds a uuid.
      for (const l of existing) if (!wanted.has(l[relation.targetKey] as string)) await tx.softDelete(link.table, l.id);
    }
  }

  // The record was written in this transaction: it is there.
  const written = (await tx.get(module.table, record.id))!;
  if (module.rules?.afterWrite) {
    await module.rules.afterWrite(ctx, tx, written, plan.current ? 'update' : 'create', plan.input, plan.current);
    // As above; the rule may have changed it.
    return (await tx.get(module.table, record.id))!;
  }
  return written;
}

/**
 * Soft-deletes a record with its owned children, its links and the records declared to go with
 * it, in the transaction `tx`, on either engine.
 */
export async function deleteWithRules(
  ctx: RequestContext,
  tx: RecordWrites,
  module: ResourceModule,
  record: StoredRecord,
  at?: string,
): Promise<void> {
  await tx.softDelete(module.table, record.id, at);
  for (const relation of Object.values(module.relations ?? {})) {
    if (relation.kind === 'hasMany' && relation.owned) {
      const target = moduleNamed(relation.target);
      for (const child of await tx.getWhereIn(target.table, relation.foreignKey, [record.id]))
        await deleteWithRules(ctx, tx, target, child, at);
    } else if (relation.kind === 'manyToMany') {
      const link = moduleNamed(relation.link);
      for (const l of await tx.getWhereIn(link.table, relation.ownerKey, [record.id])) await tx.softDelete(link.table, l.id, at);
    }
  }
  // Records declared to go with the one they name (`onDelete: 'cascade'`: card relations).
  for (const { module: dependent, field } of dependentsOf(module.spec.name)) {
    for (const d of await tx.getWhereIn(dependent.table, field, [record.id])) await deleteWithRules(ctx, tx, dependent, d, at);
  }
  if (module.rules?.afterDelete) await module.rules.afterDelete(ctx, tx, record);
}
