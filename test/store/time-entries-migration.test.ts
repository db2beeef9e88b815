/**
 * Environment migration 18 (0018-time-entries-without-card.ts): the time entry table is rebuilt
 * so that `card_id` may be null (an entry on an activity with no card, docs/API.md "Time
 * tracking"), keeping every row and index; a (user_id, start) index is added; users get
 * `forgotten_timer_hours` 10. Migration 21 (0021-time-entries-by-start.ts): an index on
 * (start, id) replaces the one on start, so a time report reads its entries in order unsorted.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/store/database.js';
import { EnvironmentStore } from '../../electron/store/environment-store.js';
import { environmentMigrations } from '../../electron/store/migrations/environment/index.js';
import { timeTrackingModule } from '../../electron/api/resources/time-tracking.js';
import { userModule } from '../../electron/api/resources/user.js';
import { tempDir } from '../helpers/api.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const at = '2025-06-01T10:00:00Z';
const ids = {
  user: '0190f3a0-0000-7000-8000-0000000000d1',
  entry: '0190f3a0-0000-7000-8000-0000000000d2',
  gone: '0190f3a0-0000-7000-8000-0000000000d3',
  card: '0190f3a0-0000-7000-8000-0000000000d4',
};

describe('migration 18: time entries without a card', () => {
  it('keeps every entry (deleted ones too) and index, lets card_id be null, and gives users a forgotten timer limit of 10 hours', () => {
    const folder = tempDir('planner-migration-');
    folders.push(folder);
    const file = join(folder, 'env.sqlite');
    const db = openDatabase(file, environmentMigrations.slice(0, 17));
    expect(db.pragma('user_version', { simple: true })).toBe(17);
    db.prepare(
      `INSERT INTO "user" (id, email, role, card_visibility, language, timezone, notify_own_changes, created_at, updated_at) VALUES (?, 'w@example.com', 'member', 'all', 'nl', 'Europe/Amsterdam', 0, ?, ?)`,
    ).run(ids.user, at, at);
    const insert =
      db.prepare(`INSERT INTO "time_tracking" (id, card_id, user_id, start, "end", duration, status, locked, running, external_failed, external_ref, created_at, updated_at, deleted_at)
      VALUES (?, ?, ?, '2025-06-02T08:00:00Z', '2025-06-02T09:00:00Z', 60, 'approved', 1, 0, 0, ?, ?, ?, ?)`);
    insert.run(ids.entry, ids.card, ids.user, 'payroll-1', at, at, null);
    insert.run(ids.gone, ids.card, ids.user, null, at, at, at);
    expect(() =>
      db.prepare(`INSERT INTO "time_tracking" (id, card_id, start, created_at, updated_at) VALUES ('x', NULL, ?, ?, ?)`).run(at, at, at),
    ).toThrow(/NOT NULL/);
    const indexesBefore = (
      db
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'time_tracking' AND name NOT LIKE 'sqlite_%'`)
        .all() as { name: string }[]
    )
      .map((r) => r.name)
      .sort();
    db.close();

    const store = EnvironmentStore.open(file, 'env');
    try {
      expect(store.get(timeTrackingModule.table, ids.entry)).toMatchObject({
        card_id: ids.card,
        user_id: ids.user,
        duration: 60,
        status: 'approved',
        locked: true,
        external_ref: 'payroll-1',
      });
      expect(store.get(timeTrackingModule.table, ids.gone)).toBeUndefined();
      expect(store.getForSync(timeTrackingModule.table, ids.gone)).toMatchObject({ deleted_at: at });
      const onNoCard = store.insert(timeTrackingModule.table, {
        card_id: null,
        user_id: ids.user,
        start: '2025-06-03T08:00:00Z',
        end: '2025-06-03T09:00:00Z',
        duration: 60,
        status: 'draft',
        locked: false,
        running: false,
        external_failed: false,
      });
      expect(store.get(timeTrackingModule.table, onNoCard.id)?.card_id).toBeNull();
      expect(store.get(userModule.table, ids.user)?.forgotten_timer_hours).toBe(10);
    } finally {
      store.close();
    }
    const after = openDatabase(file, environmentMigrations);
    const indexesAfter = (
      after
        .prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'time_tracking' AND name NOT LIKE 'sqlite_%'`)
        .all() as { name: string }[]
    )
      .map((r) => r.name)
      .sort();
    after.close();
    // Migration 21 later puts an index on (start, id) in the place of the one on start.
    expect(indexesAfter).toEqual(
      [...indexesBefore.filter((name) => name !== 'time_tracking_start'), 'time_tracking_user_start', 'time_tracking_start_id'].sort(),
    );
  });
});

describe('migration 21: time entries by start and id', () => {
  it('replaces the index on start with one on (start, id) that lists entries starting together in id order without a sort', () => {
    const folder = tempDir('planner-migration-');
    folders.push(folder);
    const file = join(folder, 'env.sqlite');
    const db = openDatabase(file, environmentMigrations.slice(0, 20));
    const insert = db.prepare(
      `INSERT INTO "time_tracking" (id, user_id, start, "end", duration, status, locked, running, external_failed, created_at, updated_at)
       VALUES (?, ?, '2025-06-02T08:00:00Z', '2025-06-02T09:00:00Z', 60, 'draft', 0, 0, 0, ?, ?)`,
    );
    // Inserted out of id order, all starting at the same time.
    for (const id of [ids.gone, ids.entry, ids.card]) insert.run(id, ids.user, at, at);
    db.close();

    const after = openDatabase(file, environmentMigrations);
    try {
      const indexes = (
        after.prepare(`SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'time_tracking'`).all() as { name: string }[]
      ).map((r) => r.name);
      expect(indexes).toContain('time_tracking_start_id');
      expect(indexes).not.toContain('time_tracking_start');
      const query = `SELECT id FROM "time_tracking" t WHERE t."deleted_at" IS NULL AND (t."start" < ?) ORDER BY t."start" ASC, t."id" ASC`;
      const plan = (after.prepare(`EXPLAIN QUERY PLAN ${query}`).all('2026-01-01') as { detail: string }[]).map((r) => r.detail);
      expect(plan.join('\n')).toMatch(/USING INDEX time_tracking_start_id/);
      expect(plan.join('\n')).not.toMatch(/TEMP B-TREE/);
      expect(after.prepare(query).pluck().all('2026-01-01')).toEqual([ids.entry, ids.gone, ids.card]);
    } finally {
      after.close();
    }
  });
});
