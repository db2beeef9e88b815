/**
 * Environment migration 10 (0010-reference-fields.ts) on a database of version 9 holding data:
 * the new columns are added with ALTER TABLE (existing rows read false for the booleans, a
 * webhook an OAuth client's user made is third_party), stored custom field values get the
 * fields of docs/API.md "Custom fields" with ids that every replica derives alike — and, for every
 * declared resource, the migrated tables have a column for each stored field.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteDatabase } from '../../electron/store/database.js';
import { EnvironmentStore } from '../../electron/store/environment-store.js';
import { tableFor } from '../../electron/store/table-def.js';
import { environmentMigrations } from '../../electron/store/migrations/environment/index.js';
import { kpiSnapshotSpec, resourceSpecs, webhookDeliverySpec, webhookSpec } from '../../shared/resources/index.js';
import { tempDir } from '../helpers/api.js';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const at = '2025-06-01T10:00:00Z';
const later = '2025-06-02T11:00:00Z';
const collectionId = '0190f3a0-0000-7000-8000-000000000001';
const legacyValues = [
  { name: 'Weight', type: 'number', value: 12, priority: 1, stray: 'x' },
  { name: 'Note', value: 'fragile' },
  {
    id: '0190f3a0-0000-7000-8000-0000000000aa',
    name: 'Kept',
    type: 'text',
    value: 'as is',
    created_at: '2025-01-01T00:00:00Z',
    updated_at: '2025-01-02T00:00:00Z',
  },
  'not an object',
];

/** A version-9 database with one row of each table the migration changes. */
function version9(): { file: string; db: SqliteDatabase } {
  const folder = tempDir('planner-migration-');
  folders.push(folder);
  const file = join(folder, 'env.sqlite');
  const db = openDatabase(file, environmentMigrations.slice(0, 9));
  expect(db.pragma('user_version', { simple: true })).toBe(9);
  const insert = (table: string, row: Record<string, unknown>) =>
    db
      .prepare(
        `INSERT INTO "${table}" (${Object.keys(row)
          .map((k) => `"${k}"`)
          .join(', ')}) VALUES (${Object.keys(row)
          .map(() => '?')
          .join(', ')})`,
      )
      .run(...Object.values(row));
  insert('collection', {
    id: collectionId,
    name: 'Old order',
    custom_fields: JSON.stringify(legacyValues),
    created_at: at,
    updated_at: later,
  });
  insert('collection', { id: '0190f3a0-0000-7000-8000-000000000002', custom_fields: '[]', created_at: at, updated_at: at });
  insert('card', {
    id: '0190f3a0-0000-7000-8000-000000000003',
    collection_id: collectionId,
    stage_id: '0190f3a0-0000-7000-8000-000000000004',
    custom_fields: JSON.stringify([{ name: 'Weight', value: 'x' }]),
    created_at: at,
    updated_at: at,
  });
  insert('user', { id: '0190f3a0-0000-7000-8000-000000000005', email: 'old@example.com', role: 'member', created_at: at, updated_at: at });
  insert('resource', { id: '0190f3a0-0000-7000-8000-000000000006', name: 'Old press', created_at: at, updated_at: at });
  insert('attachment', {
    id: '0190f3a0-0000-7000-8000-000000000007',
    filename: 'a.pdf',
    file: 'https://example.com/a.pdf',
    created_at: at,
    updated_at: at,
  });
  const hook = { url: 'https://hooks.example.com/', active: 1, event_types: '["card.created"]', created_at: at, updated_at: at };
  insert('webhook', { ...hook, id: '0190f3a0-0000-7000-8000-000000000008', api_key_id: 'key-1' });
  insert('webhook', { ...hook, id: '0190f3a0-0000-7000-8000-000000000009', developer_client_id: 'client-1' });
  return { file, db };
}

function migrated(): EnvironmentStore {
  const { file, db } = version9();
  db.close();
  return EnvironmentStore.open(file, 'env');
}

describe('migration 10: reference fields', () => {
  it('adds the new columns; existing rows read null, or false for the booleans', () => {
    const store = migrated();
    const get = (spec: Parameters<typeof tableFor>[0], id: string) => store.get(tableFor(spec), id)!;
    expect(get(resourceSpecs.user, '0190f3a0-0000-7000-8000-000000000005')).toMatchObject({
      idp_id: null,
      is_sso: false,
      mfa_enabled: false,
      avatar_checksum: null,
      avatar_signature: null,
    });
    expect(get(resourceSpecs.resource, '0190f3a0-0000-7000-8000-000000000006')).toMatchObject({ workdays_start_date: null });
    expect(get(resourceSpecs.attachment, '0190f3a0-0000-7000-8000-000000000007')).toMatchObject({
      thumbnail_bytes: null,
      thumbnail_checksum: null,
      thumbnail_signature: null,
      thumbnail_type: null,
    });
    expect(get(webhookSpec, '0190f3a0-0000-7000-8000-000000000008').third_party).toBe(false);
    expect(get(webhookSpec, '0190f3a0-0000-7000-8000-000000000009').third_party).toBe(true);
    store.close();
  });

  it('gives stored custom field values their 13 fields, keeping what they had', () => {
    const store = migrated();
    const values = store.get(tableFor(resourceSpecs.collection), collectionId)!.custom_fields as any[];
    expect(values).toHaveLength(4);
    expect(values[0]).toEqual({
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      name: 'Weight',
      type: 'number',
      scope: 'collection',
      priority: 1,
      value: 12,
      drawing_id: null,
      components: null,
      list: null,
      selected: null,
      options: null,
      created_at: at,
      updated_at: later,
    });
    expect(values[1]).toMatchObject({ name: 'Note', type: 'text', scope: 'collection', priority: 0, value: 'fragile' });
    expect(values[1].id).not.toBe(values[0].id);
    expect(values[2]).toMatchObject(legacyValues[2] as object);
    expect(values[3]).toBe('not an object');
    expect(store.get(tableFor(resourceSpecs.collection), '0190f3a0-0000-7000-8000-000000000002')!.custom_fields).toEqual([]);
    const card = store.get(tableFor(resourceSpecs.card), '0190f3a0-0000-7000-8000-000000000003')!;
    expect((card.custom_fields as any[])[0]).toMatchObject({ name: 'Weight', scope: 'card', value: 'x' });
    store.close();
  });

  it('derives the same ids on every copy, so replicas that migrate apart still agree', () => {
    const ids = () => {
      const store = migrated();
      const collection = store.get(tableFor(resourceSpecs.collection), collectionId)!.custom_fields as any[];
      const card = store.get(tableFor(resourceSpecs.card), '0190f3a0-0000-7000-8000-000000000003')!.custom_fields as any[];
      store.close();
      return [...collection.slice(0, 3), ...card].map((v) => v.id);
    };
    const first = ids();
    expect(new Set(first).size).toBe(4);
    expect(ids()).toEqual(first);
  });
});

describe('declarations and tables agree', () => {
  it('every stored field of every declared resource has a column after all migrations', () => {
    const folder = tempDir('planner-schema-');
    folders.push(folder);
    const db = openDatabase(join(folder, 'env.sqlite'), environmentMigrations);
    for (const spec of [...Object.values(resourceSpecs), webhookSpec, webhookDeliverySpec, kpiSnapshotSpec]) {
      const table = tableFor(spec);
      const columns = (db.prepare(`PRAGMA table_info("${table.table}")`).all() as { name: string }[]).map((c) => c.name);
      expect(columns, table.table).toEqual(expect.arrayContaining([...Object.keys(table.fields), 'deleted_at']));
    }
    db.close();
  });
});
