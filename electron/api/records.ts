/**
 * The generic record operations behind every resource: list, get, create, update, delete.
 * HTTP routes call these, and so does sync when it applies a pushed mutation, so both go
 * through exactly the same validation and domain rules.
 */
import { checkWrite, isPlainObject } from '../../shared/fields.js';
import { isUuid } from '../../shared/ids.js';
import type { ListEnvelope } from '../../shared/list.js';
import type { StoredRecord } from '../store/environment-store.js';
import { parseListOptions, parseShapeOptions, type QueryString, type ShapeOptions } from './conventions/list-query.js';
import { applyShape } from './conventions/shape.js';
import { loadRelations } from './conventions/with.js';
import { ApiError } from './errors.js';
import type { RequestContext, ResourceModule } from './resource.js';

/** Path parameters of a nested route, e.g. `{order_id}`. */
export type Scope = Record<string, string>;

function scopeMatch(module: ResourceModule, ctx: RequestContext, scope: Scope): Record<string, unknown> {
  if (!module.parent) return {};
  const parentId = scope[module.parent.param];
  const parent = module.parent.module();
  if (!parentId || !isUuid(parentId) || !ctx.store.get(parent.table, parentId)) {
    throw ApiError.notFound(`No ${parent.spec.title} with that id.`);
  }
  return { [module.parent.field]: parentId };
}

/** Drops write-only fields, fills virtual ones, loads `with` and applies show/hide. */
export function present(
  ctx: RequestContext,
  module: ResourceModule,
  records: StoredRecord[],
  shape: ShapeOptions,
): Record<string, unknown>[] {
  const writeOnly = Object.entries(module.spec.fields).filter(([, f]) => f.writeOnly).map(([n]) => n);
  const out: Record<string, unknown>[] = records.map((record) => {
    const copy: Record<string, unknown> = { ...record };
    for (const name of writeOnly) delete copy[name];
    return copy;
  });
  module.rules?.present?.(ctx, out);
  loadRelations(ctx, module, out, shape.with);
  return out.map((record) => applyShape(record, shape));
}

export function listRecords(
  ctx: RequestContext,
  module: ResourceModule,
  query: QueryString,
  scope: Scope = {},
): ListEnvelope<Record<string, unknown>> {
  const options = parseListOptions(query);
  const { count, rows } = ctx.store.list(module.table, {
    match: scopeMatch(module, ctx, scope),
    sort: options.sort,
    limit: options.limit,
    offset: options.offset,
    ...(options.filter ? { filter: options.filter } : {}),
  });
  return { count, limit: options.limit, offset: options.offset, data: present(ctx, module, rows, options) };
}

export function findRecord(ctx: RequestContext, module: ResourceModule, id: string, scope: Scope = {}): StoredRecord {
  const match = scopeMatch(module, ctx, scope);
  const record = isUuid(id) ? ctx.store.get(module.table, id.toLowerCase()) : undefined;
  if (!record || Object.entries(match).some(([field, value]) => record[field] !== value)) {
    throw ApiError.notFound(`No ${module.spec.title} with that id.`);
  }
  return record;
}

export function getRecord(
  ctx: RequestContext,
  module: ResourceModule,
  id: string,
  query: QueryString,
  scope: Scope = {},
): Record<string, unknown> {
  return present(ctx, module, [findRecord(ctx, module, id, scope)], parseShapeOptions(query))[0]!;
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null) return {};
  if (!isPlainObject(body)) throw ApiError.badRequest('The request body must be a JSON object.');
  return body;
}

function validate(
  ctx: RequestContext,
  module: ResourceModule,
  body: Record<string, unknown>,
  current: StoredRecord | undefined,
): Record<string, unknown> {
  const { values, problems } = checkWrite(module.spec, body, current ? 'update' : 'create');
  if (module.parent) delete values[module.parent.field];
  if (problems.length === 0) {
    problems.push(...(module.rules?.check?.(ctx, values, current) ?? []));
  }
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  return values;
}

/** Creates a record from a request body. `id` may be given by sync (ids are made where created). */
export function createRecord(
  ctx: RequestContext,
  module: ResourceModule,
  body: unknown,
  scope: Scope = {},
  options: { id?: string } = {},
): StoredRecord {
  const input = bodyObject(body);
  return ctx.store.transaction(() => {
    const match = scopeMatch(module, ctx, scope);
    const values = { ...validate(ctx, module, input, undefined), ...match };
    if (options.id) values.id = options.id;
    const record = ctx.store.insert(module.table, values);
    module.rules?.afterWrite?.(ctx, record, 'create', input);
    return ctx.store.get(module.table, record.id)!;
  });
}

export function updateRecord(
  ctx: RequestContext,
  module: ResourceModule,
  id: string,
  body: unknown,
  scope: Scope = {},
): StoredRecord {
  const input = bodyObject(body);
  return ctx.store.transaction(() => {
    const current = findRecord(ctx, module, id, scope);
    const values = validate(ctx, module, input, current);
    const record = ctx.store.update(module.table, current.id, values)!;
    module.rules?.afterWrite?.(ctx, record, 'update', input);
    return ctx.store.get(module.table, record.id)!;
  });
}

export function deleteRecord(ctx: RequestContext, module: ResourceModule, id: string, scope: Scope = {}): void {
  ctx.store.transaction(() => {
    const record = findRecord(ctx, module, id, scope);
    ctx.store.softDelete(module.table, record.id);
    module.rules?.afterDelete?.(ctx, record);
  });
}
