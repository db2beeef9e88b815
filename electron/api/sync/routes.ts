/**
 * Sync endpoints (docs/API.md "Sync").
 *
 * Remote side, on every instance:
 *   POST /v1/sync/push        {client_id, mutations: [{mutation_id, resource, id, op, fields, hlc, group_id?, group_description?}]}
 *   GET  /v1/sync/changes     ?since=<cursor>&limit=N: records changed since, in commit order
 *   GET  /v1/sync/snapshot    ?cursor=&limit=N[&format=rows]: every record, for a first sync or after 410
 * each with the replica's protocol and schema versions as headers, answered with the remote's
 * (wire-versions.ts), and with the data kept for other versions (kept-data.ts).
 *   PUT|GET /v1/sync/attachment/{id}/content: an uploaded attachment's file (content-routes.ts)
 *   GET  /v1/sync/stream      live channel: the newest change number as it grows (stream-routes.ts)
 *   GET  /v1/sync/kept[/{resource}/{id}], DELETE /v1/sync/kept/{resource}/{id}: the data kept for
 *        other versions, for an admin (kept-routes.ts)
 *
 * Local side, on an instance that syncs with a remote:
 *   GET  /v1/sync/status, POST /v1/sync/run, GET|PUT /v1/sync/settings, GET /v1/sync/pending,
 *   GET  /v1/sync/conflict[/{id}], POST /v1/sync/conflict/{id}/retry|discard,
 *   GET  /v1/sync/overruled, POST /v1/sync/overruled/{id}/keep|accept, GET /v1/sync/history
 * and on every instance the trash: GET /v1/trash/{resource}, POST /v1/trash/{resource}/{id}/restore.
 */
import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../../shared/ids.js';
import { single, type QueryString } from '../conventions/list-query.js';
import { restoreWhole } from '../commands/restore.js';
import { ApiError } from '../errors.js';
import { forSync } from '../permissions.js';
import { moduleNamedOrNone } from '../registry.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { pushBatch, replicaOwner } from './push.js';
import { registerConflictRoutes } from './conflict-routes.js';
import { registerContentRoutes } from './content-routes.js';
import { declaredResources, defaultKeptLimits, KeptBudget, KeptData, type KeptLimits, type SyncedRecord } from './kept-data.js';
import { checkReplicaVersions, replicaProtocol, wireVersions } from './wire-versions.js';
import { registerOverruledRoutes } from './overruled-routes.js';
import { registerPlanCheckRoutes } from './plan-check-routes.js';
import { registerKeptRoutes } from './kept-routes.js';
import { defaultStreamLimits, registerStreamRoutes, type StreamLimits } from './stream-routes.js';
import {
  compactClocksProtocol,
  isSyncCursor,
  minSyncProtocol,
  textCursorProtocol,
  type SyncControl,
  type SyncCursor,
} from '../../../shared/sync.js';
import type { SyncFeed } from '../../store/sync-feed.js';
import type { BodyOf } from '../../../shared/operation.js';
import { maxPushBatch, maxPushGroup, pushOperation, type Mutation } from '../../../shared/operations/sync.js';
import { operationRoute } from '../conventions/operation-route.js';
import { asCommandOnRecords } from '../commands/request-command.js';
import { nowMs } from '../../../shared/clock.js';

export interface SyncRouteOptions {
  modules: readonly ResourceModule[];
  control?: () => SyncControl | undefined;
  /** Change-log entries a remote keeps; a cursor older than that gets 410. */
  retention: number;
  /** How the live channel's streams are shared out (stream-routes.ts); the defaults otherwise. */
  streamLimits?: Partial<StreamLimits>;
  /** How much data of other versions is kept (kept-data.ts); the defaults otherwise. */
  keptLimits?: Partial<KeptLimits>;
}

const maxPage = 5000;

/**
 * A push's mutations as the remote applies them, after what their shape cannot say (docs/API.md
 * "Sync"): more than `maxPushBatch` only as one group, `mutation_id` increasing. One pass, and
 * the checked mutations are taken as they are: `fields` left out becomes null, and a
 * `group_description` without a group is dropped, as the protocol has it.
 */
function pushedMutations(mutations: BodyOf<typeof pushOperation>['mutations']): Mutation[] {
  const group = mutations[0]?.group_id;
  let oneGroup = group !== undefined;
  for (let i = 0; i < mutations.length; i++) {
    const mutation = mutations[i]!;
    if (i > 0 && mutation.mutation_id <= mutations[i - 1]!.mutation_id)
      throw ApiError.badRequest('mutations must be in increasing mutation_id order');
    if (mutation.group_id !== group) oneGroup = false;
    mutation.fields ??= null;
    if (mutation.group_id === undefined && mutation.group_description !== undefined) delete mutation.group_description;
  }
  if (mutations.length > maxPushBatch && !oneGroup)
    throw ApiError.badRequest(`push at most ${maxPushBatch} mutations at a time (${maxPushGroup} when they are one group)`);
  // Every `fields` is set just above: each is a Mutation now.
  return mutations as Mutation[];
}

function pageSize(query: QueryString, fallback: number): number {
  const text = single(query, 'limit');
  if (text === undefined || text === '') return fallback;
  if (!/^\d+$/.test(text) || Number(text) < 1 || Number(text) > maxPage)
    throw ApiError.badRequest(`limit must be a whole number from 1 to ${maxPage}`);
  return Number(text);
}

interface SnapshotCursor {
  resource: number;
  after: string;
  /** Where the pull goes on from once the snapshot is done: the change log's end when it began. */
  seq: SyncCursor;
}

/**
 * A cursor this endpoint made: a position among the `resources` synced resources, then
 * (`resources`) among the records kept of resources this version does not declare, whose
 * `after` is the JSON of the last [resource, id]; `resources + 1` means done.
 */
function readCursor(text: string, resources: number, feed: SyncFeed): SnapshotCursor {
  try {
    // Any JSON: each field is checked just below before the cursor is used.
    const value = JSON.parse(Buffer.from(text, 'base64url').toString('utf8')) as SnapshotCursor;
    if (
      Number.isInteger(value.resource) &&
      value.resource >= 0 &&
      value.resource <= resources + 1 &&
      typeof value.after === 'string' &&
      isSyncCursor(value.seq) &&
      feed.readCursor(String(value.seq)) !== undefined
    ) {
      return { resource: value.resource, after: value.after, seq: feed.readCursor(String(value.seq))! };
    }
  } catch {
    // fall through
  }
  throw ApiError.badRequest('cursor is not a snapshot cursor from this endpoint');
}

/** The last [resource, id] of a kept-records page, from a snapshot cursor's `after`. */
function keptAfter(after: string): [string, string] | null {
  if (after === '') return null;
  try {
    const value: unknown = JSON.parse(after);
    if (Array.isArray(value) && value.length === 2 && typeof value[0] === 'string' && typeof value[1] === 'string')
      return [value[0], value[1]];
  } catch {
    // fall through
  }
  throw ApiError.badRequest('cursor is not a snapshot cursor from this endpoint');
}

/** Records and kept records of a page of changes, with their clocks, as this caller may read them, by recordKey. */
async function syncedRecords(
  ctx: RequestContext,
  kept: KeptData,
  changed: readonly { resource: string; id: string }[],
): Promise<Map<string, SyncedRecord>> {
  const idsOf = new Map<string, string[]>();
  for (const { resource, id } of changed) {
    const ids = idsOf.get(resource);
    if (ids) ids.push(id);
    else idsOf.set(resource, [id]);
  }
  const found = new Map<string, SyncedRecord>();
  const { feed } = ctx.records;
  for (const [resource, ids] of idsOf) {
    const module = moduleNamedOrNone(resource);
    if (!module) {
      for (const [id, entry] of await kept.records(resource, ids)) found.set(recordKey(resource, id), entry);
      continue;
    }
    // Webhooks and OAuth clients belong to this instance.
    if (module.syncs === false) continue;
    const records = await feed.recordsForSync(module.table, ids);
    const clocks = await feed.clocksOfMany(resource, ids);
    const entries = await kept.withKeptFields(
      resource,
      ids.map((id) => ({
        resource,
        id,
        record: forSync(module.spec, ctx.caller, records.get(id) ?? null),
        clocks: forSync(module.spec, ctx.caller, clocks.get(id) ?? {}),
      })),
    );
    for (const entry of entries) found.set(recordKey(resource, entry.id), entry);
  }
  return found;
}

const recordKey = (resource: string, id: string) => `${resource}\u0000${id}`;

/**
 * The oldest replica protocol a pull from this remote can serve: a remote on PostgreSQL gives
 * text cursors, which replicas read from protocol 3 on (docs/API.md "Pull cursors").
 */
function pullProtocolOf(ctx: RequestContext): number {
  return ctx.records.engine === 'postgres' ? textCursorProtocol : minSyncProtocol;
}

export function registerSyncRoutes(app: FastifyInstance, options: SyncRouteOptions): void {
  // One module per stored resource (`/card` is a second view of cards, not a second table).
  const names = new Set<string>();
  const synced = options.modules.filter((m) => m.syncs !== false && !names.has(m.spec.name) && names.add(m.spec.name));
  const declared: ReadonlySet<string> = new Set([...declaredResources, ...options.modules.map((m) => m.spec.name)]);
  const doc = (summary: string, extra: Record<string, unknown> = {}) => ({ doc: { summary, tag: 'Sync', ...extra } });

  operationRoute(
    app,
    pushOperation,
    async (request, _reply, input) => {
      const clientId = input.client_id;
      const mutations = pushedMutations(input.mutations);
      const { ctx } = request;
      const owner = replicaOwner(ctx.caller);
      // One transaction: the results and the replica's mark commit together, so a push whose
      // answer was lost is answered again from the mark, not applied twice, when it is resent
      // (to any node: the mark is held until the commit, sync-writes.ts).
      const { results, last } = await ctx.records.transaction(async (tx) => {
        const mark = await tx.sync.replicaMark(clientId);
        if (mark?.owner && mark.owner !== owner) {
          throw new ApiError('forbidden', [
            {
              field: 'client_id',
              description: 'This replica id belongs to another sign-in or API key. A replica pushes under an id of its own.',
            },
          ]);
        }
        const from = mark ? { ...mark, owner } : { owner, last: 0, batch: {} };
        const budget = new KeptBudget({ ...defaultKeptLimits, ...options.keptLimits });
        return pushBatch(ctx, tx, mutations, from, (next) => tx.sync.setReplicaMark(clientId, { ...next, owner }), budget);
      });
      await ctx.records.feed.compact(options.retention);
      return { results, last_mutation_id: last, server_time: nowMs(), ...wireVersions() };
    },
    // The versions come first: a replica too old for this remote is told so, whatever it sent.
    (request) => checkReplicaVersions(request.headers),
  );

  app.get<{ Querystring: QueryString }>(
    '/sync/changes',
    {
      config: doc('Records changed since a cursor, in commit order', {
        query: { since: 'The cursor from the last answer (0 at first).', limit: `Records per page, 1-${maxPage} (default 500).` },
      }),
    },
    async (request, reply) => {
      const { ctx } = request;
      const { feed } = ctx.records;
      checkReplicaVersions(request.headers, pullProtocolOf(ctx));
      const since = feed.readCursor(single(request.query, 'since') ?? '0');
      if (since === undefined) throw ApiError.badRequest('since must be a cursor this remote gave out (0 at first)');
      const limit = pageSize(request.query, 500);
      if (await feed.expired(since)) {
        return reply
          .code(410)
          .type('application/json')
          .send(
            new ApiError('gone', [
              { description: 'The cursor is older than the changes this remote keeps; download everything again from /v1/sync/snapshot.' },
            ]).body(),
          );
      }
      const kept = await KeptData.of(ctx, declared);
      const page = await feed.changedSince(since, limit, declared);
      const found = await syncedRecords(ctx, kept, page.records);
      const changes = page.records.flatMap((row) => {
        const entry = found.get(recordKey(row.resource, row.id));
        return entry ? [{ seq: row.seq, ...entry }] : [];
      });
      return { changes, cursor: page.cursor, more: page.more, server_time: nowMs(), ...wireVersions() };
    },
  );

  app.get<{ Querystring: QueryString }>(
    '/sync/snapshot',
    {
      config: doc('Every record with its clocks, page by page', {
        query: {
          cursor: 'The cursor from the last page (absent at first).',
          limit: `Records per page, 1-${maxPage} (default 2000).`,
          format: '`rows` for pages as rows per resource (docs/API.md "Snapshot in rows"); records one by one without it.',
        },
      }),
    },
    async (request, reply) => {
      const { ctx } = request;
      const { feed } = ctx.records;
      checkReplicaVersions(request.headers, pullProtocolOf(ctx));
      const format = single(request.query, 'format') ?? 'records';
      if (format !== 'records' && format !== 'rows') throw ApiError.badRequest('format must be records or rows');
      const text = single(request.query, 'cursor');
      const cursor = text ? readCursor(text, synced.length, feed) : { resource: 0, after: '', seq: await feed.latest() };
      let limit = pageSize(request.query, 2000);
      const { caller } = ctx;
      const kept = await KeptData.of(ctx, declared);
      // Rows need no kept fields merged in (the common case: no other version's data, or a
      // caller who is not given it); otherwise the page goes as records, which rows pages carry
      // too. So does a page of an engine that cannot put rows together (sync-feed.ts).
      const snapshotRows = format === 'rows' && !kept.active ? feed.snapshotRows : undefined;
      // A record's clocks as one clock where they are, for a replica that says it reads that
      // (docs/decisions/compact-field-clocks.md); the objects for anyone else.
      const compact = (replicaProtocol(request.headers) ?? 0) >= compactClocksProtocol;
      const records: unknown[] = [];
      const tables: string[] = [];
      let position = { ...cursor };
      while (limit > 0 && position.resource < synced.length) {
        const module = synced[position.resource]!;
        let count: number;
        let last: string | null;
        if (snapshotRows) {
          // The fields this caller is not given, as forSync leaves them out.
          const shown = forSync(module.spec, caller, Object.fromEntries(Object.keys(module.table.fields).map((name) => [name, true])));
          const hidden = Object.keys(module.table.fields).filter((name) => !(name in shown));
          const page = await snapshotRows(module.table, hidden, position.after, limit, compact);
          ({ count, last } = page);
          if (count > 0)
            tables.push(`{"resource":${JSON.stringify(module.spec.name)},"fields":${JSON.stringify(page.fields)},"rows":${page.rows}}`);
        } else {
          const rows = await feed.scanForSync(module.table, position.after, limit);
          const clocks = await feed.clocksOfMany(
            module.spec.name,
            rows.map((r) => r.id),
          );
          records.push(
            ...(await kept.withKeptFields(
              module.spec.name,
              rows.map((row) => ({
                resource: module.spec.name,
                id: row.id,
                record: forSync(module.spec, caller, row),
                clocks: forSync(module.spec, caller, clocks.get(row.id) ?? {}),
              })),
            )),
          );
          count = rows.length;
          last = rows[rows.length - 1]?.id ?? null;
        }
        limit -= count;
        position =
          count > 0 && limit === 0 ? { ...position, after: last! } : { resource: position.resource + 1, after: '', seq: position.seq };
      }
      if (limit > 0 && position.resource === synced.length) {
        // Last, the records kept of resources this version does not declare.
        const page = await kept.recordsPage(keptAfter(position.after), limit);
        records.push(...page);
        const last = page[page.length - 1];
        position =
          page.length === limit && last
            ? { ...position, after: JSON.stringify([last.resource, last.id]) }
            : { resource: synced.length + 1, after: '', seq: position.seq };
      }
      const done = position.resource > synced.length;
      const answer = {
        records,
        cursor: done ? null : Buffer.from(JSON.stringify(position)).toString('base64url'),
        seq: cursor.seq,
        ...wireVersions(),
      };
      if (format === 'records') return answer;
      // The rows are JSON text already (SyncFeed.snapshotRows): the answer is put together as text.
      return reply.type('application/json; charset=utf-8').send(`{"tables":[${tables.join(',')}],${JSON.stringify(answer).slice(1)}`);
    },
  );

  registerContentRoutes(app);
  registerKeptRoutes(app, { ...defaultKeptLimits, ...options.keptLimits });
  registerStreamRoutes(app, options.modules, { ...defaultStreamLimits, ...options.streamLimits });
  // A replica's own state (its status, conflicts, overruled edits, plan check, history) is kept in its
  // SQLite file; a team server is no replica and keeps none (docs/API.md "Sync").
  void app.register(async (replica) => {
    replica.addHook('onRequest', async (request) => {
      if (request.ctx.records.local === undefined)
        throw new ApiError('unavailable', [
          { description: 'A team server keeps no replica’s sync state: sync status, conflicts and overruled edits are a replica’s own.' },
        ]);
    });
    registerConflictRoutes(replica, options.control);
    registerOverruledRoutes(replica);
    registerPlanCheckRoutes(replica);
  });

  app.get<{ Params: { resource: string }; Querystring: QueryString }>(
    '/trash/:resource',
    { config: doc('Deleted records of a resource, newest first') },
    async (request) => {
      const module = moduleNamedOrNone(request.params.resource);
      if (!module || !module.path) throw ApiError.notFound('No such resource.');
      const limit = pageSize(request.query, 100);
      const offsetText = single(request.query, 'offset') ?? '0';
      if (!/^\d+$/.test(offsetText)) throw ApiError.badRequest('offset must be a whole number');
      const { count, rows } = await request.ctx.records.listDeleted(module.table, limit, Number(offsetText));
      return { count, limit, offset: Number(offsetText), data: rows.map((row) => forSync(module.spec, request.ctx.caller, row)) };
    },
  );

  app.post<{ Params: { resource: string; id: string } }>(
    '/trash/:resource/:id/restore',
    { config: { ...doc('Restore a deleted record') } },
    async (request, reply) => {
      const module = moduleNamedOrNone(request.params.resource);
      if (!module || !module.path || !isUuid(request.params.id)) throw ApiError.notFound('No such record.');
      const id = request.params.id.toLowerCase();
      const { ctx } = request;
      const restored = await asCommandOnRecords(request, reply, 'Restore a deleted record', async (tx) => {
        const record = await tx.get(module.table, id, { includeDeleted: true });
        const gone = () => ApiError.notFound('No deleted record with that id.');
        if (!record || (await tx.get(module.table, id))) throw gone();
        module.rules?.checkRestore?.(ctx, record);
        await module.rules?.checkRestoreOnRecords?.(ctx, tx, record);
        // Whole: with what its delete took with it (commands/restore.ts).
        await restoreWhole(ctx, tx, module, record);
        return tx.get(module.table, id);
      });
      return forSync(module.spec, ctx.caller, restored);
    },
  );
}
