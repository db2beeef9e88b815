/**
 * Commands and undo (docs/API.md "Commands and undo"): batch commands on cards, time entries
 * and order rows, each one call, one transaction and one undo step; undo and redo through the
 * server; every ordinary write a command too. Real SQLite, real HTTP on 127.0.0.1.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApi } from '../../electron/api/app.js';
import { bookOf } from '../../electron/api/sync/books.js';
import { DataDir } from '../../electron/store/data-dir.js';
import { rmSync } from 'node:fs';
import { startTestApi, tempDir, type TestApi } from '../helpers/api.js';
import { createCard, expectForbidden, startRolesInstance } from '../helpers/signed-in.js';
import {
  cardsOf,
  createActivities,
  createBoard,
  createCollection,
  plan,
  spans,
  type Activities,
  type BoardIds,
  type StageSetup,
} from '../helpers/planning.js';

let api: TestApi;
let acts: Activities;
let board: BoardIds;
let collectionId: string;

beforeAll(async () => {
  api = await startTestApi();
  acts = await createActivities(api);
  board = await createBoard(
    api,
    acts,
    { name: 'Hall', dependency_behavior: 'notify', stages: [{ name: 'Cutting', activities: ['Cut'] }] },
    ['Urgent', 'Rework'],
  );
  collectionId = (await ok('POST', '/v1/collection', { name: 'Order 20', board_id: board.id }, 201)).id;
});
afterAll(async () => {
  await api.close();
});

async function ok(method: string, path: string, body?: unknown, status = 200, headers?: Record<string, string>): Promise<any> {
  const res = await api.http(method, path, body, headers);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(status);
  return res.body;
}

function store() {
  return api.dataDir.environment(api.environment.id);
}

/** Twenty cards of one collection, each on its own day in March 2024. */
async function twentyCards(): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < 20; i++) {
    const day = String(1 + i).padStart(2, '0');
    ids.push(
      (
        await ok(
          'POST',
          `/v1/collection/${collectionId}/card`,
          { stage_id: board.stages.Cutting, name: `Part ${i}`, start_date: `2024-03-${day}`, end_date: `2024-03-${day}` },
          201,
        )
      ).id,
    );
  }
  return ids;
}

async function datesOf(ids: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const id of ids) {
    const card = await ok('GET', `/v1/collection/${collectionId}/card/${id}`);
    out.push(`${card.start_date}..${card.end_date}`);
  }
  return out;
}

/** Each card a week later. */
function aWeekLater(ids: string[]) {
  return ids.map((id, i) => {
    const day = String(8 + i).padStart(2, '0');
    return { id, start_date: `2024-03-${day}`, end_date: `2024-03-${day}` };
  });
}

describe('POST /v1/command/move_cards', () => {
  it('moves 20 cards in one call, one command id on every change-log row it wrote', async () => {
    const ids = await twentyCards();
    const answer = await ok('POST', '/v1/command/move_cards', { description: 'Move the week', cards: aWeekLater(ids) });
    expect(answer).toMatchObject({ description: 'Move the week' });
    expect(answer.command_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(
      answer.changed
        .filter((c: any) => c.resource === 'card')
        .map((c: any) => c.id)
        .sort(),
    ).toEqual([...ids].sort());
    expect(await datesOf(ids)).toEqual(aWeekLater(ids).map((c) => `${c.start_date}..${c.end_date}`));
    const rows = store()
      .db.prepare(
        "SELECT DISTINCT command_id FROM change_log WHERE resource = 'card' AND record_id IN (" +
          ids.map(() => '?').join(',') +
          ") AND op = 'update'",
      )
      .all(...ids) as { command_id: string }[];
    expect(rows).toEqual([{ command_id: answer.command_id }]);
  });

  it('moves nothing when one card is refused, and names it with its path', async () => {
    const ids = await twentyCards();
    const before = await datesOf(ids);
    const moves = aWeekLater(ids);
    moves[3] = { ...moves[3]!, end_date: '2024-03-01' };
    const res = await api.http('POST', '/v1/command/move_cards', { cards: moves });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.field)).toEqual(['cards.3.end_date']);
    expect(await datesOf(ids)).toEqual(before);
  });

  it('refuses a body that is no list of moves with 422 and field paths, writing nothing', async () => {
    const [id] = await twentyCards();
    const commands = (await ok('GET', '/v1/command?limit=1000')).data.length;
    const res = await api.http('POST', '/v1/command/move_cards', {
      cards: [{ id, title: 'x' }, { id: 'nope', start_date: '2024-03-01' }, 5],
    });
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.field)).toEqual(['cards.0.title', 'cards.1.id', 'cards.2']);
    expect((await api.http('POST', '/v1/command/move_cards', { cards: [] })).status).toBe(422);
    expect((await ok('GET', '/v1/command?limit=1000')).data.length).toBe(commands);
  });

  it('applies the board dependency behaviour once for the whole set, not once per card', async () => {
    const stages: StageSetup[] = [
      { name: 'Cutting', activities: ['Cut'], delay_day: 1 },
      { name: 'Welding', activities: ['Weld'] },
      { name: 'Painting', activities: ['Paint'] },
    ];
    const chain = await createBoard(api, acts, { dependency_behavior: 'maintain', stages });
    const collection = await createCollection(api, chain.id, acts, { Cut: 960, Weld: 480, Paint: 960 });
    const planned = await plan(api, collection.id, chain.id, { start: '2024-03-04' });
    const card = Object.fromEntries(planned.cards.map((c: any) => [chain.stageName(c.stage_id), c.id]));
    expect(spans(await cardsOf(api, collection.id, chain, acts))).toEqual([
      'Cutting: 2024-03-04..2024-03-05',
      'Welding: 2024-03-07..2024-03-07',
      'Painting: 2024-03-08..2024-03-11',
    ]);
    // Welding and Cutting both two workdays later, Welding first: one card at a time, Welding
    // would move twice (once sent, once after Cutting) and Painting would follow both moves.
    await ok('POST', '/v1/command/move_cards', {
      cards: [
        { id: card.Welding, start_date: '2024-03-11', end_date: '2024-03-11' },
        { id: card.Cutting, start_date: '2024-03-06', end_date: '2024-03-07' },
      ],
    });
    expect(spans(await cardsOf(api, collection.id, chain, acts))).toEqual([
      'Cutting: 2024-03-06..2024-03-07',
      'Welding: 2024-03-11..2024-03-11',
      'Painting: 2024-03-12..2024-03-13',
    ]);
  });
});

describe('POST /v1/command/{id}/undo', () => {
  it('puts all 20 cards back in one call, and redo (undo of the undo) moves them again', async () => {
    const ids = await twentyCards();
    const before = await datesOf(ids);
    const moved = await ok('POST', '/v1/command/move_cards', { cards: aWeekLater(ids) });
    const after = await datesOf(ids);
    const undo = await ok('POST', `/v1/command/${moved.command_id}/undo`);
    expect(undo.description).toBe('Undo: Move 20 cards');
    expect(await datesOf(ids)).toEqual(before);
    const redo = await ok('POST', `/v1/command/${undo.command_id}/undo`);
    expect(redo.description).toBe('Undo: Undo: Move 20 cards');
    expect(await datesOf(ids)).toEqual(after);
    const listed = (await ok('GET', '/v1/command?limit=3')).data;
    expect(listed.map((c: any) => [c.id, c.undoes])).toEqual([
      [redo.command_id, undo.command_id],
      [undo.command_id, moved.command_id],
      [moved.command_id, null],
    ]);
    // Undone once, a command is redone through its undo, not undone again.
    expect((await api.http('POST', `/v1/command/${moved.command_id}/undo`)).status).toBe(409);
  });

  it('answers 409 naming the record when a later edit changed what it would revert, and changes nothing', async () => {
    const ids = await twentyCards();
    const moved = await ok('POST', '/v1/command/move_cards', { cards: aWeekLater(ids) });
    await ok('PUT', `/v1/collection/${collectionId}/card/${ids[5]}`, { start_date: '2024-03-20', end_date: '2024-03-21' });
    const now = await datesOf(ids);
    const res = await api.http('POST', `/v1/command/${moved.command_id}/undo`);
    expect(res.status).toBe(409);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].description).toContain(ids[5]);
    expect(await datesOf(ids)).toEqual(now);
  });

  it('undoes a move that later writes changed and then left as the move left it (as a sync pulls back derived values)', async () => {
    const ids = await twentyCards();
    const before = await datesOf(ids);
    const moved = await ok('POST', '/v1/command/move_cards', { cards: aWeekLater(ids) });
    const after = await datesOf(ids);
    const card = await ok('GET', `/v1/collection/${collectionId}/card/${ids[5]}`);
    await ok('PUT', `/v1/collection/${collectionId}/card/${ids[5]}`, { start_date: '2024-03-20', end_date: '2024-03-21' });
    await ok('PUT', `/v1/collection/${collectionId}/card/${ids[5]}`, { start_date: card.start_date, end_date: card.end_date });
    expect(await datesOf(ids)).toEqual(after);
    const res = await api.http('POST', `/v1/command/${moved.command_id}/undo`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(await datesOf(ids)).toEqual(before);
  });

  it('undoes an ordinary PUT by the command id its answer names', async () => {
    const [id] = await twentyCards();
    const res = await api.http('PUT', `/v1/collection/${collectionId}/card/${id}`, { name: 'Renamed' });
    expect(res.status).toBe(200);
    const commandId = res.headers.get('x-planner-command-id');
    expect(commandId).toMatch(/^[0-9a-f-]{36}$/);
    const undo = await ok('POST', `/v1/command/${commandId}/undo`);
    expect(undo.description).toBe('Undo: Edit card');
    expect((await ok('GET', `/v1/collection/${collectionId}/card/${id}`)).name).toBe('Part 0');
  });

  it('takes a command id and description from the request headers, and refuses a bad id with 400', async () => {
    const commandId = '0190f3a0-0000-7000-8000-00000000c0de';
    const made = await api.http(
      'POST',
      '/v1/project',
      { name: 'Hall 9' },
      { 'x-planner-command-id': commandId, 'x-planner-command-description': 'Add hall 9' },
    );
    expect(made.status).toBe(201);
    expect(made.headers.get('x-planner-command-id')).toBe(commandId);
    expect((await ok('GET', '/v1/command?limit=1')).data[0]).toMatchObject({ id: commandId, description: 'Add hall 9', undoes: null });
    const again = await api.http('POST', '/v1/project', { name: 'Hall 10' }, { 'x-planner-command-id': commandId });
    expect(again.status).toBe(409);
    const bad = await api.http('POST', '/v1/project', { name: 'Hall 11' }, { 'x-planner-command-id': 'not-a-uuid' });
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ code: expect.any(Number) });
    expect((await api.http('POST', '/v1/project', { name: 'Hall 12' }, { 'x-planner-command-description': 'x'.repeat(201) })).status).toBe(
      400,
    );
    expect((await ok('GET', '/v1/project?filter=name:eq:Hall 11')).count).toBe(0);
    // Undoing the create deletes the project.
    await ok('POST', `/v1/command/${commandId}/undo`);
    expect((await api.http('GET', `/v1/project/${made.body.id}`)).status).toBe(404);
  });

  it('answers 404 for a command it does not have, and for one of another environment', async () => {
    expect((await api.http('POST', '/v1/command/0190f3a0-0000-7000-8000-00000000dead/undo')).status).toBe(404);
    const made = await api.http('POST', '/v1/project', { name: 'Hall A' });
    const other = api.dataDir.system.ensureEnvironment('other');
    api.dataDir.system.ensureApiKey(other.id, 'other-key-123');
    const elsewhere = { 'x-api-key': 'other-key-123', 'x-api-env': 'other' };
    expect((await api.http('POST', `/v1/command/${made.headers.get('x-planner-command-id')}/undo`, undefined, elsewhere)).status).toBe(404);
    expect((await api.http('GET', '/v1/command', undefined, elsewhere)).body.data).toEqual([]);
  });

  it('lists the command routes in the OpenAPI document', async () => {
    const paths = Object.keys((await ok('GET', '/v1/openapi.json')).paths).filter((p) => p.startsWith('/v1/command'));
    expect(paths.sort()).toEqual([
      '/v1/command',
      '/v1/command/add_overtime',
      '/v1/command/assign_cards',
      '/v1/command/edit_order_rows',
      '/v1/command/label_cards',
      '/v1/command/move_cards',
      '/v1/command/replan_collections',
      '/v1/command/set_time_status',
      '/v1/command/{id}/undo',
    ]);
  });
});

describe('other write routes', () => {
  it('makes planning a collection one command, which undo takes back: its cards go, the collection is unplanned again', async () => {
    const stages: StageSetup[] = [
      { name: 'Cutting', activities: ['Cut'] },
      { name: 'Welding', activities: ['Weld'] },
    ];
    const chain = await createBoard(api, acts, { stages });
    const collection = await createCollection(api, chain.id, acts, { Cut: 480, Weld: 480 });
    const before = await ok('GET', `/v1/collection/${collection.id}`);
    const planned = await api.http(
      'POST',
      `/v1/collection/${collection.id}/board/${chain.id}`,
      { start: '2024-03-04' },
      { 'x-planner-command-description': 'Plan order' },
    );
    expect(planned.status, JSON.stringify(planned.body)).toBe(200);
    const commandId = planned.headers.get('x-planner-command-id');
    expect((await ok('GET', '/v1/command?limit=1')).data[0]).toMatchObject({ id: commandId, description: 'Plan order' });
    expect((await ok('GET', `/v1/collection/${collection.id}/card`)).count).toBe(2);
    const undo = await ok('POST', `/v1/command/${commandId}/undo`);
    expect(undo.description).toBe('Undo: Plan order');
    expect((await ok('GET', `/v1/collection/${collection.id}/card`)).count).toBe(0);
    expect(await ok('GET', `/v1/collection/${collection.id}`)).toMatchObject({
      status: before.status,
      start: before.start,
      end: before.end,
    });
  });

  it('names no command when a write route wrote nothing', async () => {
    const refused = await api.http(
      'POST',
      '/v1/collection/0190f3a0-0000-7000-8000-00000000beef/board/0190f3a0-0000-7000-8000-00000000beef',
      {},
    );
    expect(refused.status).toBe(404);
    expect(refused.headers.get('x-planner-command-id')).toBeNull();
  });
});

describe('label, assign, time status and order-row commands', () => {
  it('adds and removes labels on a set of cards, undoably, and refuses an unknown label with 422', async () => {
    const ids = (await twentyCards()).slice(0, 3);
    await ok('POST', '/v1/command/label_cards', { cards: ids, add: [board.labels.Urgent, board.labels.Rework] });
    const answer = await ok('POST', '/v1/command/label_cards', { cards: ids, remove: [board.labels.Rework] });
    expect(answer.description).toBe('Label 3 cards');
    for (const id of ids) {
      expect((await ok('GET', `/v1/collection/${collectionId}/card/${id}?with=labels`)).labels.map((l: any) => l.id)).toEqual([
        board.labels.Urgent,
      ]);
    }
    await ok('POST', `/v1/command/${answer.command_id}/undo`);
    expect((await ok('GET', `/v1/collection/${collectionId}/card/${ids[0]}?with=labels`)).labels.map((l: any) => l.id).sort()).toEqual(
      [board.labels.Urgent, board.labels.Rework].sort(),
    );
    // Labels the cards have already: nothing changes, so no command is kept, and the undo list gets no step that undoes nothing.
    const commands = async () => (await ok('GET', '/v1/command?limit=1000')).data.map((c: any) => c.id);
    const before = await commands();
    const none = await api.http('POST', '/v1/command/label_cards', { cards: ids, add: [board.labels.Urgent] });
    expect(none.status).toBe(200);
    expect(none.body).toEqual({ command_id: null, description: 'Label 3 cards', changed: [] });
    expect(none.headers.get('x-planner-command-id')).toBeNull();
    expect(await commands()).toEqual(before);
    const bad = await api.http('POST', '/v1/command/label_cards', { cards: ids, add: ['0190f3a0-0000-7000-8000-00000000beef'] });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.field)).toEqual(['add.0']);
  });

  it('assigns resources to a set of cards, and refuses an unknown card with 422 assigning none', async () => {
    const ids = (await twentyCards()).slice(0, 2);
    const resource = (await ok('POST', '/v1/resource', { name: 'Jan', type: 'employee' }, 201)).id;
    const bad = await api.http('POST', '/v1/command/assign_cards', {
      cards: [ids[0], '0190f3a0-0000-7000-8000-00000000beef'],
      add: [resource],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.field)).toEqual(['cards.1.id']);
    expect((await ok('GET', `/v1/collection/${collectionId}/card/${ids[0]}?with=resources`)).resources).toEqual([]);
    const answer = await ok('POST', '/v1/command/assign_cards', { cards: ids, add: [resource] });
    expect(answer.description).toBe('Assign 2 cards');
    for (const id of ids)
      expect((await ok('GET', `/v1/collection/${collectionId}/card/${id}?with=resources`)).resources.map((r: any) => r.id)).toEqual([
        resource,
      ]);
  });

  it('gives a card to another person with its new dates as one command, and one undo takes both back', async () => {
    const [id] = await twentyCards();
    const [from, to] = [
      (await ok('POST', '/v1/resource', { name: 'Kees', type: 'employee' }, 201)).id,
      (await ok('POST', '/v1/resource', { name: 'Lot', type: 'employee' }, 201)).id,
    ];
    await ok('POST', '/v1/command/assign_cards', { cards: [id], add: [from] });
    const card = async () => {
      const read = await ok('GET', `/v1/collection/${collectionId}/card/${id}?with=resources`);
      return [read.start_date, read.end_date, read.resources.map((r: any) => r.id)];
    };
    // A move of a card that is not among the cards, or a field a drop does not set, changes nothing.
    for (const [move, field] of [
      [[{ id: '0190f3a0-0000-7000-8000-00000000beef', start_date: '2024-03-05' }], 'move.0.id'],
      [[{ id, stage_id: board.stages.Cutting }], 'move.0.stage_id'],
      [[{ id, start_date: '2024-03-09', end_date: '2024-03-08' }], 'move.0.end_date'],
    ] as const) {
      const bad = await api.http('POST', '/v1/command/assign_cards', { cards: [id], add: [to], remove: [from], move });
      expect(bad.status, JSON.stringify(bad.body)).toBe(422);
      expect(bad.body.errors.map((e: any) => e.field)).toEqual([field]);
      expect(await card()).toEqual(['2024-03-01', '2024-03-01', [from]]);
    }
    const answer = await ok('POST', '/v1/command/assign_cards', {
      cards: [id],
      add: [to],
      remove: [from],
      move: [{ id, start_date: '2024-03-05', end_date: '2024-03-05' }],
      description: 'Give Part 0 to Lot',
    });
    expect(answer.description).toBe('Give Part 0 to Lot');
    expect(await card()).toEqual(['2024-03-05', '2024-03-05', [to]]);
    await ok('POST', `/v1/command/${answer.command_id}/undo`);
    expect(await card()).toEqual(['2024-03-01', '2024-03-01', [from]]);
  });

  it('sets the status of time entries by the single-entry rules, and refuses a bad status with 422', async () => {
    const [cardId] = await twentyCards();
    const entries: string[] = [];
    for (let hour = 8; hour < 11; hour++) {
      const at = String(hour).padStart(2, '0');
      entries.push(
        (await ok('POST', '/v1/time_tracking', { card_id: cardId, start: `2024-03-04T${at}:00:00Z`, end: `2024-03-04T${at}:30:00Z` }, 201))
          .id,
      );
    }
    const bad = await api.http('POST', '/v1/command/set_time_status', { entries, status: 'done' });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.field)).toEqual(['status']);
    const answer = await ok('POST', '/v1/command/set_time_status', { entries, status: 'approved' });
    expect(answer.description).toBe('Set 3 time entries to approved');
    for (const id of entries) expect(await ok('GET', `/v1/time_tracking/${id}`)).toMatchObject({ status: 'approved', locked: true });
    // Rejected is no step from approved: the single-entry rules refuse it for every entry.
    const refused = await api.http('POST', '/v1/command/set_time_status', { entries, status: 'rejected' });
    expect(refused.status).toBe(422);
    expect(refused.body.errors.map((e: any) => e.field)).toEqual(['entries.0.status', 'entries.1.status', 'entries.2.status']);
    for (const id of entries) expect((await ok('GET', `/v1/time_tracking/${id}`)).status).toBe('approved');
  });

  it('edits a set of order rows, and refuses a bad value with its row path, editing none', async () => {
    const order = await ok('POST', '/v1/order', { code: 'CMD-1', order_rows: [{ description: 'first' }, { description: 'second' }] }, 201);
    const rows = (await ok('GET', `/v1/order/${order.id}/row`)).data.map((r: any) => r.id);
    const bad = await api.http('POST', '/v1/command/edit_order_rows', {
      rows: [
        { id: rows[0], quantity: 3 },
        { id: rows[1], quantity: 'two' },
      ],
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.field)).toEqual(['rows.1.quantity']);
    expect((await ok('GET', `/v1/order/${order.id}/row/${rows[0]}`)).quantity).not.toBe(3);
    const answer = await ok('POST', '/v1/command/edit_order_rows', {
      rows: [
        { id: rows[0], quantity: 3 },
        { id: rows[1], quantity: 4 },
      ],
    });
    expect(answer.description).toBe('Edit 2 order rows');
    expect((await ok('GET', `/v1/order/${order.id}/row/${rows[1]}`)).quantity).toBe(4);
    await ok('POST', `/v1/command/${answer.command_id}/undo`);
    expect((await ok('GET', `/v1/order/${order.id}/row/${rows[1]}`)).quantity).not.toBe(4);
  });
});

describe('undo on a replica that syncs', () => {
  it('writes the undo to the sync outbox like any other write', async () => {
    const folder = tempDir();
    const dataDir = DataDir.open(folder);
    const app = await buildApi({ dataDir, role: 'local' });
    try {
      const environment = dataDir.system.ensureEnvironment('desk');
      dataDir.system.ensureApiKey(environment.id, 'desk-key-123');
      await app.listen({ host: '127.0.0.1', port: 0 });
      const address = app.server.address();
      if (!address || typeof address === 'string') throw new Error('no port');
      const call = async (method: string, path: string, body?: unknown) => {
        const res = await fetch(`http://127.0.0.1:${address.port}${path}`, {
          method,
          headers: {
            'x-api-key': 'desk-key-123',
            'x-api-env': 'desk',
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
        });
        return { status: res.status, body: (await res.json()) as { id: string }, command: res.headers.get('x-planner-command-id') };
      };
      const made = await call('POST', '/v1/project', { name: 'Hall 1' });
      const renamed = await call('PUT', `/v1/project/${made.body.id}`, { name: 'Hall 2' });
      expect(renamed.status).toBe(200);
      const book = bookOf(dataDir.environment(environment.id));
      const queued = book.pendingCount();
      const undo = await call('POST', `/v1/command/${renamed.command}/undo`);
      expect(undo.status).toBe(200);
      const pending = book.pending(1000).slice(queued);
      expect(pending.map((m) => [m.resource, m.id, m.fields?.name])).toEqual([['project', made.body.id, 'Hall 1']]);
    } finally {
      await app.close();
      dataDir.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});

describe('commands and roles', () => {
  it("lets a member set their own entries pending, and refuses them undoing a planner's approval (403), which stays", async () => {
    const roles = await startRolesInstance('cmdroles');
    try {
      const { cardId } = await createCard(roles.byKey, 'Frames');
      const member = await roles.signIn('mia@example.com', 'member');
      const manager = await roles.signIn('max@example.com', 'manager');
      const entries: string[] = [];
      for (const at of ['08', '10']) {
        const made = await roles.byKey('POST', '/v1/time_tracking', {
          card_id: cardId,
          user_id: member.id,
          start: `2024-03-04T${at}:00:00Z`,
          end: `2024-03-04T${at}:30:00Z`,
        });
        expect(made.status, JSON.stringify(made.body)).toBe(201);
        entries.push(made.body.id);
      }
      const pending = await roles.as(member)('POST', '/v1/command/set_time_status', { entries, status: 'pending' });
      expect(pending.status, JSON.stringify(pending.body)).toBe(200);
      expectForbidden(await roles.as(member)('POST', '/v1/command/set_time_status', { entries, status: 'approved' }));
      const approved = await roles.as(manager)('POST', '/v1/command/set_time_status', { entries, status: 'approved' });
      expect(approved.status, JSON.stringify(approved.body)).toBe(200);
      expectForbidden(await roles.as(member)('POST', `/v1/command/${approved.body.command_id}/undo`));
      for (const id of entries)
        expect((await roles.byKey('GET', `/v1/time_tracking/${id}`)).body).toMatchObject({ status: 'approved', locked: true });
      const undone = await roles.as(manager)('POST', `/v1/command/${approved.body.command_id}/undo`);
      expect(undone.status, JSON.stringify(undone.body)).toBe(200);
      for (const id of entries)
        expect((await roles.byKey('GET', `/v1/time_tracking/${id}`)).body).toMatchObject({ status: 'pending', locked: false });
    } finally {
      await roles.stop();
    }
  });
});
