/**
 * The local replica's view of its sync: status, a sync run, settings, what waits to be pushed,
 * and the conflict list. A refused mutation stays in the list with its data, the reason and the
 * remote's version; the replica already shows the remote's version, so nothing diverges. The
 * user can retry (with edited data: a new local change that syncs like any other), discard,
 * or copy the data out (`GET …/conflict/{id}`).
 */
import type { FastifyInstance } from 'fastify';
import { checkWrite } from '../../../shared/fields.js';
import { booleanParam, single, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { requireAdmin } from '../permissions.js';
import type { RecordWrites } from '../../store/record-store.js';
import { asCommandOnRecords } from '../commands/request-command.js';
import { deleteRecord, presentOne, updateRecord } from '../records.js';
import { moduleNamedOrNone } from '../registry.js';
import { localBooks, type RequestContext, type ResourceModule } from '../resource.js';
import { referencedNames } from './record-names.js';
import { notConfiguredStatus, remoteUrlProblem, SyncSettingsProblem, type SyncControl } from '../../../shared/sync.js';
import { retryConflictOperation, syncSettingsOperation, type Mutation, type SyncSettingsInput } from '../../../shared/operations/sync.js';
import type { FieldProblem } from '../../../shared/errors.js';
import { operationRoute, type Partly } from '../conventions/operation-route.js';

/**
 * The replica's sync is the environment's admin's to manage: its remote and credentials, what
 * waits to be pushed (any user's changes, whole), and the conflicts. The status is everyone's.
 */
function manage(ctx: RequestContext): void {
  requireAdmin(ctx.caller, "Only an admin of the environment manages this instance's sync.");
}

function controlFor(lookup: (() => SyncControl | undefined) | undefined, ctx: RequestContext): SyncControl {
  manage(ctx);
  const control = lookup?.();
  if (!control || control.environmentId !== ctx.caller.environment.id) {
    throw ApiError.conflict('This instance does not sync this environment with a remote.');
  }
  return control;
}

function page(query: QueryString) {
  const limit = Number(single(query, 'limit') ?? 100);
  const offset = Number(single(query, 'offset') ?? 0);
  if (!Number.isInteger(limit) || limit < 0 || limit > 1000 || !Number.isInteger(offset) || offset < 0) {
    throw ApiError.badRequest('limit must be 0-1000 and offset a whole number');
  }
  return { limit, offset };
}

/** Writes a refused action again as one new action (a command), and resolves its entry, in `tx`. */
async function retry(ctx: RequestContext, tx: RecordWrites, conflictId: string, input: Record<string, unknown>): Promise<void> {
  const books = localBooks(tx);
  const conflict = await books.conflict(conflictId);
  if (!conflict) throw ApiError.notFound('No conflict with that id.');
  if (conflict.resolved_at) throw ApiError.conflict('This conflict was already resolved.');
  // A refused action is retried whole, as it was (docs/API.md "Sync", "Actions sync whole"):
  // its changes are written again as one new action, which syncs as one group. Edits are for
  // an action of one change: which of several records they would be meant for is not known.
  const items = conflict.group?.items ?? [conflict];
  if (items.length > 1 && Object.keys(input).length > 0) {
    throw ApiError.unprocessable([
      {
        field: 'body',
        description: 'A refused action of several changes is retried as it was, without edits; change its records after the retry.',
      },
    ]);
  }
  const modules = items.map(({ mutation }) => {
    const module = moduleNamedOrNone(mutation.resource);
    if (!module) throw ApiError.notFound('The conflict names a resource this instance does not have.');
    return module;
  });
  for (const [i, { mutation }] of items.entries()) await retryMutation(ctx, tx, modules[i]!, mutation, input);
  await books.resolveConflict(conflictId, 'retried');
}

async function retryMutation(
  ctx: RequestContext,
  tx: RecordWrites,
  module: ResourceModule,
  mutation: Mutation,
  input: Record<string, unknown>,
): Promise<void> {
  if (mutation.op === 'delete') {
    await deleteRecord(ctx, tx, module, mutation.id);
  } else {
    const edited = { ...(mutation.fields ?? {}), ...input };
    const current = await tx.sync.getForSync(module.table, mutation.id);
    if (current && !current.deleted_at) {
      // An ordinary edit, through the resource's rules like any API write.
      const scope = Object.fromEntries((module.parents ?? []).map((p) => [p.param, current[p.field] as string]));
      await updateRecord(ctx, tx, module, mutation.id, edited, scope, { keepAbsent: true });
    } else {
      // The record is not here (the remote refused to create it), or deleted (the remote deleted
      // it meanwhile): bring it back whole. A deleted one has its other fields already, so the
      // change is checked as an edit of it.
      const { values, problems } = checkWrite(module.spec, edited, current ? 'update' : 'create', [], true);
      if (problems.length > 0) throw ApiError.unprocessable(problems);
      await tx.sync.writeForSync(module.table, mutation.id, { ...current, ...values, deleted_at: null });
    }
  }
}

/**
 * What the settings' shape cannot say (shared/operations/sync.ts), on the settings as far as
 * they passed it: remote_url is an http(s) address the replica may send credentials to
 * (remoteUrlProblem: https unless on this computer or explicitly allowed), and api_env goes
 * with api_key.
 */
function settingsProblems(input: Partly<SyncSettingsInput>): FieldProblem[] {
  const problems: FieldProblem[] = [];
  const url = input.remote_url;
  if (typeof url === 'string') {
    if (!/^https?:\/\/[^\s/]+(\/\S*)?$/.test(url)) {
      problems.push({
        field: 'remote_url',
        description: 'remote_url must be an http(s) URL of at most 512 characters, or null to stop syncing',
      });
    } else {
      const problem = remoteUrlProblem(url, input.allow_insecure_http === true);
      if (problem) problems.push({ field: 'remote_url', description: problem });
    }
    // A field given but faulty is in the input as undefined (Partly): a faulty api_env has its
    // own problem already, and a faulty api_key still needs its environment.
    if ('api_key' in input && !('api_env' in input)) {
      problems.push({ field: 'api_env', description: 'api_env goes with api_key' });
    }
  }
  return problems;
}

export function registerConflictRoutes(app: FastifyInstance, control: (() => SyncControl | undefined) | undefined): void {
  const doc = (summary: string) => ({ doc: { summary, tag: 'Sync' } });

  app.get(
    '/sync/status',
    { config: doc('Sync status: online, pending changes and files, last push and pull, conflicts') },
    async (request) => {
      const counts = await localBooks(request.ctx.records).syncCounts();
      const client = control?.();
      const status = client && client.environmentId === request.ctx.caller.environment.id ? client.status() : null;
      return {
        role: counts.role,
        ...(status ?? notConfiguredStatus),
        // An upload is not safe on the remote until its file is there too: it counts as pending.
        pending: counts.pending + counts.files_to_send,
        files_to_send: counts.files_to_send,
        files_to_fetch: counts.files_to_fetch,
        conflicts: counts.conflicts,
        // This replica's changes that lost to later ones elsewhere, until the planner decides (overruled-routes.ts).
        overruled: counts.overruled,
      };
    },
  );

  app.post('/sync/run', { config: doc('Push and pull once now; answers when done') }, async (request) =>
    controlFor(control, request.ctx).run(),
  );

  app.get('/sync/settings', { config: doc('The remote this instance syncs with (credentials are never returned)') }, (request) =>
    controlFor(control, request.ctx).settings(),
  );

  operationRoute(
    app,
    syncSettingsOperation,
    async (request, _reply, input) => {
      try {
        return await controlFor(control, request.ctx).updateSettings(input);
      } catch (error) {
        // The remote did not take the new settings: nothing was stored (docs/API.md "Checked before saved").
        if (error instanceof SyncSettingsProblem) throw ApiError.unprocessable([{ field: error.field, description: error.message }]);
        throw error;
      }
    },
    (request) => manage(request.ctx),
    (_request, input) => settingsProblems(input),
  );

  app.get<{ Querystring: QueryString }>('/sync/pending', { config: doc('Changes waiting to be pushed, oldest first') }, async (request) => {
    manage(request.ctx);
    const books = localBooks(request.ctx.records);
    const { limit } = page(request.query);
    return { count: (await books.syncCounts()).pending, limit, offset: 0, data: await books.pending(limit) };
  });

  app.get<{ Querystring: QueryString }>(
    '/sync/conflict',
    { config: doc('Changes the remote refused (open ones unless all=true)') },
    async (request) => {
      manage(request.ctx);
      const { limit, offset } = page(request.query);
      const all = booleanParam(request.query, 'all');
      const { count, data } = await localBooks(request.ctx.records).conflicts({ open: !all, limit, offset });
      return { count, limit, offset, data };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/sync/conflict/:id',
    { config: doc("One refused change with its data, the reason and the remote's version") },
    async (request) => {
      manage(request.ctx);
      const conflict = await localBooks(request.ctx.records).conflict(request.params.id);
      if (!conflict) throw ApiError.notFound('No conflict with that id.');
      const module = moduleNamedOrNone(conflict.mutation.resource);
      const current = module ? await request.ctx.records.get(module.table, conflict.mutation.id) : undefined;
      return {
        ...conflict,
        local_record: current && module ? await presentOne(request.ctx, module, current, { with: [], include: [] }) : null,
        // The records its fields name, by name: the Sync screen shows a stage as "Sawing", not by its id.
        names: await referencedNames(request.ctx.records, conflict.mutation.resource, [conflict.mutation.fields, conflict.server_record]),
      };
    },
  );

  operationRoute(
    app,
    retryConflictOperation,
    async (request, reply, input) => {
      const id = request.params.id!;
      await asCommandOnRecords(request, reply, retryConflictOperation.summary, (tx) => retry(request.ctx, tx, id, input));
      return localBooks(request.ctx.records).conflict(id);
    },
    (request) => manage(request.ctx),
  );

  app.post<{ Params: { id: string } }>(
    '/sync/conflict/:id/discard',
    // No record changes, so no command: there is nothing to undo.
    { config: { ...doc("Drop the refused change and keep the remote's version") } },
    async (request) => {
      manage(request.ctx);
      const id = await request.ctx.records.transaction(async (tx) => {
        const books = localBooks(tx);
        const conflict = await books.conflict(request.params.id);
        if (!conflict) throw ApiError.notFound('No conflict with that id.');
        if (conflict.resolved_at) throw ApiError.conflict('This conflict was already resolved.');
        await books.resolveConflict(conflict.id, 'discarded');
        return conflict.id;
      });
      return localBooks(request.ctx.records).conflict(id);
    },
  );
}
