/**
 * Environment migration 22 (0022-cards-by-stage-rank.ts): an index on (stage_id, rank) over live
 * cards, so planning finds a stage's last card by rank without reading every card of the stage.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/store/database.js';
import { environmentMigrations } from '../../electron/store/migrations/environment/index.js';
import { tempDir } from '../helpers/api.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('migration 22: cards by stage and rank', () => {
  it("answers a stage's highest rank among live cards from the index, skipping deleted cards", () => {
    const folder = tempDir('planner-migration-');
    folders.push(folder);
    const file = join(folder, 'env.sqlite');
    const db = openDatabase(file, environmentMigrations.slice(0, 21));
    db.close();
    const after = openDatabase(file, environmentMigrations);
    try {
      const at = '2026-01-01T00:00:00Z';
      const insert = after.prepare(
        `INSERT INTO "card" (id, collection_id, stage_id, rank, created_at, updated_at, deleted_at) VALUES (?, 'c', ?, ?, ?, ?, ?)`,
      );
      insert.run('a', 's1', 'b', at, at, null);
      insert.run('b', 's1', 'd', at, at, null);
      insert.run('c', 's1', 'z', at, at, at);
      insert.run('d', 's2', 'y', at, at, null);
      const query = `SELECT max(t."rank") AS m FROM "card" t WHERE t."deleted_at" IS NULL AND t."stage_id" = ?`;
      const plan = (after.prepare(`EXPLAIN QUERY PLAN ${query}`).all('s1') as { detail: string }[]).map((r) => r.detail).join('\n');
      expect(plan).toMatch(/USING (COVERING )?INDEX card_stage_rank/);
      expect(after.prepare(query).get('s1')).toEqual({ m: 'd' });
    } finally {
      after.close();
    }
  });
});
