/**
 * The overruled list of a local replica and its sync history (docs/API.md "Sync",
 * "Overruled edits" and "History"): this replica's changes that lost to later ones made
 * elsewhere, and the last sync runs. Like the rest of the local sync control, an admin's to
 * manage.
 *
 *   GET  /v1/sync/overruled            open entries (all=true: kept and accepted ones too)
 *   POST /v1/sync/overruled/{id}/keep   write my value again: an ordinary edit that syncs
 *   POST /v1/sync/overruled/{id}/accept leave the other value; the entry is closed
 *   GET  /v1/sync/history              the last runs, newest first
 */
import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../../shared/ids.js';
import type { OverruledEdit } from '../../store/overruled-edits.js';
import type { RecordWrites } from '../../store/record-store.js';
import { keepRuns } from '../../store/sync-history.js';
import { asCommandOnRecords } from '../commands/request-command.js';
import { booleanParam, integerParam, single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { requireAdmin } from '../permissions.js';
import { updateRecord } from '../records.js';
import { moduleNamedOrNone } from '../registry.js';
import { localBooks, type RequestContext } from '../resource.js';
import { readableName, referencedName, wholeRecord } from './record-names.js';

function manage(ctx: RequestContext): void {
  requireAdmin(ctx.caller, "Only an admin of the environment manages this instance's sync.");
}

async function shown(ctx: RequestContext, entry: OverruledEdit) {
  const module = moduleNamedOrNone(entry.resource);
  const record = module ? await wholeRecord(ctx.records, module, entry.record_id) : undefined;
  return {
    ...entry,
    record_name: await readableName(ctx.records, entry.resource, record),
    mine_name: await referencedName(ctx.records, entry.resource, entry.field, entry.mine),
    theirs_name: await referencedName(ctx.records, entry.resource, entry.field, entry.theirs),
    // For a card, where it lives: the planboard and the card panel open it from there.
    ...(entry.resource === 'card' && typeof record?.collection_id === 'string' ? { collection_id: record.collection_id } : {}),
  };
}

/** The entry, in the transaction `tx` that resolves it; refused unless it is open. */
async function openEntry(tx: RecordWrites, id: string): Promise<OverruledEdit> {
  const entry = isUuid(id) ? await localBooks(tx).overruledEdit(id.toLowerCase()) : undefined;
  if (!entry) throw ApiError.notFound('No overruled change with that id.');
  if (entry.status !== 'open')
    throw ApiError.conflict(`This overruled change was already ${entry.status === 'kept' ? 'kept' : 'accepted'}.`);
  return entry;
}

/** Writes my value again, through the resource's rules like any API write, and closes the entry. */
async function keepMine(ctx: RequestContext, tx: RecordWrites, entry: OverruledEdit): Promise<void> {
  const module = moduleNamedOrNone(entry.resource);
  const current = module ? await tx.sync.getForSync(module.table, entry.record_id) : undefined;
  if (!module || !current) throw ApiError.notFound('The record of this overruled change is not on this computer.');
  if (current.deleted_at)
    throw ApiError.conflict('The record of this overruled change was deleted; restore it from the trash first, or accept the change.');
  // A parent's field is a uuid column of the record (the module's parents name it).
  const scope = Object.fromEntries((module.parents ?? []).map((p) => [p.param, current[p.field] as string]));
  await updateRecord(ctx, tx, module, entry.record_id, { [entry.field]: entry.mine }, scope, { keepAbsent: true });
  await localBooks(tx).resolveOverruled(entry.id, 'kept');
}

/** The entry as the list shows it, after it was resolved. */
async function resolved(ctx: RequestContext, id: string) {
  const entry = await localBooks(ctx.records).overruledEdit(id);
  if (!entry) throw ApiError.notFound('No overruled change with that id.');
  return shown(ctx, entry);
}

const keepSummary = 'Keep my value: write it again, as a new change that syncs like any other';

export function registerOverruledRoutes(app: FastifyInstance): void {
  const doc = (summary: string, extra: Record<string, unknown> = {}) => ({ doc: { summary, tag: 'Sync', ...extra } });

  app.get<{ Querystring: QueryString }>(
    '/sync/overruled',
    {
      config: doc("This replica's changes that lost to later ones elsewhere (open ones unless all=true)", {
        query: {
          all: 'true: kept and accepted ones too.',
          resource: 'Only those of one resource.',
          record_id: 'Only those of one record.',
          limit: '0-1000 (default 100).',
          offset: 'Entries to skip.',
        },
      }),
    },
    async (request) => {
      manage(request.ctx);
      const { query } = request;
      const all = booleanParam(query, 'all');
      const resource = single(query, 'resource');
      if (resource !== undefined && !moduleNamedOrNone(resource))
        throw ApiError.badRequest(`resource ${resource} is not a resource of this API`);
      const recordId = single(query, 'record_id');
      if (recordId !== undefined && !isUuid(recordId)) throw ApiError.badRequest('record_id must be a uuid');
      const limit = integerParam(query, 'limit', 100, 1000);
      const offset = integerParam(query, 'offset', 0, Number.MAX_SAFE_INTEGER);
      const { count, data } = await localBooks(request.ctx.records).overruled({
        all,
        limit,
        offset,
        ...(resource !== undefined ? { resource } : {}),
        ...(recordId !== undefined ? { recordId: recordId.toLowerCase() } : {}),
      });
      const shownData = [];
      for (const entry of data) shownData.push(await shown(request.ctx, entry));
      return { count, limit, offset, data: shownData };
    },
  );

  app.post<{ Params: { id: string } }>('/sync/overruled/:id/keep', { config: { ...doc(keepSummary) } }, async (request, reply) => {
    manage(request.ctx);
    const id = await asCommandOnRecords(request, reply, keepSummary, async (tx) => {
      const entry = await openEntry(tx, request.params.id);
      await keepMine(request.ctx, tx, entry);
      return entry.id;
    });
    return resolved(request.ctx, id);
  });

  app.post<{ Params: { id: string } }>(
    '/sync/overruled/:id/accept',
    // No record changes, so no command: there is nothing to undo.
    { config: { ...doc('Accept the other value: the entry is closed, nothing changes') } },
    async (request) => {
      manage(request.ctx);
      const id = await request.ctx.records.transaction(async (tx) => {
        const entry = await openEntry(tx, request.params.id);
        await localBooks(tx).resolveOverruled(entry.id, 'accepted');
        return entry.id;
      });
      return resolved(request.ctx, id);
    },
  );

  app.get<{ Querystring: QueryString }>(
    '/sync/history',
    { config: doc('The last sync runs, newest first', { query: { limit: `1-${keepRuns} (default ${keepRuns}).` } }) },
    async (request) => {
      manage(request.ctx);
      const limit = integerParam(request.query, 'limit', keepRuns, keepRuns);
      const data = await localBooks(request.ctx.records).syncRuns(limit);
      return { count: data.length, limit, data };
    },
  );
}
