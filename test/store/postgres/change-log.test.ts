/**
 * The change log on PostgreSQL and its cursor (docs/architecture.md "Team server on
 * PostgreSQL"): a reader never passes a change whose transaction is still open, so it never
 * skips one that commits later, and its cursor never goes backwards. Two pools are two nodes on
 * one real PostgreSQL cluster; transactions commit out of the order they wrote in.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../../shared/ids.js';
import {
  appendChange,
  changeLogStart,
  compareCursors,
  readChanges,
  type ChangeCursor,
} from '../../../electron/store/postgres/change-log.js';
import { ensureEnvironmentSchema, withEnvironment } from '../../../electron/store/postgres/environment-schemas.js';
import { environmentMigrations } from '../../../electron/store/postgres/migrations.js';
import { openPostgresPool, type PostgresPool } from '../../../electron/store/postgres/postgres-database.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

let team: TeamDatabase;
/** Two nodes that write, and a reader's own connection so polling never waits for a writer's client. */
let nodes: TeamDatabase['nodes'];
let reader: PostgresPool;

beforeAll(async () => {
  team = await startTeamDatabase('changes');
  nodes = team.nodes;
  reader = openPostgresPool(team.url, { max: 1 });
});

afterAll(async () => {
  await reader?.end();
  await team?.stop();
});

async function newEnvironment(): Promise<string> {
  const id = uuidv7();
  await ensureEnvironmentSchema(nodes[0], id, environmentMigrations);
  return id;
}

const read = (environmentId: string, after: ChangeCursor, limit?: number) =>
  withEnvironment(reader, environmentId, (client) => readChanges(client, after, limit));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

describe('the change-log cursor on PostgreSQL', () => {
  it('does not pass a change whose transaction is still open, and returns it once that commits', async () => {
    const env = await newEnvironment();
    const appended = gate();
    const release = gate();
    // T1 on the first node takes its position and waits before committing.
    const t1 = withEnvironment(nodes[0], env, async (client) => {
      const at = await appendChange(client, { resource: 'card', recordId: 'first', op: 'create' });
      appended.open();
      await release.opened;
      return at;
    });
    await appended.opened;
    // T2 on the second node writes after T1 and commits first.
    const t2 = await withEnvironment(nodes[1], env, (client) =>
      appendChange(client, { resource: 'card', recordId: 'second', op: 'create' }),
    );

    const early = await read(env, changeLogStart);
    expect(early.changes).toEqual([]);
    expect(early.cursor).toEqual(changeLogStart);

    release.open();
    const t1At = await t1;
    expect(BigInt(t1At.position)).toBeLessThan(BigInt(t2.position));
    const late = await read(env, early.cursor);
    expect(late.changes.map((c) => c.recordId)).toEqual(['first', 'second']);
    expect(late.changes.map((c) => c.cursor)).toEqual([t1At, t2]);
    expect(late.cursor).toEqual(t2);
    expect(await read(env, late.cursor)).toEqual({ changes: [], cursor: t2 });
  });

  it('never returns a rolled-back change, and returns the ones after it once it has ended', async () => {
    const env = await newEnvironment();
    const appended = gate();
    const release = gate();
    const t1 = withEnvironment(nodes[0], env, async (client) => {
      await appendChange(client, { resource: 'card', recordId: 'cancelled', op: 'create' });
      appended.open();
      await release.opened;
      throw new Error('cancelled');
    }).catch((error: Error) => error.message);
    await appended.opened;
    await withEnvironment(nodes[1], env, (client) =>
      appendChange(client, { resource: 'card', recordId: 'kept', op: 'update', fields: { name: 'Weld' } }),
    );
    expect((await read(env, changeLogStart)).changes).toEqual([]);
    release.open();
    expect(await t1).toBe('cancelled');
    const after = await read(env, changeLogStart);
    expect(after.changes.map((c) => [c.recordId, c.op, c.fields])).toEqual([['kept', 'update', { name: 'Weld' }]]);
  });

  it('sees every committed change exactly once and no rolled-back one, over two nodes committing in any order', async () => {
    const writer = fc.record({
      node: fc.constantFrom(0, 1),
      appends: fc.integer({ min: 1, max: 3 }),
      startAfterMs: fc.integer({ min: 0, max: 15 }),
      holdMs: fc.integer({ min: 0, max: 25 }),
      rollBack: fc.boolean(),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(writer, { minLength: 8, maxLength: 24 }), fc.integer({ min: 1, max: 4 }), async (writers, pageSize) => {
        const env = await newEnvironment();
        const committed = new Set<string>();
        const rolledBack = new Set<string>();
        let writing = true;
        const writes = Promise.all(
          writers.map(async (w, i) => {
            await sleep(w.startAfterMs);
            const ids = Array.from({ length: w.appends }, (_, j) => `w${i}-${j}`);
            const outcome = await withEnvironment(nodes[w.node], env, async (client) => {
              for (const id of ids) {
                await appendChange(client, { resource: 'card', recordId: id, op: 'create' });
                await sleep(w.holdMs / w.appends);
              }
              if (w.rollBack) throw new Error('rolled back');
            }).then(
              () => committed,
              () => rolledBack,
            );
            for (const id of ids) outcome.add(id);
          }),
        ).finally(() => (writing = false));

        const seen: string[] = [];
        let cursor = changeLogStart;
        const poll = async () => {
          const page = await read(env, cursor, pageSize);
          let previous = cursor;
          for (const change of page.changes) {
            expect(compareCursors(change.cursor, previous)).toBeGreaterThan(0);
            previous = change.cursor;
            seen.push(change.recordId);
          }
          expect(compareCursors(page.cursor, cursor)).toBeGreaterThanOrEqual(0);
          cursor = page.cursor;
          return page.changes.length;
        };
        // Polls while the writers run (bounded: they end within a few hundred ms) ...
        for (let polls = 0; writing && polls < 2_000; polls++) {
          await poll();
          await sleep(1);
        }
        await writes;
        // ... then reads what is left, until a page comes back empty.
        for (let pages = 0; pages < 200 && (await poll()) > 0; pages++);

        expect(new Set(seen).size).toBe(seen.length);
        expect(seen.filter((id) => rolledBack.has(id))).toEqual([]);
        expect([...seen].sort()).toEqual([...committed].sort());
      }),
      { numRuns: 10 },
    );
  });
});
