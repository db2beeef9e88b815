/**
 * The generic record operations behind every resource: list, get, create, update, delete.
 * HTTP routes call these, and so does sync when it applies a pushed mutation, so both go
 * through exactly the same validation and domain rules.
 */
import type { FieldProblem } from '../../shared/errors.js';
import { isUuid } from '../../shared/ids.js';
import type { ListEnvelope } from '../../shared/list.js';
import type { StoredRecord } from '../../shared/fields.js';
import { booleanParam, parseListOptions, parseShapeOptions, type QueryString, type ShapeOptions } from './conventions/list-query.js';
import { plainNames, withParameterFilter } from './conventions/query-filters.js';
import { applyShapes } from './conventions/shape.js';
import { evaluateFilter } from '../../shared/filter-eval.js';
import { checkRelations, loadRelations, readableCopy } from './conventions/with.js';
import { answerWorkOf } from './conventions/answer-work.js';
import { markWhole } from './conventions/answer-json.js';
import { readingThrough, type RecordReads, type RecordWrites } from '../store/record-store.js';
import { ApiError } from './errors.js';
import { checkQueryFields, hiddenFields } from './permissions.js';
import type { RequestContext, ResourceModule } from './resource.js';
import { tables } from './tables.js';
import { applyWrite, deleteWithRules, planWrite } from './write-plan.js';
import type { RelationJoin } from '../store/filter-sql.js';
import { optionalBody as bodyObject } from './conventions/request-body.js';

/** Path parameters of a nested route, e.g. `{order_id}`. */
export type Scope = Record<string, string>;

function matchOrNotFound(found: ScopeFound): Record<string, unknown> {
  if ('missing' in found) throw ApiError.notFound(`No ${found.missing} with that id.`);
  return found.match;
}

type ScopeFound = { match: Record<string, unknown> } | { missing: string };

/** The id of each parent a nested path names, outermost first; undefined when it is no uuid. */
function parentIds(module: ResourceModule, scope: Scope): (string | undefined)[] {
  return (module.parents ?? []).map((entry) => {
    const id = scope[entry.param]?.toLowerCase();
    return id && isUuid(id) ? id : undefined;
  });
}

/** Which parent of a nested path is missing, or the column values the path fixes (scopeMatch). */
async function findScopeOf(module: ResourceModule, ctx: RequestContext, scope: Scope): Promise<ScopeFound> {
  return findScope(ctx.records, module, scope);
}

async function findScope(records: RecordReads, module: ResourceModule, scope: Scope): Promise<ScopeFound> {
  const ids = parentIds(module, scope);
  const parents: (StoredRecord | undefined)[] = [];
  for (const [i, entry] of (module.parents ?? []).entries())
    parents.push(ids[i] ? await records.get(entry.module().table, ids[i]) : undefined);
  return scopeOfParents(module, ids, parents);
}

/**
 * The column values a nested path fixes. Every parent must exist, and each inner parent must
 * belong to the outer ones (a card of another collection is not found under this one).
 */
async function scopeMatch(records: RecordReads, module: ResourceModule, scope: Scope): Promise<Record<string, unknown>> {
  return matchOrNotFound(await findScope(records, module, scope));
}

/** The match of a nested path from its parents as read (undefined: not there). */
function scopeOfParents(module: ResourceModule, ids: (string | undefined)[], parents: (StoredRecord | undefined)[]): ScopeFound {
  const seen: Record<string, unknown> = {};
  const match: Record<string, unknown> = {};
  for (const [i, entry] of (module.parents ?? []).entries()) {
    const record = parents[i];
    if (!record || Object.entries(seen).some(([field, value]) => field in record && record[field] !== value)) {
      return { missing: entry.module().spec.title };
    }
    seen[entry.field] = ids[i];
    if (!entry.inherited) match[entry.field] = ids[i];
  }
  return { match };
}

/** Every extra `include` names must be one the resource offers (`rules.includes`). */
function checkIncludes(module: ResourceModule, include: readonly string[]): void {
  for (const name of include) {
    if (!module.rules?.includes?.includes(name)) throw ApiError.badRequest(`Unknown include: ${name}`);
  }
}

/**
 * Reads `show`, `hide`, `with` and `include`, and checks the names `with` and `include` give.
 * A route that writes and then answers the record calls it before it writes: present() would
 * refuse a bad name only after the write had landed.
 */
export function shapeOptionsFor(module: ResourceModule, query: QueryString): ShapeOptions {
  const shape = parseShapeOptions(query);
  checkRelations(module, shape.with);
  checkIncludes(module, shape.include);
  return shape;
}

/**
 * Drops write-only fields (and admin-only ones for a caller who is not an admin), fills virtual
 * ones, loads `with` and applies show/hide.
 */
export async function present(
  ctx: RequestContext,
  module: ResourceModule,
  records: StoredRecord[],
  shape: ShapeOptions,
): Promise<Record<string, unknown>[]> {
  const hidden = hiddenFields(module.spec, ctx.caller);
  const out: Record<string, unknown>[] = records.map((record) => readableCopy(record, hidden));
  checkIncludes(module, shape.include);
  const work = answerWorkOf(ctx);
  work.holds(out.length);
  await module.rules?.present?.(ctx, out, shape.include);
  await loadRelations(ctx, work, module, out, shape.with);
  if (shape.with.length === 0) for (const record of out) markWhole(record);
  return applyShapes(out, shape);
}

/**
 * The context of a request inside one of its transactions: `records` reads inside it (what it
 * wrote, before the commit), and the answer's work counts on without yielding halfway
 * (AnswerWork.inTransaction). A write presents its answer so, before it commits: an answer over
 * the `with` budget then rolls the write back (docs/API.md "Relations").
 */
export function insideTransaction(ctx: RequestContext, tx: RecordReads): RequestContext {
  return { ...ctx, records: readingThrough(tx, ctx.records), answer: answerWorkOf(ctx).inTransaction() };
}

/** A record a write wrote, presented inside the write's transaction (insideTransaction). */
export async function presentWritten(
  ctx: RequestContext,
  tx: RecordReads,
  module: ResourceModule,
  record: StoredRecord,
  shape: ShapeOptions,
): Promise<Record<string, unknown>> {
  return presentOne(insideTransaction(ctx, tx), module, record, shape);
}

/** One record, presented as `present` does a page. */
export async function presentOne(
  ctx: RequestContext,
  module: ResourceModule,
  record: StoredRecord,
  shape: ShapeOptions,
): Promise<Record<string, unknown>> {
  return (await present(ctx, module, [record], shape))[0]!;
}

/**
 * Archived records (of every resource with `archived_at`: boards, activities, resources, users)
 * are left out of lists unless `archived=true`, which lists them together with the others. They
 * still count for external_ref uniqueness.
 */
function archivedMatch(module: ResourceModule, query: QueryString): Record<string, unknown> {
  if (!('archived_at' in module.table.fields)) return {};
  return booleanParam(query, 'archived') ? {} : { archived_at: null };
}

/** The module's relations as the store's filter compiler and sort need them. */
export function relationJoins(module: ResourceModule): Record<string, RelationJoin> {
  const joins: Record<string, RelationJoin> = {};
  for (const [name, relation] of Object.entries(module.relations ?? {})) {
    // An object of the record's own fields is filtered through those fields.
    if (relation.kind === 'fields') continue;
    const target = tables[relation.target];
    if (relation.kind === 'peers') {
      const link = tables[relation.link];
      joins[name] = { kind: 'peers', target, link: { table: link.table, ownerKey: relation.ownerKey, targetKey: relation.sharedKey } };
    } else if (relation.kind === 'manyToMany') {
      const link = tables[relation.link];
      joins[name] = { kind: 'manyToMany', target, link: { table: link.table, ownerKey: relation.ownerKey, targetKey: relation.targetKey } };
    } else {
      // hasOne filters exactly like hasMany: "there is a related record that matches".
      const localKey = relation.kind === 'hasMany' ? relation.localKey : undefined;
      joins[name] = {
        kind: relation.kind === 'hasOne' ? 'hasMany' : relation.kind,
        target,
        foreignKey: relation.foreignKey,
        ...(localKey ? { localKey } : {}),
      };
    }
  }
  return joins;
}

export async function listRecords(
  ctx: RequestContext,
  module: ResourceModule,
  sent: QueryString,
  scope: Scope = {},
): Promise<ListEnvelope<Record<string, unknown>>> {
  // Parameters named after fields filter (`?collection_id=…`); other unknown ones are a 400.
  const query = plainNames(sent);
  const options = withParameterFilter(parseListOptions(query), query, module.table.fields);
  checkQueryFields(ctx.caller, module, options.filter, options.sort);
  const scoped = await findScopeOf(module, ctx, scope);
  // A list under a parent that does not exist is empty, not 404, as the public API answers
  // (`GET /collection/{unknown}/card`); its clients rely on it (docs/API.md "Compatibility").
  // It matches nothing (`id IS NULL`), so the query is still checked in full: a bad one is 400.
  const archived = archivedMatch(module, query);
  const match = 'missing' in scoped ? { id: null } : { ...scoped.match, ...archived };
  // A filter or a sort may name a related record's field (`order.code`, `collection.end`).
  const related = options.filter || options.sort.some((key) => key.field.includes('.'));
  const filter = { ...(options.filter ? { filter: options.filter } : {}), ...(related ? { relations: relationJoins(module) } : {}) };
  const derived = module.derived && !('missing' in scoped) ? await module.derived.list(ctx, scoped.match) : [];
  if (derived.length > 0) {
    // The stored records that match, all of them (a parent's few), and the derived ones that
    // match too, in one order; then the page.
    const { rows } = await ctx.records.list(module.table, { match, sort: options.sort, limit: 1_000_000, offset: 0, ...filter });
    const extra = options.filter ? derived.filter((record) => evaluateFilter(options.filter!, record, module.table.fields)) : derived;
    const all = [...rows, ...extra].sort(byListOrder(options.sort));
    const page = all.slice(options.offset, options.offset + options.limit);
    return { count: all.length, limit: options.limit, offset: options.offset, data: await present(ctx, module, page, options) };
  }
  const { count, rows } = await ctx.records.list(module.table, {
    match,
    sort: options.sort,
    limit: options.limit,
    offset: options.offset,
    ...filter,
  });
  return { count, limit: options.limit, offset: options.offset, data: await present(ctx, module, rows, options) };
}

/** A list's order in memory, as the store sorts it: by the sort fields (null first when ascending), then by id. */
function byListOrder(sort: readonly { field: string; direction: 'asc' | 'desc' }[]) {
  return (a: StoredRecord, b: StoredRecord): number => {
    for (const { field, direction } of sort) {
      // Sortable fields are columns of numbers, text, booleans or null.
      const x = a[field] as number | string | boolean | null | undefined;
      const y = b[field] as number | string | boolean | null | undefined;
      if (x === y || (x == null && y == null)) continue;
      const order = x == null ? -1 : y == null ? 1 : x < y ? -1 : 1;
      return direction === 'desc' ? -order : order;
    }
    return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
  };
}

/** The derived record `id` under the nested path's parents (ResourceModule.derived), or undefined. */
async function findDerived(ctx: RequestContext, module: ResourceModule, id: string, scope: Scope): Promise<StoredRecord | undefined> {
  if (!module.derived || !isUuid(id)) return undefined;
  const scoped = await findScopeOf(module, ctx, scope);
  if ('missing' in scoped) return undefined;
  return (await module.derived.list(ctx, scoped.match)).find((record) => record.id === id.toLowerCase());
}

/** A PUT or DELETE of a derived record is refused, with where it is changed instead (ResourceModule.derived). */
export async function refuseDerivedWrite(ctx: RequestContext, module: ResourceModule, id: string, scope: Scope): Promise<void> {
  const derived = await findDerived(ctx, module, id, scope);
  if (derived) throw ApiError.unprocessable([module.derived!.readOnly(derived)]);
}

/** The record `id` of the module under the nested path's parents, read through the request's records; 404 when there is none. */
export async function readRecord(ctx: RequestContext, module: ResourceModule, id: string, scope: Scope = {}): Promise<StoredRecord> {
  return findRecord(ctx.records, module, id, scope);
}

/** As readRecord, through `records`: for a write, its transaction's reads. */
export async function findRecord(records: RecordReads, module: ResourceModule, id: string, scope: Scope = {}): Promise<StoredRecord> {
  const match = await scopeMatch(records, module, scope);
  return foundOrNotFound(module, isUuid(id) ? await records.get(module.table, id.toLowerCase()) : undefined, match);
}

function foundOrNotFound(module: ResourceModule, record: StoredRecord | undefined, match: Record<string, unknown>): StoredRecord {
  if (!record || Object.entries(match).some(([field, value]) => record[field] !== value)) {
    throw ApiError.notFound(`No ${module.spec.title} with that id.`);
  }
  return record;
}

export async function getRecord(
  ctx: RequestContext,
  module: ResourceModule,
  id: string,
  query: QueryString,
  scope: Scope = {},
): Promise<Record<string, unknown>> {
  const shape = parseShapeOptions(query);
  try {
    return await presentOne(ctx, module, await readRecord(ctx, module, id, scope), shape);
  } catch (error) {
    const derived = error instanceof ApiError && error.kind === 'notFound' ? await findDerived(ctx, module, id, scope) : undefined;
    if (!derived) throw error;
    return presentOne(ctx, module, derived, shape);
  }
}

export interface WriteOptions {
  /** `update_without_delete_nested`: nested arrays are merged into, not replacing, the existing set. */
  keepAbsent?: boolean;
  /** The same flag for json lists declared `mergeById`; only a client's PUT sets it (PlanOptions.mergeLists). */
  mergeLists?: boolean;
  /** Id for a new record; sync passes the id the record was created with on its replica. */
  id?: string;
}

/** Reads `update_without_delete_nested` (boolean, default false). */
export function keepAbsentOption(query: QueryString): boolean {
  return booleanParam(query, 'update_without_delete_nested');
}

async function writeRecord(
  ctx: RequestContext,
  tx: RecordWrites,
  module: ResourceModule,
  body: unknown,
  current: StoredRecord | undefined,
  fixed: Record<string, unknown>,
  options: WriteOptions,
): Promise<StoredRecord> {
  const input = bodyObject(body);
  const problems: FieldProblem[] = [];
  const plan = await planWrite(
    ctx,
    tx,
    module,
    input,
    current,
    { keepAbsent: options.keepAbsent ?? false, mergeLists: options.mergeLists ?? false, fixed },
    problems,
  );
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  if (options.id) plan.values.id = options.id;
  return await applyWrite(ctx, tx, plan);
}

export async function createRecord(
  ctx: RequestContext,
  tx: RecordWrites,
  module: ResourceModule,
  body: unknown,
  scope: Scope = {},
  options: WriteOptions = {},
): Promise<StoredRecord> {
  return await writeRecord(ctx, tx, module, body, undefined, await scopeMatch(tx, module, scope), options);
}

export async function updateRecord(
  ctx: RequestContext,
  tx: RecordWrites,
  module: ResourceModule,
  id: string,
  body: unknown,
  scope: Scope = {},
  options: WriteOptions = {},
): Promise<StoredRecord> {
  const current = await findRecord(tx, module, id, scope);
  return await writeRecord(ctx, tx, module, body, current, {}, options);
}

export async function deleteRecord(
  ctx: RequestContext,
  tx: RecordWrites,
  module: ResourceModule,
  id: string,
  scope: Scope = {},
): Promise<void> {
  const record = await findRecord(tx, module, id, scope);
  const problems = await (module.rules?.checkDelete?.(ctx, tx, record) ?? []);
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  await deleteWithRules(ctx, tx, module, record);
}
