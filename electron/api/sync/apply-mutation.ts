/**
 * The remote applying one pushed mutation. Each field is last-writer-wins by hybrid clock
 * (ties broken by node id): a field this replica wrote later keeps its value. The fields that
 * win are checked by the resource's declaration and domain rules, exactly as an API call
 * would be (server-owned fields included: they are what the replica's own rules computed),
 * and written with the mutation's clock. Effects are not run again: the replica that made
 * the change expanded them into mutations of their own.
 *
 * A delete beats concurrent edits: an edit to a deleted record is refused (the record stays
 * restorable), so the replica's user sees it in the conflict list rather than losing it.
 *
 * Rules that span records changed on different replicas are the remote's to keep, as the one
 * place every change passes: a module may refuse a change as a whole (`checkSynced`: a second
 * plan of a collection) or follow it up with changes of its own (`afterSynced`: one running
 * timer per user, a collection's summary), which then sync to everyone like any other.
 *
 * Fields and resources this version does not declare (another app version's) are kept with
 * the mutation's clock and its writer, never dropped, within limits (kept-data.ts); fields of a
 * record are kept only when the caller may write that record.
 *
 * Everything reads and writes through the push's transaction (`tx`, and `tx.sync` for what
 * sync keeps besides records), so a push runs on either store engine (docs/architecture.md
 * "Team server on PostgreSQL").
 */
import type { ApiErrorBody, FieldProblem } from '../../../shared/errors.js';
import { loneSurrogatePath, loneSurrogateProblem } from '../../../shared/fields.js';
import { maxClockSkewMs, parseHlc, zeroHlc } from '../../../shared/hlc.js';
import type { Mutation } from '../../../shared/operations/sync.js';
import type { TableDef } from '../../store/table-def.js';
import type { RecordWrites } from '../../store/record-store.js';
import { ApiError, toApiError } from '../errors.js';
import { forSync, isReadOnly, readOnlyMessage } from '../permissions.js';
import { moduleNamedOrNone } from '../registry.js';
import type { RequestContext } from '../resource.js';
import { deleteWithRules, planWrite } from '../write-plan.js';
import { declaredResources, keepUnknownFields, keepUnknownRecord, takeUnknownFields, type KeptBudget } from './kept-data.js';
import { ActionChecks } from './action-checks.js';
import { nowMs } from '../../../shared/clock.js';

export type MutationResult =
  /** With the remote's `record` and `clocks` when some of its fields lost to later ones (overruled). */
  | { mutation_id: number; status: 'applied'; record?: Record<string, unknown> | null; clocks?: Record<string, string> }
  /** Not applied and not refused: the replica's clock runs ahead (push.ts). */
  | { mutation_id: number; status: 'deferred'; error: ApiErrorBody }
  | {
      mutation_id: number;
      status: 'rejected';
      error: ApiErrorBody;
      record: Record<string, unknown> | null;
      clocks: Record<string, string>;
    };

type RefusedMutation = Extract<MutationResult, { status: 'rejected' }>;

/** The remote's version of a mutation's record, as the caller may read it. */
async function remoteVersion(ctx: RequestContext, tx: RecordWrites, mutation: Mutation, table?: TableDef) {
  const clocks = await tx.sync.clocksOf(mutation.resource, mutation.id);
  if (!table) return { record: null, clocks };
  return {
    record: forSync(table, ctx.caller, (await tx.sync.getForSync(table, mutation.id)) ?? null),
    clocks: forSync(table, ctx.caller, clocks),
  };
}

async function refuse(
  ctx: RequestContext,
  tx: RecordWrites,
  mutation: Mutation,
  error: ApiError,
  table?: TableDef,
): Promise<RefusedMutation> {
  return { mutation_id: mutation.mutation_id, status: 'rejected', error: error.body(), ...(await remoteVersion(ctx, tx, mutation, table)) };
}

/** The refusal of `mutation` for a rule's error; anything but an API error is thrown on. */
export async function refusalFor(ctx: RequestContext, tx: RecordWrites, mutation: Mutation, error: unknown): Promise<RefusedMutation> {
  const apiError = toApiError(error);
  if (!apiError) throw error;
  return refuse(ctx, tx, mutation, apiError, syncedTable(mutation.resource));
}

/** A refusal with a given reason and the remote's version as it is now (a refused group, push.ts). */
export async function refusedWith(ctx: RequestContext, tx: RecordWrites, mutation: Mutation, error: ApiErrorBody): Promise<MutationResult> {
  return {
    mutation_id: mutation.mutation_id,
    status: 'rejected',
    error,
    ...(await remoteVersion(ctx, tx, mutation, syncedTable(mutation.resource))),
  };
}

function syncedTable(resource: string) {
  const module = moduleNamedOrNone(resource);
  return module?.syncs === false ? undefined : module?.table;
}

/** Applies the fields that win; answers whether any field lost to a later change (an overruled edit). */
async function apply(ctx: RequestContext, tx: RecordWrites, budget: KeptBudget, mutation: Mutation): Promise<boolean> {
  // Unknown fields too: they are kept for a later version, and must be text the store can keep.
  const badText = loneSurrogatePath(mutation.fields);
  if (badText !== undefined) throw ApiError.rule(badText, `${badText} ${loneSurrogateProblem}`);
  const module = moduleNamedOrNone(mutation.resource)!;
  const current = await tx.sync.getForSync(module.table, mutation.id);
  const clocks = await tx.sync.clocksOf(mutation.resource, mutation.id);
  const newer = (field: string) => mutation.hlc > (clocks[field] ?? zeroHlc);

  if (mutation.op === 'delete') {
    if (!current || current.deleted_at) return false; // already gone: deletes are idempotent
    const problems = (await module.rules?.checkDelete?.(ctx, tx, current)) ?? [];
    if (problems.length > 0) throw ApiError.unprocessable(problems);
    const at = typeof mutation.fields?.deleted_at === 'string' ? mutation.fields.deleted_at : undefined;
    await tx.sync.asReplica({ deleted_at: mutation.hlc, updated_at: mutation.hlc }, () => deleteWithRules(ctx, tx, module, current, at));
    return false;
  }

  const fields = { ...(mutation.fields ?? {}) };
  delete fields.id;
  const unknown = takeUnknownFields(module.spec, fields);
  const restoring = 'deleted_at' in fields && fields.deleted_at === null;
  if (current?.deleted_at && !(restoring && newer('deleted_at'))) {
    throw ApiError.conflict(`This ${module.spec.title} was deleted on the remote; restore it to change it.`);
  }
  await module.rules?.checkSynced?.(ctx, tx, mutation.id, fields, current);
  // Fields this version does not declare are kept for the versions that do (kept-data.ts);
  // a refusal below rolls them back with the rest.
  await keepUnknownFields(ctx, tx, budget, mutation, unknown);
  const winning: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(fields)) if (!current || newer(field)) winning[field] = value;
  // Strictly later: an equal clock is this same change, applied before (a resend).
  const lost =
    current !== undefined && Object.keys(fields).some((field) => field !== 'deleted_at' && (clocks[field] ?? zeroHlc) > mutation.hlc);
  const keptOnly = Object.keys(winning).length === 0;
  // Nothing to write or keep: a resend, or every field lost to a later one.
  if (keptOnly && Object.keys(unknown).length === 0) return lost;

  // Checked as the caller's write of this record even when it writes only fields this version
  // does not declare (security audit N3): the resource's rules decide whether the caller may
  // write the record at all (a member, another user's record or approved entry: 403). A create
  // of only unknown fields goes on, as a create of nothing this version declares did.
  const problems: FieldProblem[] = [];
  const { deleted_at: _deleted, ...checked } = winning;
  const plan = await planWrite(
    ctx,
    tx,
    module,
    checked,
    current ? { ...current } : undefined,
    { keepAbsent: true, trusted: true },
    problems,
  );
  if (problems.length > 0) throw ApiError.unprocessable(problems);
  if (keptOnly && current) return lost;
  const values: Record<string, unknown> = { ...plan.values, ...('deleted_at' in winning ? { deleted_at: winning.deleted_at } : {}) };
  for (const field of ['created_at', 'updated_at']) if (field in winning) values[field] = winning[field];
  const fieldClocks = Object.fromEntries(Object.keys(winning).map((f) => [f, mutation.hlc]));
  await tx.sync.asReplica(fieldClocks, () => tx.sync.writeForSync(module.table, mutation.id, values));
  if (module.rules?.afterSynced) {
    const written = await tx.get(module.table, mutation.id);
    if (written) await module.rules.afterSynced(ctx, tx, written);
  }
  return lost;
}

/**
 * Applies one mutation in its own savepoint: it lands whole, or is refused with the reason.
 * Part of a group, it registers its action's checks in `action` (run by push.ts once the group
 * is applied); alone, it is an action of its own, checked at once (sync/action-checks.ts).
 */
export async function applyMutation(
  ctx: RequestContext,
  tx: RecordWrites,
  mutation: Mutation,
  /** What the push may still keep of other versions' data (kept-data.ts). */
  budget: KeptBudget,
  action?: ActionChecks,
): Promise<MutationResult> {
  const module = moduleNamedOrNone(mutation.resource);
  if (module?.syncs === false || (!module && declaredResources.has(mutation.resource))) {
    return refuse(ctx, tx, mutation, ApiError.rule('resource', `${mutation.resource} is not a resource that syncs`));
  }
  // A guest writes nothing (permissions.ts): each change comes back refused, with the record.
  if (isReadOnly(ctx.caller)) return refuse(ctx, tx, mutation, ApiError.forbidden(readOnlyMessage), module?.table);
  const ahead = parseHlc(mutation.hlc)!.millis - nowMs();
  if (ahead > maxClockSkewMs) {
    // Not refused on its merits: the edit is kept by the replica until the clocks agree,
    // and a clock far ahead never wins last-writer-wins over everyone else's edits.
    const minutes = Math.ceil(ahead / 60_000);
    return {
      mutation_id: mutation.mutation_id,
      status: 'deferred',
      error: ApiError.rule(
        'hlc',
        `The replica's clock runs about ${minutes} minute(s) ahead of the remote's; the change waits until the clocks agree.`,
      ).body(),
    };
  }
  tx.sync.receiveClock(mutation.hlc);
  try {
    if (!module) {
      // A resource of another version: kept whole for the versions that declare it (kept-data.ts).
      await tx.sync.savepoint(() => keepUnknownRecord(ctx, tx, budget, mutation));
      return { mutation_id: mutation.mutation_id, status: 'applied' };
    }
    const checks = action ?? new ActionChecks();
    const lost = await tx.sync.savepoint(async () => {
      const lostFields = await apply({ ...ctx, origin: 'sync', syncAction: checks.for(mutation) }, tx, budget, mutation);
      const refused = action ? undefined : await checks.run(tx, [mutation]);
      if (refused) throw refused.error;
      return lostFields;
    });
    // The replica learns at once which of its fields lost, and shows the planner (docs/API.md "Overruled edits").
    return lost
      ? { mutation_id: mutation.mutation_id, status: 'applied', ...(await remoteVersion(ctx, tx, mutation, module.table)) }
      : { mutation_id: mutation.mutation_id, status: 'applied' };
  } catch (error) {
    const apiError = toApiError(error);
    if (!apiError) throw error;
    return refuse(ctx, tx, mutation, apiError, module?.table);
  }
}
