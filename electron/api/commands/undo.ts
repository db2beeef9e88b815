/**
 * Server-side undo (docs/API.md "Commands and undo"). A command's change-log rows keep the
 * previous values of every field they wrote; undo writes those back as a new command that
 * `undoes` the first, so it syncs, notifies and can itself be undone (that is redo):
 *  - a record the command created is deleted (a tombstone, restorable like any delete);
 *  - a record it changed gets each field's value from before the command's first write of it;
 *  - a record it deleted is restored (its `deleted_at` was null before).
 * Records are reverted in the reverse order the command first wrote them.
 *
 * The previous values are written as they were stored (they passed the rules then, and
 * server-owned ones such as a planned collection's status are no client's to send), but the
 * caller must be allowed to write them now: each reverted record goes through its resource's
 * rules as a PUT, delete or restore of it would, and a refusal for the caller's role (403)
 * refuses the undo (a member cannot undo a planner's approval: that reopens an approved entry).
 * If a later write (any command, a sync, a write of no command) changed a field the undo
 * would revert, or deleted the record, the undo is refused with 409 naming those records, and
 * nothing is written: it would overwrite work done since. A later write that leaves the field
 * as the command left it overwrites nothing: a replica pulls back, after a sync, the values
 * the remote derived from its own pushed writes (a collection's start and end), and that must
 * not make its planner's last move impossible to undo.
 */
import { nowTimestamp } from '../../../shared/ids.js';
import type { CommandChange } from '../../store/command-book.js';
import type { CommandMeta } from '../../store/changes.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { RecordStore, RecordWrites } from '../../store/record-store.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../resource.js';
import { moduleNamedOrNone } from '../registry.js';
import { tableNamed } from '../tables.js';

interface Reversal {
  resource: string;
  id: string;
  /** The command made the record: undo deletes it. */
  created: boolean;
  /** Each field's value before the command's first write of it. */
  before: Record<string, unknown>;
  /** The fields whose value the command really changed (a write of the same value is none). */
  changed: Set<string>;
  /** Each field's value after the command's last write of it. */
  after: Record<string, unknown>;
}

/** Fields every write sets; a later write touching only these changed nothing undo reverts. */
const bookkeeping = new Set(['id', 'created_at', 'updated_at']);

function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** The fields a change-log row really changed; all it wrote when its previous values are unknown. */
function changedFields(change: CommandChange): string[] {
  const written = Object.keys(change.fields ?? {}).filter((f) => !bookkeeping.has(f));
  if (change.op === 'delete') written.push('deleted_at');
  if (!change.before) return written;
  return written.filter((f) =>
    f === 'deleted_at'
      ? change.op === 'delete' || !same(change.before!.deleted_at, change.fields?.deleted_at)
      : !same(change.before![f], change.fields![f]),
  );
}

function reversalsOf(changes: readonly CommandChange[]): Reversal[] {
  const byRecord = new Map<string, Reversal>();
  for (const change of changes) {
    const key = `${change.resource}/${change.record_id}`;
    let reversal = byRecord.get(key);
    if (!reversal) {
      reversal = {
        resource: change.resource,
        id: change.record_id,
        created: change.op === 'create' && !change.before,
        before: {},
        changed: new Set(),
        after: {},
      };
      byRecord.set(key, reversal);
    }
    for (const field of changedFields(change)) reversal.changed.add(field);
    Object.assign(reversal.after, change.fields ?? {});
    if (reversal.created) continue;
    for (const [field, value] of Object.entries(change.before ?? {})) {
      if (!bookkeeping.has(field) && !(field in reversal.before)) reversal.before[field] = value;
    }
  }
  return [...byRecord.values()];
}

/** Later writes that touched what the undo would revert, one problem per record. */
async function conflictsOf(
  tx: RecordWrites,
  reversals: readonly Reversal[],
  lastSeq: number,
): Promise<{ field: string; description: string }[]> {
  const problems: { field: string; description: string }[] = [];
  for (const reversal of reversals) {
    const later = await tx.commands.changesAfter(reversal.resource, reversal.id, lastSeq);
    // What the later writes left in each field; one left as the command left it was not changed.
    const left: Record<string, unknown> = {};
    for (const change of later) Object.assign(left, change.fields ?? {});
    const touched = later
      .flatMap(changedFields)
      .filter((f) => f === 'deleted_at' || reversal.created || (reversal.changed.has(f) && !same(left[f], reversal.after[f])));
    if (touched.length === 0) continue;
    const fields = [...new Set(touched)].join(', ');
    problems.push({
      field: `${reversal.resource}.${reversal.id}`,
      description: `${reversal.resource} ${reversal.id} was changed since (${fields}); undo would overwrite that change.`,
    });
  }
  return problems;
}

/**
 * The rules of the reverted record's resource, as for the write the undo amounts to: a delete
 * for a record the command created, a restore for one it deleted, an update otherwise. What
 * they refuse for the caller's role throws (403); problems with the values are not the undo's
 * (the values were stored once), so they are left out.
 */
async function checkRoles(ctx: RequestContext, tx: RecordWrites, reversal: Reversal, record: StoredRecord | undefined): Promise<void> {
  const module = moduleNamedOrNone(reversal.resource);
  if (!module?.rules || !record) return;
  if (reversal.created) {
    // A rule answers at once or with a promise (resource.ts, RuleAnswer): either way it is awaited here.
    if (!record.deleted_at) await module.rules.checkDelete?.(ctx, tx, record);
    return;
  }
  if (record.deleted_at && reversal.before.deleted_at === null) {
    module.rules.checkRestore?.(ctx, record);
    await module.rules.checkRestoreOnRecords?.(ctx, tx, record);
  }
  const values = Object.fromEntries(Object.entries(reversal.before).filter(([field]) => field !== 'deleted_at'));
  if (Object.keys(values).length > 0) await module.rules.check?.(ctx, tx, { ...values }, record, undefined, { ...values });
}

/**
 * Writes the inverse of command `id` in `tx`, the transaction of the command `meta` that undoes
 * it (the caller opens it, with `undoes` set). 404 for a command this environment does not have,
 * 409 when it was undone already or a record it wrote changed since. The reverted records are
 * locked before the later changes are read (on PostgreSQL; a SQLite transaction holds the
 * file), so no write on another node slips in between the check and the undo.
 */
export async function undoCommand(ctx: RequestContext, tx: RecordWrites, meta: CommandMeta, id: string): Promise<void> {
  const command = await tx.commands.find(id);
  if (!command) throw ApiError.notFound('No command with that id.');
  const undoing = await tx.commands.undoneBy(id);
  if (undoing && undoing.id !== meta.id) throw undoneAlready(undoing.id);
  const changes = await tx.commands.changesOf(id);
  const reversals = reversalsOf(changes);
  const records = new Map<Reversal, StoredRecord | undefined>();
  // In one order whoever locks them, so two undos never wait for each other in a circle.
  for (const reversal of [...reversals].sort((x, y) => `${x.resource}/${x.id}`.localeCompare(`${y.resource}/${y.id}`))) {
    const table = tableNamed(reversal.resource);
    records.set(reversal, table ? await tx.sync.getForSync(table, reversal.id, { lock: true }) : undefined);
  }
  const problems = await conflictsOf(tx, reversals, changes.at(-1)?.seq ?? 0);
  if (problems.length > 0) throw new ApiError('conflict', problems);
  for (const reversal of reversals) await checkRoles(ctx, tx, reversal, records.get(reversal));
  for (const reversal of [...reversals].reverse()) {
    const table = tableNamed(reversal.resource);
    if (!table) throw ApiError.conflict(`${reversal.resource} records cannot be undone by this version of the app.`);
    if (reversal.created) {
      await tx.softDelete(table, reversal.id);
      continue;
    }
    if (Object.keys(reversal.before).length === 0) continue;
    await tx.sync.writeForSync(table, reversal.id, { ...reversal.before, updated_at: nowTimestamp() });
  }
}

function undoneAlready(by: string): ApiError {
  return ApiError.conflict(`This command was undone already (by command ${by}); undo that one to redo it.`);
}

/** The command that undoes `id`: "Undo: <its description>". Read before its transaction opens. */
export async function undoMetaFor(records: RecordStore, id: string, meta: CommandMeta): Promise<CommandMeta> {
  const { command, undoing } = await records.transaction(async (tx) => ({
    command: await tx.commands.find(id),
    undoing: await tx.commands.undoneBy(id),
  }));
  if (!command) throw ApiError.notFound('No command with that id.');
  if (undoing) throw undoneAlready(undoing.id);
  return { ...meta, description: meta.description || `Undo: ${command.description}`, undoes: id };
}
