/**
 * Turns a resource module into its five routes. Nothing here knows any resource by name. They
 * read and write through the asynchronous store (docs/architecture.md "The asynchronous store
 * boundary"): a write is one transaction of it, as the request's command.
 */
import type { FastifyInstance } from 'fastify';
import type { QueryString } from './conventions/list-query.js';
import {
  createRecord,
  deleteRecord,
  getRecord,
  keepAbsentOption,
  listRecords,
  presentWritten,
  refuseDerivedWrite,
  shapeOptionsFor,
  updateRecord,
  type Scope,
} from './records.js';
import type { ResourceModule } from './resource.js';
import { asCommandOnRecords, describeWrite } from './commands/request-command.js';

interface Params {
  id: string;
  [param: string]: string;
}

function scopeOf(module: ResourceModule, params: Params): Scope {
  return Object.fromEntries((module.parents ?? []).map((p) => [p.param, params[p.param]!]));
}

function hasNestedWrites(module: ResourceModule): boolean {
  return (
    Object.values(module.relations ?? {}).some((r) => (r.kind === 'hasMany' && r.owned) || r.kind === 'manyToMany') ||
    Object.values(module.spec.fields).some((f) => f.mergeById)
  );
}

export function registerResource(app: FastifyInstance, module: ResourceModule): void {
  if (!module.path) return;
  const offers = (operation: 'list' | 'get' | 'create' | 'update' | 'delete') => !module.without?.includes(operation);
  const path = module.path;
  const { title } = module.spec;
  const tag = module.parents?.[0]?.module().spec.title ?? title;
  const item = `${path}/:id`;

  const archivable = 'archived_at' in module.table.fields;
  if (offers('list'))
    app.get<{ Querystring: QueryString; Params: Params }>(
      path,
      {
        config: {
          doc: {
            summary: `List ${title} records`,
            tag,
            resource: { module, operation: 'list' },
            ...(archivable ? { query: { archived: 'true also lists archived records (default false).' } } : {}),
          },
        },
      },
      (request) => listRecords(request.ctx, module, request.query, scopeOf(module, request.params)),
    );

  if (offers('create'))
    app.post<{ Querystring: QueryString; Params: Params }>(
      path,
      {
        config: {
          doc: {
            summary: `Create a ${title}`,
            tag,
            resource: { module, operation: 'create' },
            success: { status: 201, description: `The created ${title}` },
          },
        },
      },
      async (request, reply) => {
        // The query is checked first: a bad `with` or `include` must not leave a half-answered write.
        const shape = shapeOptionsFor(module, request.query);
        // Every write is a command: one undo step (docs/API.md "Commands and undo"). Its answer is
        // read before the commit, so one over the `with` budget writes nothing.
        const answer = await asCommandOnRecords(request, reply, describeWrite('Create', title), async (tx) =>
          presentWritten(
            request.ctx,
            tx,
            module,
            await createRecord(request.ctx, tx, module, request.body, scopeOf(module, request.params)),
            shape,
          ),
        );
        reply.code(201);
        return answer;
      },
    );

  if (offers('get'))
    app.get<{ Querystring: QueryString; Params: Params }>(
      item,
      { config: { doc: { summary: `Get one ${title}`, tag, resource: { module, operation: 'get' } } } },
      (request) => getRecord(request.ctx, module, request.params.id, request.query, scopeOf(module, request.params)),
    );

  if (offers('update'))
    app.put<{ Querystring: QueryString; Params: Params }>(
      item,
      {
        config: {
          doc: {
            summary: `Update a ${title}`,
            tag,
            resource: { module, operation: 'update' },
            ...(hasNestedWrites(module)
              ? {
                  query: {
                    update_without_delete_nested:
                      'true: nested arrays add and update; records left out are kept (default false: they are deleted).',
                  },
                }
              : {}),
          },
        },
      },
      async (request, reply) => {
        const shape = shapeOptionsFor(module, request.query);
        const keepAbsent = keepAbsentOption(request.query);
        await refuseDerivedWrite(request.ctx, module, request.params.id, scopeOf(module, request.params));
        return await asCommandOnRecords(request, reply, describeWrite('Edit', title), async (tx) =>
          presentWritten(
            request.ctx,
            tx,
            module,
            await updateRecord(request.ctx, tx, module, request.params.id, request.body, scopeOf(module, request.params), {
              keepAbsent,
              mergeLists: keepAbsent,
            }),
            shape,
          ),
        );
      },
    );

  if (offers('delete'))
    app.delete<{ Params: Params }>(
      item,
      {
        config: {
          doc: {
            summary: `Delete a ${title}`,
            tag,
            resource: { module, operation: 'delete' },
            success: { status: 204, description: 'Deleted (soft delete: it syncs and can be restored)' },
          },
        },
      },
      async (request, reply) => {
        await refuseDerivedWrite(request.ctx, module, request.params.id, scopeOf(module, request.params));
        await asCommandOnRecords(request, reply, describeWrite('Delete', title), (tx) =>
          deleteRecord(request.ctx, tx, module, request.params.id, scopeOf(module, request.params)),
        );
        return reply.code(204).send();
      },
    );
}
