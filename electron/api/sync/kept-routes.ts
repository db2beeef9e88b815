/**
 * What an instance keeps of other app versions' data, for an admin to see and remove (docs/API.md
 * "Kept data"; security audit N3). Kept fields and records are stored beside the tables, passed
 * on only to admins' replicas, and shown by no resource's route: without these, an admin could
 * neither find what a replica stored nor take it out.
 *
 *   GET    /v1/sync/kept                          records with kept data: their fields, sizes, writers
 *   GET    /v1/sync/kept/{resource}/{id}          one record's kept fields with their values
 *   DELETE /v1/sync/kept/{resource}/{id}[?field=]  removes them (all, or the fields named)
 *
 * On every instance (a remote, a replica, a team server's node) and on both engines, through the
 * environment's records (SyncFeed, SyncWrites). Removing is this instance's own: replicas that
 * pulled the data keep their copy, and the replica that wrote it sends it again only when it
 * changes it.
 */
import type { FastifyInstance } from 'fastify';
import { keptNamePattern } from '../../store/unknown-data.js';
import { integerParam, single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { requireAdmin } from '../permissions.js';
import type { RequestContext } from '../resource.js';
import { declaredResources, type KeptLimits } from './kept-data.js';

function manage(ctx: RequestContext): void {
  requireAdmin(ctx.caller, 'Only an admin of the environment sees and removes data kept for other versions.');
}

/** A resource named in a path or query: a name another version could give one, else a 400. */
function resourceName(text: string): string {
  if (!keptNamePattern.test(text)) throw ApiError.badRequest(`${text.slice(0, 100)} is not a name of a resource`);
  return text;
}

interface KeptParams {
  resource: string;
  id: string;
}

export function registerKeptRoutes(app: FastifyInstance, limits: KeptLimits): void {
  const doc = (summary: string, extra: Record<string, unknown> = {}) => ({ doc: { summary, tag: 'Sync', ...extra } });

  app.get<{ Querystring: QueryString }>(
    '/sync/kept',
    {
      config: doc('Records with data kept for other app versions: their kept fields, sizes and writers (admin)', {
        query: { resource: 'Only those of one resource.', limit: '0-1000 (default 100).', offset: 'Records to skip.' },
      }),
    },
    async (request) => {
      manage(request.ctx);
      const { query } = request;
      const text = single(query, 'resource');
      const resource = text === undefined || text === '' ? undefined : resourceName(text);
      const limit = integerParam(query, 'limit', 100, 1000);
      const offset = integerParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER);
      const { feed } = request.ctx.records;
      const [{ count, records }, bytes] = await Promise.all([feed.keptList(resource, limit, offset), feed.keptBytes()]);
      return {
        count,
        limit,
        offset,
        bytes,
        max_bytes: limits.environmentBytes,
        data: records.map((r) => ({ ...r, declared_resource: declaredResources.has(r.resource) })),
      };
    },
  );

  app.get<{ Params: KeptParams }>(
    '/sync/kept/:resource/:id',
    { config: doc("One record's data kept for other app versions, with the values (admin)") },
    async (request) => {
      manage(request.ctx);
      const resource = resourceName(request.params.resource);
      const { id } = request.params;
      const fields = await request.ctx.records.feed.keptRecord(resource, id);
      if (Object.keys(fields).length === 0) throw ApiError.notFound(`Nothing is kept for ${resource} ${id}.`);
      return { resource, record_id: id, declared_resource: declaredResources.has(resource), fields };
    },
  );

  app.delete<{ Params: KeptParams; Querystring: QueryString }>(
    '/sync/kept/:resource/:id',
    {
      config: doc("Removes a record's data kept for other app versions: all of it, or the fields named (admin)", {
        query: { field: 'Only this field (repeat it for more).' },
      }),
    },
    async (request) => {
      manage(request.ctx);
      const resource = resourceName(request.params.resource);
      const { id } = request.params;
      const named = request.query.field;
      const fields = named === undefined ? undefined : [named].flat().filter((f): f is string => typeof f === 'string');
      if (fields?.some((f) => !keptNamePattern.test(f)))
        throw ApiError.badRequest('field must name a field (lower-case letters, digits and _)');
      const before = await request.ctx.records.feed.keptRecord(resource, id);
      const removing = Object.keys(before).filter((f) => fields === undefined || fields.includes(f));
      if (removing.length === 0)
        throw ApiError.notFound(`Nothing is kept for ${resource} ${id}${fields ? ` in ${fields.join(', ')}` : ''}.`);
      await request.ctx.records.transaction((tx) => tx.sync.forgetKept(resource, id, removing));
      return { resource, record_id: id, removed: removing };
    },
  );
}
