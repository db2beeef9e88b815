/**
 * The pull side of a remote on PostgreSQL (electron/store/postgres/sync-feed.ts; docs/API.md
 * "Pull cursors"): where the feed ends, pages of changes after a text cursor, each record once
 * at its latest change, the cursors a replica may send back, and snapshot rows that say what
 * the records say. On a real cluster; the writes go through the record store with field clocks.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HybridClock } from '../../../shared/hlc.js';
import { uuidv7 } from '../../../shared/ids.js';
import { tables } from '../../../electron/store/tables.js';
import { PostgresRecordStore } from '../../../electron/store/postgres/record-store.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

let team: TeamDatabase<1>;
let store: PostgresRecordStore;
const env = uuidv7();

beforeAll(async () => {
  team = await startTeamDatabase('feed', { nodes: 1, environments: [env] });
  store = new PostgresRecordStore(team.nodes[0], env, { clock: new HybridClock('feedtest0001'), synced: new Set(['project', 'item']) });
});

afterAll(() => team?.stop());

/** `count` projects written in one transaction; their ids in order. */
async function projects(count: number, prefix: string): Promise<string[]> {
  return store.transaction(async (tx) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) ids.push((await tx.insert(tables.project, { name: `${prefix} ${i}` })).id);
    return ids;
  });
}

const parts = (cursor: unknown) => String(cursor).split('-').map(BigInt);

describe('the change feed on PostgreSQL', () => {
  it('ends at the last change, compared as numbers (position 12 after 9), and pages after a cursor', async () => {
    const feed = store.feed;
    expect(await feed.latest()).toBe('0-0');
    const first = await projects(12, 'First');
    const end = await feed.latest();
    expect(end).toMatch(/^\d+-12$/);
    const { records, cursor, more } = await feed.changedSince(0, 5000, new Set(['project']));
    expect(records.map((r) => r.id)).toEqual(first);
    expect(cursor).toBe(end);
    expect(more).toBe(false);

    // A record changed again comes once, at its latest change; pages of 5 go on from their cursors.
    await store.transaction(async (tx) => void (await tx.update(tables.project, first[3]!, { name: 'Renamed' })));
    const second = await projects(8, 'Second');
    const seen: string[] = [];
    let from: string | number = end;
    for (let page = 0; page < 10; page++) {
      const got = await feed.changedSince(from, 5, new Set(['project']));
      seen.push(...got.records.map((r) => r.id));
      for (const r of got.records) expect(parts(r.seq)[1]! > parts(from)[1]! || parts(r.seq)[0]! > parts(from)[0]!).toBe(true);
      from = got.cursor;
      if (!got.more) break;
    }
    expect(seen).toEqual([first[3], ...second]);
    expect(from).toBe(await feed.latest());
  });

  it('takes back only cursors it could have given', () => {
    const feed = store.feed;
    for (const good of ['0', '12', '1-1', '740-3000', `${2n ** 64n - 1n}-1`]) expect(feed.readCursor(good), good).toBeDefined();
    for (const bad of ['', 'abc', '1-', '-1-2', '1-2-3', `${2n ** 64n}-1`, `1-${'9'.repeat(21)}`])
      expect(feed.readCursor(bad), bad).toBeUndefined();
  });

  it('gives snapshot rows that hold what the records hold, deleted ones too, with their clocks', async () => {
    const feed = store.feed;
    const [gone] = await projects(1, 'Gone');
    await store.transaction(async (tx) => void (await tx.softDelete(tables.project, gone!)));
    const records = await feed.scanForSync(tables.project, '', 5000);
    const clocks = await feed.clocksOfMany(
      'project',
      records.map((r) => r.id),
    );
    const page = await feed.snapshotRows!(tables.project, [], '', 5000);
    expect(page.count).toBe(records.length);
    expect(page.last).toBe(records.at(-1)!.id);
    const rows = JSON.parse(page.rows) as unknown[][];
    rows.forEach((row, i) => {
      const record = records[i]!;
      expect(Object.fromEntries(page.fields.map((name, j) => [name, row[j]]))).toEqual(
        Object.fromEntries(page.fields.map((name) => [name, record[name as keyof typeof record] ?? null])),
      );
      expect(row[page.fields.length]).toEqual(clocks.get(record.id) ?? {});
    });
    expect(records.find((r) => r.id === gone)!.deleted_at).not.toBeNull();
    // A hidden field is left out of the values and of the clocks.
    const hidden = await feed.snapshotRows!(tables.project, ['description'], '', 1);
    expect(hidden.fields).not.toContain('description');
    expect(Object.keys((JSON.parse(hidden.rows) as unknown[][])[0]!.at(-1) as object)).not.toContain('description');
  });

  it('compacts to the newest changes: a cursor before what it removed has expired, one after has not', async () => {
    const feed = store.feed;
    await projects(30, 'Compacted');
    const before = await feed.latest();
    const kept = await projects(10, 'Kept');
    const end = await feed.latest();
    await feed.compact(10);
    // `before` is the last change removed: a reader there has seen all of them; one change earlier has not.
    const earlier = `${parts(before)[0]}-${parts(before)[1]! - 1n}`;
    expect(await feed.expired(0)).toBe(true);
    expect(await feed.expired(earlier)).toBe(true);
    expect(await feed.expired(before)).toBe(false);
    expect(await feed.expired(end)).toBe(false);
    // The ten kept changes are still there, after the last cursor that expired.
    const { records } = await feed.changedSince(
      parts(end)[0]! > 0n ? `${parts(end)[0]}-${parts(end)[1]! - 10n}` : end,
      5000,
      new Set(['project']),
    );
    expect(records.map((r) => r.id)).toEqual(kept);
    // Compacting again with room to spare changes nothing, and the record never moves back.
    await feed.compact(1_000);
    expect(await feed.expired(end)).toBe(false);
    expect(await feed.expired(earlier)).toBe(true);
    // A change number (a SQLite remote's cursor) has expired here.
    expect(await feed.expired(12)).toBe(true);
  });
});
