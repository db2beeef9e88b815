/**
 * Commands and undo history on PostgreSQL (docs/API.md "Commands and undo", docs/architecture.md
 * "Team server on PostgreSQL"): the command book's reads, a command's change-log rows with
 * their previous values, and what only several nodes can get wrong: two nodes writing one
 * record at once log the later write's `before` as the earlier one left it, in commit order,
 * and a command id or an undo done on two nodes at once is written once. Two pools are two
 * nodes on one real cluster.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uuidv7 } from '../../../shared/ids.js';
import type { CommandMeta } from '../../../electron/store/changes.js';
import { CommandConflictError, type RecordWrites } from '../../../electron/store/record-store.js';
import { tables } from '../../../electron/store/tables.js';
import { changesAfter, changesOfCommand, findCommand, recentCommands, undoneBy } from '../../../electron/store/postgres/command-book.js';
import { ensureEnvironmentSchema, withEnvironment } from '../../../electron/store/postgres/environment-schemas.js';
import { environmentMigrations } from '../../../electron/store/postgres/migrations.js';
import type { PostgresClient } from '../../../electron/store/postgres/postgres-database.js';
import { PostgresRecordStore } from '../../../electron/store/postgres/record-store.js';
import { startTeamDatabase, type TeamDatabase } from '../../helpers/postgres.js';

let team: TeamDatabase;
let nodes: TeamDatabase['nodes'];

beforeAll(async () => {
  team = await startTeamDatabase('commands');
  nodes = team.nodes;
});

afterAll(() => team?.stop());

const activity = tables.activity;

/** A fresh environment and its record store on each node. */
async function newEnvironment(): Promise<{ id: string; stores: [PostgresRecordStore, PostgresRecordStore] }> {
  const id = uuidv7();
  await ensureEnvironmentSchema(nodes[0], id, environmentMigrations);
  return { id, stores: [new PostgresRecordStore(nodes[0], id), new PostgresRecordStore(nodes[1], id)] };
}

const book = <T>(environmentId: string, fn: (client: PostgresClient) => Promise<T>) => withEnvironment(nodes[0], environmentId, fn);

const command = (description: string, extra: Partial<CommandMeta> = {}): CommandMeta => ({ id: uuidv7(), description, ...extra });

/** A promise and the function that settles it. */
function gate(): { opened: Promise<void>; open(): void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/** Waits (bounded) until some connection of the cluster waits for a lock: the other node is held up. */
async function untilSomeoneWaitsForALock(): Promise<void> {
  for (let i = 0; i < 300; i++) {
    const { rows } = await nodes[0].query<{ n: number }>("SELECT count(*)::int AS n FROM pg_stat_activity WHERE wait_event_type = 'Lock'");
    if (rows[0]!.n > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error('No connection waited for a lock within 3 seconds.');
}

describe('commands on PostgreSQL', () => {
  it('lists recent commands newest first, in the order they were done, whatever their ids', async () => {
    const { id: env, stores } = await newEnvironment();
    // Ids that sort the other way round from the order they are done in.
    const done = [
      command('Plan order', { id: 'c-zulu' }),
      command('Move 3 cards', { id: 'c-mike' }),
      command('Edit card', { id: 'c-alpha' }),
    ];
    for (const [i, meta] of done.entries())
      await stores[i % 2]!.transaction((tx) => tx.insert(activity, { description: meta.description }), { command: meta });

    const recent = await book(env, (client) => recentCommands(client, 10));
    expect(recent.map((c) => c.id)).toEqual(['c-alpha', 'c-mike', 'c-zulu']);
    expect(recent[0]).toMatchObject({ description: 'Edit card', undoes: null, actor: null });
    expect(recent[0]!.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    expect((await book(env, (client) => recentCommands(client, 2))).map((c) => c.id)).toEqual(['c-alpha', 'c-mike']);
    expect(await book(env, (client) => findCommand(client, 'c-mike'))).toMatchObject({ id: 'c-mike', description: 'Move 3 cards' });
    expect(await book(env, (client) => findCommand(client, 'c-none'))).toBeUndefined();
  });

  it('finds a later write to a command’s record by another transaction, and the command that undid it', async () => {
    const { id: env, stores } = await newEnvironment();
    const [cutting, welding] = await stores[0].transaction(async (tx) => [
      await tx.insert(activity, { description: 'Cutting' }),
      await tx.insert(activity, { description: 'Welding' }),
    ]);
    const edit = command('Edit activities', { actor: 'user-1' });
    await stores[0].transaction(
      async (tx) => {
        await tx.update(activity, cutting!.id, { description: 'Laser cutting', code: 'C1' });
        await tx.update(activity, welding!.id, { code: 'W1' });
      },
      { command: edit },
    );
    const own = await book(env, (client) => changesOfCommand(client, edit.id));
    expect(own.map((c) => [c.record_id, c.before])).toEqual([
      [cutting!.id, { description: 'Cutting', code: null, updated_at: cutting!.updated_at }],
      [welding!.id, { code: null, updated_at: welding!.updated_at }],
    ]);
    const lastSeq = own.at(-1)!.seq;
    expect(await book(env, (client) => changesAfter(client, 'activity', cutting!.id, lastSeq))).toEqual([]);

    // Another node writes one of the records afterwards, in a transaction of no command.
    await stores[1].transaction((tx) => tx.update(activity, welding!.id, { code: 'W2' }));
    const later = await book(env, (client) => changesAfter(client, 'activity', welding!.id, lastSeq));
    expect(later).toHaveLength(1);
    expect(later[0]).toMatchObject({ op: 'update', record_id: welding!.id, command_id: null, before: { code: 'W1' } });
    expect(later[0]!.fields).toMatchObject({ code: 'W2' });
    expect(await book(env, (client) => changesAfter(client, 'activity', cutting!.id, lastSeq))).toEqual([]);

    expect(await book(env, (client) => undoneBy(client, edit.id))).toBeUndefined();
    const undo = command('Undo: Edit activities', { undoes: edit.id });
    await stores[1].transaction((tx) => tx.update(activity, cutting!.id, { description: 'Cutting', code: null }), { command: undo });
    expect(await book(env, (client) => undoneBy(client, edit.id))).toMatchObject({ id: undo.id, undoes: edit.id });
    expect(await book(env, (client) => undoneBy(client, undo.id))).toBeUndefined();
    expect((await book(env, (client) => recentCommands(client, 1)))[0]!.id).toBe(undo.id);
  });

  it('leaves neither the row nor the changes of a command that rolled back', async () => {
    const { id: env, stores } = await newEnvironment();
    const lost = command('Plan order');
    await expect(
      stores[0].transaction(
        async (tx) => {
          await tx.insert(activity, { description: 'Lost', code: 'LOST' });
          throw new Error('changed my mind');
        },
        { command: lost },
      ),
    ).rejects.toThrow('changed my mind');
    expect(await book(env, (client) => findCommand(client, lost.id))).toBeUndefined();
    expect(await book(env, (client) => changesOfCommand(client, lost.id))).toEqual([]);
    expect(await book(env, (client) => recentCommands(client, 10))).toEqual([]);
    // The id was never used: the command can be done after all.
    await stores[1].transaction((tx) => tx.insert(activity, { description: 'Found', code: 'LOST' }), { command: lost });
    expect(await book(env, (client) => changesOfCommand(client, lost.id))).toHaveLength(1);
  });

  it('logs what a write replaced when another node wrote the record meanwhile, in the order they commit', async () => {
    const { id: env, stores } = await newEnvironment();
    const drilling = await stores[0].transaction((tx) => tx.insert(activity, { description: 'Drilling' }));
    const first = command('Rename to Boring');
    const second = command('Rename to Reaming');
    const wrote = gate();
    const release = gate();
    const one = stores[0].transaction(
      async (tx) => {
        await tx.update(activity, drilling.id, { description: 'Boring' });
        wrote.open();
        await release.opened;
      },
      { command: first },
    );
    await wrote.opened;
    // The other node's write starts while the first is uncommitted, and waits for its lock.
    const two = stores[1].transaction((tx: RecordWrites) => tx.update(activity, drilling.id, { description: 'Reaming' }), {
      command: second,
    });
    await untilSomeoneWaitsForALock();
    release.open();
    await Promise.all([one, two]);

    const [firstChange] = await book(env, (client) => changesOfCommand(client, first.id));
    const [secondChange] = await book(env, (client) => changesOfCommand(client, second.id));
    expect(firstChange!.before).toMatchObject({ description: 'Drilling' });
    expect(secondChange!.before).toMatchObject({ description: 'Boring' });
    // Undoing the first would overwrite the second: changesAfter finds it.
    const after = await book(env, (client) => changesAfter(client, 'activity', drilling.id, firstChange!.seq));
    expect(after.map((c) => c.command_id)).toEqual([second.id]);
  });

  it('writes a command id, or an undo of one command, once when two nodes do it at once', async () => {
    const { id: env, stores } = await newEnvironment();
    const done = command('Plan order');
    await stores[0].transaction((tx) => tx.insert(activity, { description: 'Planned' }), { command: done });

    for (const [twice, problem] of [
      [command('Undo: Plan order', { undoes: done.id }), 'undone-already'],
      [command('Edit card'), 'id-taken'],
    ] as const) {
      const wrote = gate();
      const release = gate();
      const one = stores[0].transaction(
        async (tx) => {
          await tx.insert(activity, { description: `First ${problem}` });
          wrote.open();
          await release.opened;
        },
        { command: twice },
      );
      await wrote.opened;
      // The other node's command has another id when it undoes the same command.
      const other = problem === 'undone-already' ? { ...twice, id: uuidv7() } : twice;
      // Its refusal is caught at once: it may come before `one` is seen to be done.
      const two = stores[1]
        .transaction((tx) => tx.insert(activity, { description: `Second ${problem}` }), { command: other })
        .then(
          () => undefined,
          (error: unknown) => error,
        );
      await untilSomeoneWaitsForALock();
      release.open();
      await one;
      const refused = await two;
      expect(refused).toBeInstanceOf(CommandConflictError);
      expect(refused).toMatchObject({ problem, commandId: other.id });
      const second = await stores[0].list(activity, { match: { description: `Second ${problem}` }, limit: 1, offset: 0 });
      expect(second.count).toBe(0);
      expect(await book(env, (client) => changesOfCommand(client, twice.id))).toHaveLength(1);
    }
    expect((await book(env, (client) => undoneBy(client, done.id)))?.description).toBe('Undo: Plan order');
  });
});
