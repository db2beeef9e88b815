/**
 * Which resources sync: every module's, except those marked `syncs: false` (records that
 * belong to one instance, like webhooks and OAuth clients).
 */
import type { DataDir } from '../../store/data-dir.js';
import { bookOf, installSyncBooks as install, type ReplicaRole } from '../../store/sync-book.js';
import { unknownDataOf } from '../../store/unknown-data.js';
import type { ResourceModule } from '../resource.js';

export { bookOf } from '../../store/sync-book.js';

export function syncedResources(modules: readonly ResourceModule[]): Set<string> {
  return new Set(modules.filter((m) => m.syncs !== false).map((m) => m.spec.name));
}

export function installSyncBooks(dataDir: DataDir, role: ReplicaRole, modules: readonly ResourceModule[]): void {
  install(dataDir, role, syncedResources(modules));
  // After the migrations of each opened database (docs/API.md "Versions and unknown data"):
  // what an older version of the app kept, and this one declares, moves into its tables.
  const tables = new Map(modules.filter((m) => m.syncs !== false).map((m) => [m.spec.name, m.table]));
  dataDir.onOpen((store) => unknownDataOf(store).replayKnownData(bookOf(store), tables));
}
