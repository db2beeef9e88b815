/**
 * A transaction PostgreSQL stops for another's sake is run again (electron/store/postgres/
 * record-store.ts): two transactions of one environment that each hold a record the other
 * wants deadlock, PostgreSQL breaks the deadlock by stopping one, and the store runs that one
 * again, so both land and nothing is written twice.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tables } from '../../../electron/api/tables.js';
import { PostgresRecordStore } from '../../../electron/store/postgres/record-store.js';
import { environmentSchemaOf } from '../../../electron/store/postgres/environment-schemas.js';
import { uuidv7 } from '../../../shared/ids.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

const environmentId = uuidv7();
let team: TeamDatabase<1>;
let records: PostgresRecordStore;

beforeAll(async () => {
  team = await startTeamDatabase('conflicts', { nodes: 1, environments: [environmentId] });
  records = new PostgresRecordStore(team.nodes[0], environmentId);
}, 120_000);

afterAll(async () => {
  await team?.stop();
});

/** A promise and the function that settles it. */
function signal(): { done: Promise<void>; give: () => void } {
  let give = () => undefined as void;
  const done = new Promise<void>((resolve) => (give = resolve));
  return { done, give };
}

describe('a transaction PostgreSQL stops for another’s sake', () => {
  it('is run again: two writers that lock two records in opposite order both land, each once', async () => {
    const [north, south] = await records.transaction(async (tx) => [
      await tx.insert(tables.project, { name: 'North' }),
      await tx.insert(tables.project, { name: 'South' }),
    ]);
    const firstHeld = signal();
    const secondHeld = signal();
    const attempts = { a: 0, b: 0 };
    // A writes North, then South; B writes South, then North: each waits for the other's first.
    const writer = (key: 'a' | 'b', first: string, then: string, held: ReturnType<typeof signal>, other: ReturnType<typeof signal>) =>
      records.transaction(async (tx) => {
        attempts[key]++;
        await tx.update(tables.project, first, { description: `${key} first` });
        held.give();
        // Only the first attempts meet in the middle; a run again goes straight through.
        if (attempts[key] === 1) await other.done;
        await tx.update(tables.project, then, { code: `${key}-${attempts[key]}` });
        return attempts[key];
      });
    const [a, b] = await Promise.all([
      writer('a', north!.id, south!.id, firstHeld, secondHeld),
      writer('b', south!.id, north!.id, secondHeld, firstHeld),
    ]);
    // PostgreSQL stopped one of them (after its deadlock_timeout, a second by default); it ran again.
    // On a busy machine its run again can still meet the other's first attempt waiting, and
    // PostgreSQL stops that one too: then each ran twice, and still each landed once.
    expect(Math.max(a, b)).toBe(2);
    expect([
      [1, 2],
      [2, 2],
    ]).toContainEqual([a, b].sort());
    const [northNow, southNow] = [await records.get(tables.project, north!.id), await records.get(tables.project, south!.id)];
    // The one that ran again wrote last, and the change log has each write once: two records
    // made, two updates by each writer; none of the stopped attempt's.
    const last = a === 2 ? 'a' : 'b';
    expect([northNow?.code, southNow?.code]).toContain(`${last}-2`);
    const { schema } = environmentSchemaOf(environmentId);
    const logged = await team.nodes[0].query(`SELECT count(*)::int AS n FROM ${schema}.change_log`);
    expect(logged.rows[0].n).toBe(6);
  }, 30_000);
});
