/**
 * Environment migration 15 (0015-card-visibility-all.ts): `card_visibility: linked` is no
 * longer offered (docs/API.md "Users"), so users stored with it, or with none, read `all` —
 * what they saw all along — and such a user read and written back whole is not refused.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/store/database.js';
import { EnvironmentStore } from '../../electron/store/environment-store.js';
import { environmentMigrations } from '../../electron/store/migrations/environment/index.js';
import { userModule } from '../../electron/api/resources/user.js';
import { updateRecord } from '../../electron/api/records.js';
import type { Environment } from '../../electron/store/system.js';
import { tempDir } from '../helpers/api.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const at = '2025-06-01T10:00:00Z';
const ids = {
  linked: '0190f3a0-0000-7000-8000-0000000000c1',
  all: '0190f3a0-0000-7000-8000-0000000000c2',
  none: '0190f3a0-0000-7000-8000-0000000000c3',
};

describe('migration 15: card visibility all', () => {
  it('gives users stored with linked (or with none) the card visibility all; a record written back whole saves', async () => {
    const folder = tempDir('planner-migration-');
    folders.push(folder);
    const file = join(folder, 'env.sqlite');
    const db = openDatabase(file, environmentMigrations.slice(0, 14));
    expect(db.pragma('user_version', { simple: true })).toBe(14);
    const insert =
      db.prepare(`INSERT INTO "user" (id, email, role, card_visibility, language, timezone, notify_own_changes, created_at, updated_at)
      VALUES (?, ?, 'member', ?, 'nl', 'Europe/Amsterdam', 0, ?, ?)`);
    insert.run(ids.linked, 'linked@example.com', 'linked', at, at);
    insert.run(ids.all, 'all@example.com', 'all', at, at);
    insert.run(ids.none, 'none@example.com', null, at, at);
    db.close();

    const store = EnvironmentStore.open(file, 'env');
    try {
      for (const id of Object.values(ids)) expect(store.get(userModule.table, id)?.card_visibility).toBe('all');
      const environment = { id: 'env', name: 'env', created_at: at } as Environment;
      const ctx = requestContext({ kind: 'api-key' as const, environment }, recordsOf(store));
      const whole = { ...store.get(userModule.table, ids.linked)!, lastname: 'Linden' };
      const written = await ctx.records.transaction((tx) => updateRecord(ctx, tx, userModule, ids.linked, whole));
      expect(written).toMatchObject({ card_visibility: 'all', lastname: 'Linden' });
    } finally {
      store.close();
    }
  });
});
