/**
 * Every store keeps its prepared statements in the one bounded cache (statement-cache.ts,
 * issue 19): however many distinct SQL texts go through a store, it holds at most its
 * capacity. Real SQLite files in a real data folder.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DataDir } from '../../electron/store/data-dir.js';
import type { EnvironmentStore } from '../../electron/store/environment-store.js';
import { OAuthStore } from '../../electron/store/oauth-store.js';
import { overruledEditsOf } from '../../electron/store/overruled-edits.js';
import { syncHistoryOf } from '../../electron/store/sync-history.js';
import { unknownDataOf } from '../../electron/store/unknown-data.js';
import { WebhookQueue } from '../../electron/store/webhook-queue.js';
import type { StatementCache } from '../../electron/store/statement-cache.js';
import { tempDir } from '../helpers/api.js';

let folder: string;
let dataDir: DataDir;
let store: EnvironmentStore;

beforeAll(() => {
  folder = tempDir('planner-statements-');
  dataDir = DataDir.open(join(folder, 'data'));
  store = dataDir.environment(dataDir.system.ensureEnvironment('alpha').id);
});

afterAll(() => {
  dataDir.close();
  rmSync(folder, { recursive: true, force: true });
});

/** Runs `texts` distinct statements, each twice (a text is kept from its second use at the latest). */
function runDistinct(statements: StatementCache, texts: number): void {
  for (let i = 0; i < texts; i++) {
    for (let use = 0; use < 2; use++) expect(statements.get(`SELECT ${i} AS n`).get()).toEqual({ n: i });
  }
}

describe('the prepared-statement cache of every store', () => {
  const owners: [string, () => StatementCache][] = [
    ['the overruled list', () => overruledEditsOf(store).statements],
    ['the sync history', () => syncHistoryOf(store).statements],
    ['the unknown data', () => unknownDataOf(store).statements],
    ['the webhook queue', () => WebhookQueue.of(store).statements],
    ['the system database', () => dataDir.system.statements],
    ['the OAuth store', () => OAuthStore.of(dataDir.system).statements],
  ];

  for (const [name, cacheOf] of owners) {
    it(`keeps at most its capacity for ${name}, however many texts run through it`, () => {
      const statements = cacheOf();
      expect(statements.capacity).toBeGreaterThan(0);
      expect(statements.capacity).toBeLessThanOrEqual(500);
      runDistinct(statements, statements.capacity * 3);
      expect(statements.size).toBeGreaterThan(0);
      expect(statements.size).toBeLessThanOrEqual(statements.capacity);
    });
  }
});
