/**
 * Environment migration 20 on PostgreSQL: kiosk mode of the floor view (SQLite environment
 * migration 35, migrations/environment/0035-floor-kiosks.ts), the same tables and columns
 * (docs/decisions/kiosk-pins.md). Frozen.
 */
import type { PostgresMigration } from './postgres-database.js';

export const floorKiosksMigration: PostgresMigration = {
  version: 20,
  name: 'floor-kiosks',
  async up(client) {
    await client.query(`
      CREATE TABLE floor_pin (
        user_id text PRIMARY KEY,
        hash text NOT NULL,
        failures integer NOT NULL DEFAULT 0,
        locked_until text,
        updated_at text NOT NULL
      );
      CREATE TABLE floor_kiosk (
        id text PRIMARY KEY,
        name text NOT NULL,
        board_id text,
        stage_id text,
        key_hash text NOT NULL,
        created_by text,
        created_at text NOT NULL,
        last_used_at text,
        revoked_at text
      );
      CREATE TABLE floor_kiosk_unlock (
        family_id text PRIMARY KEY,
        kiosk_id text NOT NULL,
        user_id text NOT NULL,
        at text NOT NULL
      );
      CREATE INDEX floor_kiosk_unlock_kiosk ON floor_kiosk_unlock (kiosk_id, at);
    `);
  },
};
