import type { Migration } from '../../database.js';

/**
 * Kiosk mode of the floor view (docs/API.md "The floor", docs/decisions/kiosk-pins.md), tables
 * of the store's own that never sync and never reach a record:
 *  - floor_pin: a user's kiosk PIN as a salted scrypt digest, with the wrong tries since the last
 *    right one and the time the PIN is locked until;
 *  - floor_kiosk: the kiosks of a board or a stage, their key as a SHA-256 digest, revocable;
 *  - floor_kiosk_unlock: the sign-ins (token families) a kiosk opened for an operator, which
 *    revoking the kiosk ends at once.
 */
export const floorKiosks: Migration = {
  version: 35,
  name: 'floor-kiosks',
  up(db) {
    db.exec(`
      CREATE TABLE floor_pin (
        user_id TEXT PRIMARY KEY,
        hash TEXT NOT NULL,
        failures INTEGER NOT NULL DEFAULT 0,
        locked_until TEXT,
        updated_at TEXT NOT NULL
      );
      CREATE TABLE floor_kiosk (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        board_id TEXT,
        stage_id TEXT,
        key_hash TEXT NOT NULL,
        created_by TEXT,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE TABLE floor_kiosk_unlock (
        family_id TEXT PRIMARY KEY,
        kiosk_id TEXT NOT NULL,
        user_id TEXT NOT NULL,
        at TEXT NOT NULL
      );
      CREATE INDEX floor_kiosk_unlock_kiosk ON floor_kiosk_unlock (kiosk_id, at);
    `);
  },
};
