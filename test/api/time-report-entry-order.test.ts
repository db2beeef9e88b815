/**
 * A time report reads its entries ordered by start only and puts entries that start together in
 * id order itself (report.ts `compareIds`), as SQLite's `ORDER BY start, id` would: the lines of
 * a report keep their order whatever order the rows come in.
 */
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { compareIds } from '../../electron/api/time-tracking/report.js';

describe('time report entry order', () => {
  it('orders ids as SQLite does (UTF-8 bytes), also where UTF-16 order differs', () => {
    const ids = [
      '01a217ec-e559-7000-9157-6d01a1a3a337',
      '01a217ec-e559-7000-9157-6d01a1a3a33',
      '01A217EC-E559-7000-9157-6D01A1A3A337',
      'zürich',
      'zurich',
      '\uFF21 full-width A',
      '😀 emoji',
      '\uE000 private use',
      'a😀',
      'a\uFFFD',
      '',
      'ab',
      'a',
    ];
    const db = new Database(':memory:');
    try {
      db.exec('CREATE TABLE t (id TEXT)');
      const insert = db.prepare('INSERT INTO t (id) VALUES (?)');
      for (const id of ids) insert.run(id);
      const bySqlite = db.prepare('SELECT id FROM t ORDER BY id').pluck().all() as string[];
      expect([...ids].sort(compareIds)).toEqual(bySqlite);
    } finally {
      db.close();
    }
  });
});
