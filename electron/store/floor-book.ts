/**
 * The floor's kiosks and PINs (docs/decisions/kiosk-pins.md), the store's own tables
 * (migration environment/0035-floor-kiosks, PostgreSQL environment migration 20): never a
 * record, never synced, never in a read of the API. One implementation over both engines: the
 * SQL is the same, `?` placeholders, only how a statement runs differs.
 */
import type { EnvironmentStore } from './environment-store.js';

export interface StoredPin {
  user_id: string;
  hash: string;
  /** Wrong tries since the last right one (or since the PIN was set). */
  failures: number;
  /** Until when (ISO 8601) no try is taken, after too many wrong ones. */
  locked_until: string | null;
  updated_at: string;
}

export interface StoredKiosk {
  id: string;
  name: string;
  board_id: string | null;
  stage_id: string | null;
  /** SHA-256 (base64url) of the kiosk key's secret: the key itself is shown once. */
  key_hash: string;
  created_by: string | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** A try's count: the PIN's digest to check, and how many wrong tries it makes if it is wrong. */
export interface CountedTry {
  hash: string;
  failures: number;
}

export interface FloorBook {
  pinOf(userId: string): Promise<StoredPin | undefined>;
  /** Which of these users have a PIN. */
  withPin(userIds: readonly string[]): Promise<Set<string>>;
  /** Sets the digest and starts the count of wrong tries again. */
  setPin(userId: string, hash: string, at: string): Promise<void>;
  clearPin(userId: string): Promise<boolean>;
  /**
   * Counts a try before the PIN is checked (so tries sent at once cannot pass the limit), unless
   * the PIN is locked at `at`: undefined then, or when the user has no PIN.
   */
  countTry(userId: string, at: string): Promise<CountedTry | undefined>;
  lockPin(userId: string, until: string): Promise<void>;
  /** A right PIN: the count starts again. */
  rightPin(userId: string): Promise<void>;
  addKiosk(kiosk: StoredKiosk): Promise<void>;
  kiosk(id: string): Promise<StoredKiosk | undefined>;
  kiosks(): Promise<StoredKiosk[]>;
  /** False when there is no such kiosk or it was revoked already. */
  revokeKiosk(id: string, at: string): Promise<boolean>;
  kioskUsed(id: string, at: string): Promise<void>;
  addUnlock(familyId: string, kioskId: string, userId: string, at: string): Promise<void>;
  /** The sign-ins the kiosk opened since `since`. */
  unlocksOf(kioskId: string, since: string): Promise<string[]>;
}

type Query = (sql: string, params: readonly unknown[]) => Promise<Record<string, unknown>[]>;

function pinOfRow(row: Record<string, unknown> | undefined): StoredPin | undefined {
  if (!row) return undefined;
  return {
    user_id: String(row.user_id),
    hash: String(row.hash),
    failures: Number(row.failures),
    locked_until: typeof row.locked_until === 'string' ? row.locked_until : null,
    updated_at: String(row.updated_at),
  };
}

function text(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function kioskOfRow(row: Record<string, unknown>): StoredKiosk {
  return {
    id: String(row.id),
    name: String(row.name),
    board_id: text(row.board_id),
    stage_id: text(row.stage_id),
    key_hash: String(row.key_hash),
    created_by: text(row.created_by),
    created_at: String(row.created_at),
    last_used_at: text(row.last_used_at),
    revoked_at: text(row.revoked_at),
  };
}

/** The book over a way to run SQL (a SQLite file's, or a PostgreSQL transaction's client). */
export function floorBook(query: Query): FloorBook {
  return {
    pinOf: async (userId) => pinOfRow((await query('SELECT * FROM floor_pin WHERE user_id = ?', [userId]))[0]),
    withPin: async (userIds) => {
      if (userIds.length === 0) return new Set();
      const rows = await query(`SELECT user_id FROM floor_pin WHERE user_id IN (${userIds.map(() => '?').join(', ')})`, userIds);
      return new Set(rows.map((row) => String(row.user_id)));
    },
    setPin: async (userId, hash, at) => {
      await query(
        `INSERT INTO floor_pin (user_id, hash, failures, locked_until, updated_at) VALUES (?, ?, 0, NULL, ?)
         ON CONFLICT (user_id) DO UPDATE SET hash = excluded.hash, failures = 0, locked_until = NULL, updated_at = excluded.updated_at`,
        [userId, hash, at],
      );
    },
    clearPin: async (userId) => (await query('DELETE FROM floor_pin WHERE user_id = ? RETURNING user_id', [userId])).length > 0,
    countTry: async (userId, at) => {
      // One statement: on PostgreSQL a second try waits for the first's row and sees its count.
      const [row] = await query(
        'UPDATE floor_pin SET failures = failures + 1 WHERE user_id = ? AND (locked_until IS NULL OR locked_until <= ?) RETURNING hash, failures',
        [userId, at],
      );
      return row ? { hash: String(row.hash), failures: Number(row.failures) } : undefined;
    },
    lockPin: async (userId, until) => {
      await query('UPDATE floor_pin SET locked_until = ? WHERE user_id = ?', [until, userId]);
    },
    rightPin: async (userId) => {
      await query('UPDATE floor_pin SET failures = 0, locked_until = NULL WHERE user_id = ?', [userId]);
    },
    addKiosk: async (k) => {
      await query(
        `INSERT INTO floor_kiosk (id, name, board_id, stage_id, key_hash, created_by, created_at, last_used_at, revoked_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        [k.id, k.name, k.board_id, k.stage_id, k.key_hash, k.created_by, k.created_at, k.last_used_at, k.revoked_at],
      );
    },
    kiosk: async (id) => {
      const [row] = await query('SELECT * FROM floor_kiosk WHERE id = ?', [id]);
      return row ? kioskOfRow(row) : undefined;
    },
    kiosks: async () => (await query('SELECT * FROM floor_kiosk ORDER BY created_at DESC, id', [])).map(kioskOfRow),
    revokeKiosk: async (id, at) =>
      (await query('UPDATE floor_kiosk SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL RETURNING id', [at, id])).length > 0,
    kioskUsed: async (id, at) => {
      await query('UPDATE floor_kiosk SET last_used_at = ? WHERE id = ?', [at, id]);
    },
    addUnlock: async (familyId, kioskId, userId, at) => {
      await query('INSERT INTO floor_kiosk_unlock (family_id, kiosk_id, user_id, at) VALUES (?, ?, ?, ?)', [familyId, kioskId, userId, at]);
    },
    unlocksOf: async (kioskId, since) =>
      (await query('SELECT family_id FROM floor_kiosk_unlock WHERE kiosk_id = ? AND at >= ?', [kioskId, since])).map((row) =>
        String(row.family_id),
      ),
  };
}

/** The book on a data folder's environment file (in the transaction its caller holds). */
export function sqliteFloorBook(store: EnvironmentStore): FloorBook {
  return floorBook(async (sql, params) => {
    const statement = store.db.prepare(sql);
    // A statement that answers rows (SELECT, RETURNING) is read; any other is run.
    if (statement.reader) return statement.all(...params) as Record<string, unknown>[];
    statement.run(...params);
    return [];
  });
}
