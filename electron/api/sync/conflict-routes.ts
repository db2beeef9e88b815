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
import { deleteRecord, presentOne, updateRecord } from '../records.js';
import { moduleNamedOrNone } from '../registry.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { bookOf } from './books.js';
import { referencedNames } from './record-names.js';
import { overruledEditsOf } from '../../store/overruled-edits.js';
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

function retry(ctx: RequestContext, conflictId: string, input: Record<string, unknown>): void {
  const book = bookOf(ctx.store);
  const conflict = book.conflict(conflictId);
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
  ctx.store.transaction(() => {
    items.forEach(({ mutation }, i) => retryMutation(ctx, modules[i]!, mutation, input));
    book.resolveConflict(conflictId, 'retried');
  });
}

function retryMutation(ctx: RequestContext, module: ResourceModule, mutation: Mutation, input: Record<string, unknown>): void {
  if (mutation.op === 'delete') {
    deleteRecord(ctx, module, mutation.id);
  } else {
    const edited = { ...(mutation.fields ?? {}), ...input };
    const current = ctx.store.getForSync(module.table, mutation.id);
    if (current && !current.deleted_at) {
      // An ordinary edit, through the resource's rules like any API write.
      const scope = Object.fromEntries((module.parents ?? []).map((p) => [p.param, current[p.field] as string]));
      updateRecord(ctx, module, mutation.id, edited, scope, { keepAbsent: true });
    } else {
      // The record is not here (the remote refused to create it), or deleted (the remote deleted
      // it meanwhile): bring it back whole. A deleted one has its other fields already, so the
      // change is checked as an edit of it.
      const { values, problems } = checkWrite(module.spec, edited, current ? 'update' : 'create', [], true);
      if (problems.length > 0) throw ApiError.unprocessable(problems);
      ctx.store.writeForSync(module.table, mutation.id, { ...current, ...values, deleted_at: null });
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

  app.get('/sync/status', { config: doc('Sync status: online, pending changes and files, last push and pull, conflicts') }, (request) => {
    const book = bookOf(request.ctx.store);
    const client = control?.();
    const status = client && client.environmentId === request.ctx.caller.environment.id ? client.status() : null;
    const filesToSend = book.queuedFileCount('send');
    return {
      role: book.role,
      ...(status ?? notConfiguredStatus),
      // An upload is not safe on the remote until its file is there too: it counts as pending.
      pending: book.pendingCount() + filesToSend,
      files_to_send: filesToSend,
      files_to_fetch: book.queuedFileCount('fetch'),
      conflicts: book.openConflictCount(),
      // This replica's changes that lost to later ones elsewhere, until the planner decides (overruled-routes.ts).
      overruled: overruledEditsOf(request.ctx.store).openCount(),
    };
  });

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

  app.get<{ Querystring: QueryString }>('/sync/pending', { config: doc('Changes waiting to be pushed, oldest first') }, (request) => {
    manage(request.ctx);
    const book = bookOf(request.ctx.store);
    const { limit } = page(request.query);
    return { count: book.pendingCount(), limit, offset: 0, data: book.pending(limit) };
  });

  app.get<{ Querystring: QueryString }>(
    '/sync/conflict',
    { config: doc('Changes the remote refused (open ones unless all=true)') },
    (request) => {
      manage(request.ctx);
      const { limit, offset } = page(request.query);
      const all = booleanParam(request.query, 'all');
      const { count, data } = bookOf(request.ctx.store).conflicts({ open: !all, limit, offset });
      return { count, limit, offset, data };
    },
  );

  app.get<{ Params: { id: string } }>(
    '/sync/conflict/:id',
    { config: doc("One refused change with its data, the reason and the remote's version") },
    async (request) => {
      manage(request.ctx);
      const conflict = bookOf(request.ctx.store).conflict(request.params.id);
      if (!conflict) throw ApiError.notFound('No conflict with that id.');
      const module = moduleNamedOrNone(conflict.mutation.resource);
      const current = module ? request.ctx.store.get(module.table, conflict.mutation.id) : undefined;
      return {
        ...conflict,
        local_record: current && module ? await presentOne(request.ctx, module, current, { with: [], include: [] }) : null,
        // The records its fields name, by name: the Sync screen shows a stage as "Sawing", not by its id.
        names: referencedNames(request.ctx, conflict.mutation.resource, [conflict.mutation.fields, conflict.server_record]),
      };
    },
  );

  operationRoute(
    app,
    retryConflictOperation,
    (request, _reply, input) => {
      retry(request.ctx, request.params.id!, input);
      return bookOf(request.ctx.store).conflict(request.params.id!);
    },
    (request) => manage(request.ctx),
  );

  app.post<{ Params: { id: string } }>(
    '/sync/conflict/:id/discard',
    { config: doc("Drop the refused change and keep the remote's version") },
    (request) => {
      manage(request.ctx);
      const book = bookOf(request.ctx.store);
      const conflict = book.conflict(request.params.id);
      if (!conflict) throw ApiError.notFound('No conflict with that id.');
      if (conflict.resolved_at) throw ApiError.conflict('This conflict was already resolved.');
      book.resolveConflict(conflict.id, 'discarded');
      return book.conflict(conflict.id);
    },
  );
}
