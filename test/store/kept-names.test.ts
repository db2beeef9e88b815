/**
 * A resource another version sends may not be named as one of the store's own tables
 * (docs/API.md "Versions and unknown data"; security audit N3): every table of a fresh data
 * folder's databases is a declared resource or in the store's list of its own
 * (`internalTableNames`), so a table added later without joining that list fails here. The
 * same for PostgreSQL's schemas: test/store/postgres/kept-data.test.ts.
 */
import { rmSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { declaredResources } from '../../electron/api/sync/kept-data.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { isInternalName } from '../../electron/store/unknown-data.js';
import { tempDir } from '../helpers/api.js';

const folder = tempDir('planner-kept-names-');
afterAll(() => rmSync(folder, { recursive: true, force: true }));

describe('the names of kept resources', () => {
  it('never name a table of the system or an environment database', () => {
    const dataDir = DataDir.open(folder);
    try {
      const environment = dataDir.system.ensureEnvironment('names');
      const tablesOf = (db: typeof dataDir.system.db) =>
        (db.prepare("SELECT name FROM sqlite_schema WHERE type IN ('table', 'view')").all() as { name: string }[]).map((t) => t.name);
      const names = [...tablesOf(dataDir.system.db), ...tablesOf(dataDir.environment(environment.id).db)];
      expect(names).toEqual(expect.arrayContaining(['api_key', 'signing_key', 'sync_outbox', 'sync_unknown', 'change_log']));
      expect(names.filter((name) => !declaredResources.has(name) && !isInternalName(name))).toEqual([]);
    } finally {
      dataDir.close();
    }
  });
});
