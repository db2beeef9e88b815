/**
 * A data folder: `system.sqlite` (environments and keys) plus one `env-<id>.sqlite` per
 * environment. File names use the environment's id, never its user-given name, so a name can
 * never become a path.
 */
import { join } from 'node:path';
import { databaseOpenError } from './database.js';
import { EnvironmentStore } from './environment-store.js';
import { ownerOnlyFolder, tightenFolder, type Tightening } from './owner-only.js';
import { SystemStore } from './system.js';

/** Work on an environment store when it opens (DataDir.onOpen). */
type Opener = (store: EnvironmentStore) => void | Promise<void>;

export class DataDir {
  private readonly environments = new Map<string, EnvironmentStore>();
  private readonly openers: Opener[] = [];
  /** Per environment, what its openers still do (a promise an opener returned), until it is ready. */
  private readonly opening = new Map<string, Promise<void>>();
  private closed = false;

  private constructor(
    readonly path: string,
    readonly system: SystemStore,
    /** What opening took away from other users of the computer (owner-only.ts); the opener logs it. */
    readonly tightening: Tightening | undefined,
  ) {}

  /**
   * Opens the folder, making it (for its owner only) when it does not exist, and tightening it
   * when other users may read it (docs/deployment.md "The data folder").
   */
  static open(path: string): DataDir {
    ownerOnlyFolder(path);
    const tightening = tightenFolder(path);
    return new DataDir(path, SystemStore.open(DataDir.systemFile(path)), tightening);
  }

  /** Where a data folder keeps its system database (backup and restore use the same names). */
  static systemFile(path: string): string {
    return join(path, 'system.sqlite');
  }

  /** Where a data folder keeps one environment's database. */
  static environmentFile(path: string, environmentId: string): string {
    return join(path, `env-${environmentId}.sqlite`);
  }

  /** The store of one environment, opened (and migrated) on first use. */
  environment(environmentId: string): EnvironmentStore {
    if (this.closed) throw new Error('data folder is closed');
    let store = this.environments.get(environmentId);
    if (!store) {
      const file = DataDir.environmentFile(this.path, environmentId);
      store = EnvironmentStore.open(file, environmentId);
      this.environments.set(environmentId, store);
      try {
        for (const opener of this.openers) this.run(opener, store);
      } catch (error) {
        // An opener's first read can be the one that meets a damaged page: name the file.
        this.environments.delete(environmentId);
        store.close();
        throw databaseOpenError(error, file) ?? error;
      }
    }
    return store;
  }

  /**
   * The store of one environment once its openers are done, those that answer with a promise
   * included (kept data moved into the tables, api/sync/books.ts): what a request is served on.
   */
  async ready(environmentId: string): Promise<EnvironmentStore> {
    const store = this.environment(environmentId);
    await this.opening.get(environmentId);
    return store;
  }

  /**
   * Runs `opener` for every environment store, open now or opened later: how the API attaches
   * its write hooks (webhooks, sync outbox) to each environment. An opener may answer with a
   * promise (its work on the environment's asynchronous store): `ready` awaits it.
   */
  onOpen(opener: Opener): void {
    this.openers.push(opener);
    for (const store of this.environments.values()) this.run(opener, store);
  }

  private run(opener: Opener, store: EnvironmentStore): void {
    const done = opener(store);
    if (!done) return;
    const id = store.environmentId;
    const file = DataDir.environmentFile(this.path, id);
    const opening = Promise.all([this.opening.get(id), done]).then(
      () => undefined,
      (error: unknown) => {
        throw databaseOpenError(error, file) ?? error;
      },
    );
    // Handled where it is awaited (ready); not a process-ending rejection meanwhile.
    opening.catch(() => undefined);
    this.opening.set(id, opening);
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    for (const store of this.environments.values()) store.close();
    this.environments.clear();
    this.system.close();
  }
}
