/**
 * Every environment store gets its sync bookkeeping when it opens: a local replica keeps an
 * outbox, a remote does not. Records of modules marked `syncs: false` (webhooks, OAuth
 * clients) stay on their instance.
 */
import type { DataDir } from '../../store/data-dir.js';
import type { EnvironmentStore } from '../../store/environment-store.js';
import { SyncBook, type ReplicaRole } from '../../store/sync-book.js';
import type { ResourceModule } from '../resource.js';

const books = new WeakMap<EnvironmentStore, SyncBook>();

export function syncedResources(modules: readonly ResourceModule[]): Set<string> {
  return new Set(modules.filter((m) => m.syncs !== false).map((m) => m.spec.name));
}

export function installSyncBooks(dataDir: DataDir, role: ReplicaRole, modules: readonly ResourceModule[]): void {
  const synced = syncedResources(modules);
  dataDir.onOpen((store) => {
    if (!books.has(store)) books.set(store, new SyncBook(store, role, synced));
  });
}

export function bookOf(store: EnvironmentStore): SyncBook {
  const book = books.get(store);
  if (!book) throw new Error('sync bookkeeping is not installed on this store');
  return book;
}
