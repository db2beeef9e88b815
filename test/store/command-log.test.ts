/**
 * Environment migration 19 (0019-commands.ts) and the store's command context
 * (EnvironmentStore.command): change-log rows carry their command and the previous values of
 * what they wrote, so undo can invert a command (docs/API.md "Commands and undo").
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from '../../electron/store/database.js';
import { EnvironmentStore } from '../../electron/store/environment-store.js';
import { changesOfCommand, findCommand } from '../../electron/store/command-book.js';
import { environmentMigrations } from '../../electron/store/migrations/environment/index.js';
import { tables } from '../../electron/api/tables.js';
import { tempDir } from '../helpers/api.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const at = '2025-06-01T10:00:00Z';
const projectId = '0190f3a0-0000-7000-8000-0000000000e1';
const commandId = '0190f3a0-0000-7000-8000-0000000000e2';

function folder(): string {
  const made = tempDir('planner-commands-');
  folders.push(made);
  return made;
}

describe('migration 19: commands', () => {
  it('opens a data folder made before it, keeps its change log (no command, no previous values) and writes on', () => {
    const file = join(folder(), 'env.sqlite');
    const db = openDatabase(file, environmentMigrations.slice(0, 18));
    expect(db.pragma('user_version', { simple: true })).toBe(18);
    db.prepare(`INSERT INTO "project" (id, name, created_at, updated_at) VALUES (?, 'Hall 3', ?, ?)`).run(projectId, at, at);
    db.prepare(`INSERT INTO change_log (resource, record_id, op, fields, at) VALUES ('project', ?, 'create', '{"name":"Hall 3"}', ?)`).run(
      projectId,
      at,
    );
    db.close();

    const store = EnvironmentStore.open(file, 'env');
    try {
      expect(store.db.pragma('user_version', { simple: true })).toBe(environmentMigrations.length);
      const old = store.db.prepare('SELECT command_id, before FROM change_log WHERE record_id = ?').get(projectId);
      expect(old).toEqual({ command_id: null, before: null });
      expect(store.get(tables.project, projectId)).toMatchObject({ name: 'Hall 3' });
      store.update(tables.project, projectId, { name: 'Hall 4' });
      const rows = store.db.prepare('SELECT op, command_id, before FROM change_log WHERE record_id = ? ORDER BY seq').all(projectId) as {
        before: string | null;
      }[];
      expect(rows).toHaveLength(2);
      // A write outside any command keeps its previous values all the same.
      expect(rows[1]).toMatchObject({ op: 'update', command_id: null });
      expect(JSON.parse(rows[1]!.before!)).toMatchObject({ name: 'Hall 3' });
    } finally {
      store.close();
    }
  });
});

describe('the store: a command', () => {
  it('stamps every write inside it with its id and previous values, in one transaction', () => {
    const store = EnvironmentStore.open(join(folder(), 'env.sqlite'), 'env');
    try {
      const made = store.command({ id: commandId, description: 'Rename hall', actor: 'key-1' }, () => {
        const project = store.insert(tables.project, { name: 'Hall 1' });
        store.update(tables.project, project.id, { name: 'Hall 2' });
        store.softDelete(tables.project, project.id);
        return project;
      });
      expect(findCommand(store, commandId)).toMatchObject({ id: commandId, description: 'Rename hall', undoes: null, actor: 'key-1' });
      const changes = changesOfCommand(store, commandId);
      expect(changes.map((c) => [c.op, c.record_id])).toEqual([
        ['create', made.id],
        ['update', made.id],
        ['delete', made.id],
      ]);
      expect(changes[0]!.before).toBeNull();
      expect(changes[1]!.before).toMatchObject({ name: 'Hall 1' });
      expect(changes[2]!.before).toEqual({ deleted_at: null });
    } finally {
      store.close();
    }
  });

  it('writes nothing, not even the command, when its work throws', () => {
    const store = EnvironmentStore.open(join(folder(), 'env.sqlite'), 'env');
    try {
      expect(() =>
        store.command({ id: commandId, description: 'Half a change' }, () => {
          store.insert(tables.project, { name: 'Hall 1' });
          throw new Error('refused');
        }),
      ).toThrow('refused');
      expect(findCommand(store, commandId)).toBeUndefined();
      expect(store.list(tables.project, { limit: 10, offset: 0 }).count).toBe(0);
      expect(changesOfCommand(store, commandId)).toEqual([]);
    } finally {
      store.close();
    }
  });
});
