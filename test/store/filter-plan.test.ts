/**
 * A list filter that compares a column lets SQLite search the column's index instead of
 * walking all of it (electron/store/filter-sql.ts): a time report of one week reads that
 * week's entries, whatever else the table holds. A negated comparison still counts a missing
 * value as not matching, so it keeps its `IS TRUE`. Real SQLite files in a real data folder.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseFilter } from '../../shared/filter.js';
import { tables } from '../../electron/store/tables.js';
import { DataDir } from '../../electron/store/data-dir.js';
import type { EnvironmentStore } from '../../electron/store/environment-store.js';
import { listSelection } from '../../electron/store/record-sql.js';
import { sqliteDialect } from '../../electron/store/filter-sql.js';
import { tempDir } from '../helpers/api.js';

let folder: string;
let dataDir: DataDir;
let store: EnvironmentStore;

beforeAll(() => {
  folder = tempDir('planner-filter-plan-');
  dataDir = DataDir.open(join(folder, 'data'));
  store = dataDir.environment(dataDir.system.ensureEnvironment('alpha').id);
});

afterAll(() => {
  dataDir.close();
  rmSync(folder, { recursive: true, force: true });
});

/** SQLite's plan for listing time entries with `filter`, by start. */
function planOf(filter: string): string {
  const { from, order, params } = listSelection(
    tables.time_tracking,
    { filter: parseFilter(filter), sort: [{ field: 'start', direction: 'asc' }], limit: 10, offset: 0 },
    sqliteDialect,
  );
  const rows = store.db.prepare(`EXPLAIN QUERY PLAN SELECT t."id" ${from} ORDER BY ${order}`).all(...params) as { detail: string }[];
  return rows.map((r) => r.detail).join('\n');
}

describe('filters and indexes', () => {
  it('searches the start index for a period, as a time report asks for it', () => {
    const plan = planOf('start:lt:2026-11-09T00:00:00Z,and,(end:gt:2026-11-02T00:00:00Z,or,end:eq:null)');
    expect(plan).toMatch(/SEARCH t USING INDEX time_tracking_start_id \(start<\?\)/);
    expect(plan).not.toMatch(/TEMP B-TREE/);
  });

  it('keeps a negated comparison true for a missing value', () => {
    const id = store.insert(tables.time_tracking, {
      start: '2026-11-02T08:00:00Z',
      running: true,
      locked: false,
      external_failed: false,
    }).id;
    const { from, order, params } = listSelection(
      tables.time_tracking,
      { filter: parseFilter('end:not:lt:2026-11-03T00:00:00Z'), limit: 10, offset: 0 },
      sqliteDialect,
    );
    const found = store.db
      .prepare(`SELECT t."id" ${from} ORDER BY ${order}`)
      .pluck()
      .all(...params);
    expect(found).toEqual([id]);
  });
});
