/**
 * The remote's field clocks and the data it keeps for other app versions, in an environment's
 * schema on PostgreSQL (docs/architecture.md "Team server on PostgreSQL", "Outbox and clocks",
 * "Wire versions and unknown data"), as SQLite's `sync_clock` (environment/0006-sync) and
 * `sync_unknown` (environment/0016-sync-unknown). Frozen history like every migration.
 *
 *  - `field_clock`: per record, the hybrid clock of each field's last write, as one `jsonb`
 *    object (field → clock), so a merge is one statement on one row;
 *  - `kept_field`: a field another version syncs that this one does not declare (or every field
 *    of a record of a resource it does not have), with its value as JSON text (the text SQLite
 *    keeps, object keys in the order the other version sent them) and the clock of its last
 *    write;
 *  - `newer_clocks(old, new)`: `old` with each field of `new` whose clock is later, the
 *    per-field last-writer-wins merge `postgres/field-clocks.ts` runs inside its upsert.
 *
 * Clocks order as text byte by byte (shared/hlc.ts; JavaScript's `>` on the same text), not
 * by the database's collation: under a language collation `-0000-B` and `-0000-a` would swap,
 * and nodes would disagree with replicas about which write won. So every text column here is
 * `COLLATE "C"` (keys and ids then page in the SQLite store's order too), and clocks read out of
 * `jsonb` are compared with `COLLATE "C"`.
 */
import type { PostgresMigration } from './postgres-database.js';

export const syncClockTablesMigration: PostgresMigration = {
  version: 6,
  name: 'field-clocks-and-kept-data',
  async up(client) {
    await client.query(`
      CREATE TABLE field_clock (
        resource text COLLATE "C" NOT NULL,
        record_id text COLLATE "C" NOT NULL,
        clocks jsonb NOT NULL,
        PRIMARY KEY (resource, record_id)
      );
      CREATE TABLE kept_field (
        resource text COLLATE "C" NOT NULL,
        record_id text COLLATE "C" NOT NULL,
        field text COLLATE "C" NOT NULL,
        value text NOT NULL,
        clock text COLLATE "C" NOT NULL,
        PRIMARY KEY (resource, record_id, field)
      );
      -- A clock no later than the zero clock is never taken (SyncBook.mergeClocks' zeroHlc).
      CREATE FUNCTION newer_clocks(old jsonb, new jsonb) RETURNS jsonb
        LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
          SELECT old || coalesce(jsonb_object_agg(n.key, n.value), '{}'::jsonb)
            FROM jsonb_each(new) AS n
           WHERE jsonb_typeof(n.value) = 'string'
             AND (n.value #>> '{}') COLLATE "C" > coalesce(old ->> n.key, '0000000000000-0000-') COLLATE "C"
        $$;
    `);
  },
};
