/**
 * What one answer may embed through `with` (docs/API.md "Relations"): every record counted each
 * time the answer holds it, at most 50,000, refused with a 400 that names the path and the figure
 * before the answer is built, on reads and on writes (which then write nothing); answers within
 * it are whole and the same JSON however they are written; a record the answer holds in many
 * places is one object in memory. Over real HTTP, on both store engines.
 *
 * The plan: one board, 10 orders of 10 cards (100 cards), 4 people with 25 cards each.
 */
import { describe, expect, it } from 'vitest';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest } from '../helpers/api-errors.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';
import { present } from '../../electron/api/records.js';
import { parseShapeOptions } from '../../electron/api/conventions/list-query.js';
import { cardModule } from '../../electron/api/resources/card.js';
import { tables } from '../../electron/api/tables.js';

let api: TestApi;
const ids = { board: '', collections: [] as string[], cards: [] as string[], people: [] as string[] };

async function made(method: string, path: string, body: unknown): Promise<any> {
  const res = await api.http(method, path, body);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return res.body;
}

useSeededApi(async (started) => {
  api = started;
  const board = await made('POST', '/v1/board?with=stages', {
    name: 'Shop floor',
    stages: [{ name: 'Cut' }, { name: 'Weld' }, { name: 'Paint' }],
    statuses: [{ name: 'To do' }],
  });
  ids.board = board.id;
  for (let p = 0; p < 4; p++) ids.people.push((await made('POST', '/v1/resource', { name: `Person ${p}` })).id);
  for (let c = 0; c < 10; c++) {
    const collection = await made('POST', '/v1/collection', { name: `Order ${c}`, board_id: board.id });
    ids.collections.push(collection.id);
    for (let i = 0; i < 10; i++) {
      const card = await made('POST', `/v1/collection/${collection.id}/card`, { stage_id: board.stages[i % 3].id, name: `Job ${c}-${i}` });
      ids.cards.push(card.id);
    }
  }
  for (let p = 0; p < 4; p++) {
    await made('POST', '/v1/command/assign_cards', { cards: ids.cards.filter((_, i) => i % 4 === p), add: [ids.people[p]] });
  }
});

describe('the with budget', () => {
  it('refuses a read that would embed more than 50,000 records with a 400 naming the path and the figure', async () => {
    // 100 cards, each one person, each of them 25 cards, each one person, each of them 25 cards.
    const path = 'cards.resources.cards.resources.cards';
    const res = await api.http('GET', `/v1/board/${ids.board}?with=${path}`);
    expectBadRequest(res, `with=${path}`, '67,700 records', 'at most 50,000');
  });

  it('refuses a list whose records share what they embed, counting every time a record appears, and answers one level less in full', async () => {
    // Each of 100 cards: its order, the order's 10 cards, their person each, that person's 25
    // cards each, their person each: 521, so 52,100 in all.
    expectBadRequest(
      await api.http('GET', '/v1/card?limit=100&with=collection.cards.resources.cards.resources'),
      'with=collection.cards.resources.cards.resources',
      '52,100 records',
      'at most 50,000',
    );
    // One level less: 27,100, an answer written in parts (docs/API.md "Relations"), the same
    // JSON as each card read on its own.
    const list = await api.http('GET', '/v1/card?limit=100&with=collection.cards.resources.cards');
    expect(list.status).toBe(200);
    expect(list.body.data).toHaveLength(100);
    for (const card of list.body.data) {
      expect(card.collection.cards).toHaveLength(10);
      for (const sibling of card.collection.cards) expect(sibling.resources[0].cards).toHaveLength(25);
    }
    for (const index of [0, 57, 99]) {
      const { id, collection_id: collection } = list.body.data[index];
      const one = await api.http('GET', `/v1/collection/${collection}/card/${id}?with=collection.cards.resources.cards`);
      expect(one.status).toBe(200);
      expect(list.body.data[index]).toEqual(one.body);
    }
  });

  it('refuses a write whose answer would pass the budget, and writes nothing', async () => {
    const path = 'cards.resources.cards.resources.cards';
    const res = await api.http('PUT', `/v1/board/${ids.board}?with=${path}`, { name: 'Renamed' });
    expectBadRequest(res, `with=${path}`, 'at most 50,000');
    expect((await api.http('GET', `/v1/board/${ids.board}`)).body.name).toBe('Shop floor');
    const within = await api.http('PUT', `/v1/board/${ids.board}?with=cards.resources`, { name: 'Shop floor' });
    expect(within.status).toBe(200);
    expect(within.body.cards).toHaveLength(100);
  });

  it('keeps a record embedded in many places as one object, also after show', async () => {
    // The engine's reads are the same code on both; the SQLite file holds the seeded plan in either project.
    const store = api.dataDir.environment(api.environment.id);
    const ctx = requestContext({ kind: 'api-key', environment: api.environment }, recordsOf(store));
    const cards = store.list(tables.card, { match: { collection_id: ids.collections[0] }, limit: 100, offset: 0 }).rows;
    for (const query of [{ with: 'collection,resources' }, { with: 'collection,resources', show: 'id,collection.name,resources.*.name' }]) {
      const answer = await present(ctx, cardModule, cards, parseShapeOptions(query));
      expect(answer).toHaveLength(10);
      expect(new Set(answer.map((card) => card.collection)).size).toBe(1);
      // Cards 0, 4 and 8 of the order are the first person's.
      const [first, , , , fifth, , , , ninth] = answer.map((card) => (card.resources as unknown[])[0]);
      expect(fifth).toBe(first);
      expect(ninth).toBe(first);
    }
  });
});
