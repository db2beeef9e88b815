/**
 * How a kiosk PIN is kept (docs/decisions/kiosk-pins.md): a salted scrypt digest in the
 * environment's own `floor_pin` table, never the PIN. Read straight from the data folder's file,
 * so on SQLite; the routes around it are tested on both engines in floor-kiosk.test.ts.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPassword } from '../../electron/api/oauth/passwords.js';
import { startSqliteApi, type TestApi } from '../helpers/api.js';
import { fixTheClock } from '../helpers/test-clock.js';

fixTheClock();

let api: TestApi;

beforeAll(async () => {
  api = await startSqliteApi();
});
afterAll(async () => api.close());

/** A user invited through the API (POST /v1/user answers the invitation): their id, read back by email. */
async function user(email: string): Promise<string> {
  const made = await api.http('POST', '/v1/user', { email, role: 'member' });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  const found = await api.http('GET', `/v1/user?filter=${encodeURIComponent(`email:eq:${email}`)}`);
  return found.body.data[0].id;
}

describe('a kiosk PIN as stored', () => {
  it('is a salted scrypt digest: never the PIN, different for two users with the same PIN', async () => {
    const [max, mia] = [await user('max@example.com'), await user('mia@example.com')];
    for (const id of [max, mia]) expect((await api.http('PUT', `/v1/floor/pin/${id}`, { pin: '258025' })).status).toBe(200);
    const db = api.dataDir.environment(api.environment.id).db;
    const rows = db.prepare('SELECT user_id, hash, failures, locked_until FROM floor_pin ORDER BY user_id').all() as {
      user_id: string;
      hash: string;
      failures: number;
      locked_until: string | null;
    }[]; // the columns of migration 35, as selected
    expect(rows.map((row) => row.user_id).sort()).toEqual([max, mia].sort());
    for (const row of rows) {
      expect(row.hash).toMatch(/^scrypt\$16384\$8\$5\$[\w-]{22}\$[\w-]{43}$/);
      expect(row.hash).not.toContain('258025');
      expect(await verifyPassword('258025', row.hash)).toBe(true);
      expect(await verifyPassword('258026', row.hash)).toBe(false);
      expect([row.failures, row.locked_until]).toEqual([0, null]);
    }
    expect(rows[0]!.hash).not.toBe(rows[1]!.hash);
  });
});
