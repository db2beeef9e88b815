import { createHash } from 'node:crypto';
import type { Migration } from '../../database.js';

/**
 * Fields of the public API's records that were missing (docs/API.md "Resources and paths": resource, user, attachment,
 * webhook), and the server-owned fields of custom field values (docs/API.md "Custom fields"):
 *  - attachment: thumbnail_bytes, thumbnail_checksum, thumbnail_signature, thumbnail_type;
 *  - user: idp_id, is_sso, mfa_enabled, avatar_checksum, avatar_signature;
 *  - resource: workdays_start_date;
 *  - webhook: third_party (true for the webhooks an OAuth client's user made); `can_send` is
 *    derived when a webhook is read, not stored;
 *  - collection and card `custom_fields`: every stored value gets `id`, `created_at`,
 *    `updated_at` and the keys it lacks at their defaults.
 *
 * Booleans get a DEFAULT so existing rows read false, as new ones are written. Custom field ids
 * are derived from the record and the name rather than drawn at random: every replica runs this
 * migration on its own copy, and all of them must give the same value the same id.
 */
export const referenceFields: Migration = {
  version: 10,
  name: 'reference-fields',
  up(db) {
    db.exec(`
      ALTER TABLE "attachment" ADD COLUMN "thumbnail_bytes" INTEGER;
      ALTER TABLE "attachment" ADD COLUMN "thumbnail_checksum" TEXT;
      ALTER TABLE "attachment" ADD COLUMN "thumbnail_signature" TEXT;
      ALTER TABLE "attachment" ADD COLUMN "thumbnail_type" TEXT;
      ALTER TABLE "user" ADD COLUMN "idp_id" TEXT;
      ALTER TABLE "user" ADD COLUMN "is_sso" INTEGER DEFAULT 0;
      ALTER TABLE "user" ADD COLUMN "mfa_enabled" INTEGER DEFAULT 0;
      ALTER TABLE "user" ADD COLUMN "avatar_checksum" TEXT;
      ALTER TABLE "user" ADD COLUMN "avatar_signature" TEXT;
      ALTER TABLE "resource" ADD COLUMN "workdays_start_date" TEXT;
      ALTER TABLE "webhook" ADD COLUMN "third_party" INTEGER DEFAULT 0;
      UPDATE "webhook" SET "third_party" = 1 WHERE "developer_client_id" IS NOT NULL;
    `);
    for (const [table, scope] of [
      ['collection', 'collection'],
      ['card', 'card'],
    ] as const) {
      const rows = db
        .prepare(
          `SELECT id, custom_fields, created_at, updated_at FROM "${table}" WHERE custom_fields IS NOT NULL AND custom_fields <> '[]'`,
        )
        .all() as {
        id: string;
        custom_fields: string;
        created_at: string;
        updated_at: string;
      }[];
      const write = db.prepare(`UPDATE "${table}" SET custom_fields = ? WHERE id = ?`);
      for (const row of rows) {
        let items: unknown;
        try {
          items = JSON.parse(row.custom_fields);
        } catch {
          continue;
        }
        if (!Array.isArray(items)) continue;
        const filled = items.map((item: unknown) =>
          isObject(item) && typeof item.name === 'string' ? fill(item, table, row, scope) : item,
        );
        write.run(JSON.stringify(filled), row.id);
      }
    }
  },
};

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A uuid (version 8, RFC 9562 §5.8) that depends only on the record and the value's name. */
function derivedId(table: string, recordId: string, name: string): string {
  const hex = createHash('sha256').update(`${table}\u0000${recordId}\u0000${name}`).digest('hex').slice(0, 32).split('');
  hex[12] = '8';
  hex[16] = ((parseInt(hex[16]!, 16) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20, 32)}`;
}

/** The 13 fields of a custom field value (docs/API.md "Custom fields"), in its order; keys it does not name are dropped. */
function fill(item: Record<string, unknown>, table: string, row: { id: string; created_at: string; updated_at: string }, scope: string) {
  const pick = (key: string, fallback: unknown) => (item[key] === undefined ? fallback : item[key]);
  return {
    id: typeof item.id === 'string' ? item.id : derivedId(table, row.id, item.name as string),
    name: item.name,
    type: pick('type', 'text'),
    scope: pick('scope', scope),
    priority: pick('priority', 0),
    value: pick('value', null),
    drawing_id: pick('drawing_id', null),
    components: pick('components', null),
    list: pick('list', null),
    selected: pick('selected', null),
    options: pick('options', null),
    created_at: typeof item.created_at === 'string' ? item.created_at : row.created_at,
    updated_at: typeof item.updated_at === 'string' ? item.updated_at : row.updated_at,
  };
}
