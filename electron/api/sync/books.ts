/**
 * Which resources sync: every module's, except those marked `syncs: false` (records that
 * belong to one instance, like webhooks and OAuth clients). And, when a database opens, the
 * data kept for other versions that this version declares moves into its tables, as its
 * writer's write (docs/API.md "Versions and unknown data").
 */
import type { FieldProblem } from '../../../shared/errors.js';
import type { DataDir } from '../../store/data-dir.js';
import { bookOf, installSyncBooks as install, type ReplicaRole } from '../../store/sync-book.js';
import { tables as storeTables } from '../../store/tables.js';
import { unknownDataOf, type KeptAdmission } from '../../store/unknown-data.js';
import { readingThrough, recordsOf, type RecordReads, type RecordStore, type RecordWrites } from '../../store/record-store.js';
import { ApiError } from '../errors.js';
import type { Caller, ResourceModule, RequestContext } from '../resource.js';
import { planWrite } from '../write-plan.js';

export { bookOf } from '../../store/sync-book.js';

export function syncedResources(modules: readonly ResourceModule[]): Set<string> {
  return new Set(modules.filter((m) => m.syncs !== false).map((m) => m.spec.name));
}

/**
 * Who wrote a kept value, as a caller of this environment now: an API key's write is the
 * environment's own; a user's is checked with the role they have now, and one who is gone
 * writes nothing. Null (what a remote passed on to this replica, or what was kept before
 * writers were recorded) is the instance's own, as a pull is.
 */
async function writerAsCaller(writer: string | null, environment: Caller['environment'], tx: RecordReads): Promise<Caller> {
  if (writer === null) return { kind: 'api-key', environment };
  if (writer.startsWith('key:')) return { kind: 'api-key', environment, keyId: writer.slice('key:'.length) };
  const userId = writer.slice('user:'.length);
  const user = writer.startsWith('user:') ? await tx.get(storeTables.user, userId) : undefined;
  if (!user) throw ApiError.forbidden(`The value was written by ${writer}, who is no longer a user here.`);
  return { kind: 'user', environment, userId, role: user.role };
}

/**
 * The declaring version's say over kept values (UnknownData.replayKnownData), each record in a
 * transaction of the environment's RecordStore: they pass the resource's declaration and domain
 * rules as their writer's synced write of the record (role rules included: only an admin
 * changes another user, a member writes their own unlocked entries), and a kept delete or
 * restore passes the resource's delete or restore rule.
 */
export function admitAsWriter(
  dataDir: DataDir,
  modules: readonly ResourceModule[],
  records: RecordStore,
  environmentId: string,
): KeptAdmission<RecordWrites> {
  return {
    transaction: (fn) => records.transaction(fn),
    async admit(tx, table, id, values, current, writer) {
      const module = modules.find((m) => m.spec.name === table.resource);
      const environment = dataDir.system.listEnvironments().find((e) => e.id === environmentId);
      if (!module || !environment) throw new Error(`no module or environment for ${table.resource} in ${environmentId}`);
      const caller = await writerAsCaller(writer, environment, tx);
      // The rules read through the transaction: the store itself waits for it to end.
      const ctx: RequestContext = { caller, records: readingThrough(tx, records), origin: 'sync' };
      const { deleted_at: deletedAt, ...fields } = values;
      const problems: FieldProblem[] = [];
      if (Object.keys(fields).length > 0)
        await planWrite(ctx, tx, module, fields, current ? { ...current } : undefined, { keepAbsent: true, trusted: true }, problems);
      if (typeof deletedAt === 'string' && current && !current.deleted_at)
        problems.push(...((await module.rules?.checkDelete?.(ctx, tx, current)) ?? []));
      if (deletedAt === null && current?.deleted_at) module.rules?.checkRestore?.(ctx, current);
      if (problems.length > 0) throw ApiError.unprocessable(problems);
    },
  };
}

export function installSyncBooks(dataDir: DataDir, role: ReplicaRole, modules: readonly ResourceModule[]): void {
  install(dataDir, role, syncedResources(modules));
  // After the migrations of each opened database (docs/API.md "Versions and unknown data"):
  // what an older version of the app kept, and this one declares, moves into its tables.
  const tables = new Map(modules.filter((m) => m.syncs !== false).map((m) => [m.spec.name, m.table]));
  // Its first transaction on the environment's RecordStore, awaited before a request is served (DataDir.ready).
  dataDir.onOpen(async (store) => {
    await unknownDataOf(store).replayKnownData(
      bookOf(store),
      tables,
      admitAsWriter(dataDir, modules, recordsOf(store), store.environmentId),
    );
  });
}
