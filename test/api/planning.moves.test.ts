/**
 * What happens after planning: moving a card under each `dependency_behavior` of the board
 * (electron/api/planning/card-moves.ts), planning again, moving back to the backlog
 * (`POST /v1/collection/{id}/backlog`), the collection fields that follow from its cards
 * (collection-state.ts) and the capacity endpoints counting the planned minutes (capacity.ts,
 * planned-work.ts).
 *
 * Calendar (March 2024), boards work Monday to Friday:
 *
 *   Mon 04  Tue 05  Wed 06  Thu 07  Fri 08 | Sat 09  Sun 10 | Mon 11  Tue 12  Wed 13  Thu 14  Fri 15 | Sat 16  Sun 17 | Mon 18  Tue 19
 *
 * The dependency scenarios all start from the same plan: stages Cutting (delay 1 day) →
 * Welding → Painting, Cut 960, Weld 480, Paint 960 from Mon 04, no resources (480 a day):
 *
 *   Cutting   Mon 04 … Tue 05
 *   (Wed 06 is Cutting's delay day)
 *   Welding   Thu 07
 *   Painting  Fri 08 … Mon 11
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import {
  cardsOf,
  createActivities,
  createBoard,
  createCollection,
  createResource,
  plan,
  spans,
  type Activities,
  type BoardIds,
  type StageSetup,
} from '../helpers/planning.js';

let api: TestApi;
let acts: Activities;

beforeAll(async () => {
  api = await startTestApi();
  acts = await createActivities(api);
});
afterAll(async () => {
  await api.close();
});

const threeStages: StageSetup[] = [
  { name: 'Cutting', activities: ['Cut'], delay_day: 1 },
  { name: 'Welding', activities: ['Weld'] },
  { name: 'Painting', activities: ['Paint'] },
  { name: 'Docs', activities: ['Design'], independent: true },
];

const basePlan = ['Cutting: 2024-03-04..2024-03-05', 'Welding: 2024-03-07..2024-03-07', 'Painting: 2024-03-08..2024-03-11'];

interface Scenario {
  board: BoardIds;
  collectionId: string;
  /** Card id by stage name. */
  card: Record<string, string>;
}

async function scenario(behavior: 'notify' | 'push' | 'maintain', withDocs = false): Promise<Scenario> {
  const board = await createBoard(api, acts, { dependency_behavior: behavior, stages: threeStages });
  const minutes: Record<string, number> = { Cut: 960, Weld: 480, Paint: 960, ...(withDocs ? { Design: 480 } : {}) };
  const collection = await createCollection(api, board.id, acts, minutes);
  const planned = await plan(api, collection.id, board.id, { start: '2024-03-04' });
  const card = Object.fromEntries(planned.cards.map((c: any) => [board.stageName(c.stage_id), c.id]));
  expect(spans(await cardsOf(api, collection.id, board, acts)).filter((s) => !s.startsWith('Docs'))).toEqual(basePlan);
  return { board, collectionId: collection.id, card };
}

async function moveCard(s: Scenario, stage: string, dates: { start_date?: string; end_date?: string }): Promise<any> {
  const res = await api.inject('PUT', `/v1/collection/${s.collectionId}/card/${s.card[stage]}`, dates);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

async function collectionOf(s: Scenario): Promise<any> {
  return (await api.inject('GET', `/v1/collection/${s.collectionId}`)).body;
}

describe('moving a card: dependency_behavior notify', () => {
  it('leaves the later cards where they are and warns that Welding now starts too early', async () => {
    const s = await scenario('notify');
    // Cutting now ends Thu 07; with its delay day (Fri 08) Welding could start Mon 11 at the earliest.
    await moveCard(s, 'Cutting', { end_date: '2024-03-07' });
    expect(spans(await cardsOf(api, s.collectionId, s.board, acts))).toEqual([
      'Cutting: 2024-03-04..2024-03-07',
      'Welding: 2024-03-07..2024-03-07',
      'Painting: 2024-03-08..2024-03-11',
    ]);
    expect((await collectionOf(s)).warnings).toEqual([
      'Stage Welding starts on 2024-03-07, before stage Cutting is done (earliest 2024-03-11)',
    ]);
  });

  it('drops the warning when the card is moved back', async () => {
    const s = await scenario('notify');
    await moveCard(s, 'Cutting', { end_date: '2024-03-07' });
    await moveCard(s, 'Cutting', { end_date: '2024-03-05' });
    expect((await collectionOf(s)).warnings).toEqual([]);
  });

  it('warns about every stage that starts too early', async () => {
    const s = await scenario('notify');
    // Welding ends Tue 12 (after Painting starts Fri 08); Welding itself starts too early too.
    await moveCard(s, 'Cutting', { end_date: '2024-03-07' });
    await moveCard(s, 'Welding', { end_date: '2024-03-12' });
    expect((await collectionOf(s)).warnings).toEqual([
      'Stage Welding starts on 2024-03-07, before stage Cutting is done (earliest 2024-03-11)',
      'Stage Painting starts on 2024-03-08, before stage Welding is done (earliest 2024-03-13)',
    ]);
  });
});

describe('moving a card: dependency_behavior push', () => {
  it('moves the later dependent stages just enough, keeping their length in workdays', async () => {
    const s = await scenario('push');
    // Cutting ends Thu 07 → delay Fri 08 → Welding Mon 11 (+2 workdays).
    // Welding ends Mon 11 → Painting from Tue 12; 2 workdays: Tue 12 … Wed 13.
    await moveCard(s, 'Cutting', { end_date: '2024-03-07' });
    expect(spans(await cardsOf(api, s.collectionId, s.board, acts))).toEqual([
      'Cutting: 2024-03-04..2024-03-07',
      'Welding: 2024-03-11..2024-03-11',
      'Painting: 2024-03-12..2024-03-13',
    ]);
    const collection = await collectionOf(s);
    expect(collection).toMatchObject({ start: '2024-03-04', end: '2024-03-13', warnings: [] });
  });

  it('never pulls later cards back when a card ends earlier', async () => {
    const s = await scenario('push');
    await moveCard(s, 'Cutting', { end_date: '2024-03-04' });
    expect(spans(await cardsOf(api, s.collectionId, s.board, acts))).toEqual([
      'Cutting: 2024-03-04..2024-03-04',
      'Welding: 2024-03-07..2024-03-07',
      'Painting: 2024-03-08..2024-03-11',
    ]);
  });

  it('leaves a later card alone when there is slack, and moves it only by what is missing', async () => {
    const s = await scenario('push');
    // Painting is the last stage: moving it moves nothing else.
    await moveCard(s, 'Painting', { start_date: '2024-03-12', end_date: '2024-03-13' });
    // Welding to Fri 08: Painting may start Mon 11; it starts Tue 12 → stays.
    await moveCard(s, 'Welding', { end_date: '2024-03-08' });
    expect(spans(await cardsOf(api, s.collectionId, s.board, acts)).slice(1)).toEqual([
      'Welding: 2024-03-07..2024-03-08',
      'Painting: 2024-03-12..2024-03-13',
    ]);
    // Welding to Tue 12: Painting may start Wed 13; it starts Tue 12 → one workday later.
    await moveCard(s, 'Welding', { end_date: '2024-03-12' });
    expect(spans(await cardsOf(api, s.collectionId, s.board, acts)).slice(1)).toEqual([
      'Welding: 2024-03-07..2024-03-12',
      'Painting: 2024-03-13..2024-03-14',
    ]);
  });

  it('never moves an earlier stage or an independent one', async () => {
    const s = await scenario('push', true);
    await moveCard(s, 'Welding', { start_date: '2024-03-11', end_date: '2024-03-12' });
    const cards = spans(await cardsOf(api, s.collectionId, s.board, acts));
    expect(cards).toEqual([
      'Cutting: 2024-03-04..2024-03-05',
      'Welding: 2024-03-11..2024-03-12',
      // Welding ends Tue 12 → Painting Wed 13 … Thu 14.
      'Painting: 2024-03-13..2024-03-14',
      'Docs: 2024-03-04..2024-03-04',
    ]);
  });
});

describe('moving a card: dependency_behavior maintain', () => {
  it('moves the later dependent cards by the same number of workdays (later)', async () => {
    const s = await scenario('maintain');
    // Cutting's end: Tue 05 → Thu 07 = +2 workdays. Welding Thu 07 → Mon 11; Painting Fri 08 … Mon 11 → Tue 12 … Wed 13.
    await moveCard(s, 'Cutting', { end_date: '2024-03-07' });
    expect(spans(await cardsOf(api, s.collectionId, s.board, acts))).toEqual([
      'Cutting: 2024-03-04..2024-03-07',
      'Welding: 2024-03-11..2024-03-11',
      'Painting: 2024-03-12..2024-03-13',
    ]);
  });

  it('moves them earlier as well', async () => {
    const s = await scenario('maintain');
    // Cutting's end: Tue 05 → Mon 04 = −1 workday. Welding Thu 07 → Wed 06; Painting Fri 08 … Mon 11 → Thu 07 … Fri 08.
    await moveCard(s, 'Cutting', { end_date: '2024-03-04' });
    expect(spans(await cardsOf(api, s.collectionId, s.board, acts))).toEqual([
      'Cutting: 2024-03-04..2024-03-04',
      'Welding: 2024-03-06..2024-03-06',
      'Painting: 2024-03-07..2024-03-08',
    ]);
    expect((await collectionOf(s)).warnings).toEqual([]);
  });

  it('keeps the gaps even when there is slack (where push would not move)', async () => {
    const s = await scenario('maintain');
    await moveCard(s, 'Painting', { start_date: '2024-03-14', end_date: '2024-03-15' });
    // +2 workdays: Welding Thu 07 → Mon 11; Painting Thu 14 … Fri 15 → Mon 18 … Tue 19.
    await moveCard(s, 'Cutting', { end_date: '2024-03-07' });
    expect(spans(await cardsOf(api, s.collectionId, s.board, acts))).toEqual([
      'Cutting: 2024-03-04..2024-03-07',
      'Welding: 2024-03-11..2024-03-11',
      'Painting: 2024-03-18..2024-03-19',
    ]);
  });

  it('leaves an independent stage where it is', async () => {
    const s = await scenario('maintain', true);
    await moveCard(s, 'Cutting', { end_date: '2024-03-07' });
    expect(spans(await cardsOf(api, s.collectionId, s.board, acts))).toContain('Docs: 2024-03-04..2024-03-04');
  });

  it('does nothing when a card changes without moving', async () => {
    const s = await scenario('maintain');
    const res = await api.inject('PUT', `/v1/collection/${s.collectionId}/card/${s.card.Cutting}`, {
      description: 'Sharpen the blades first',
    });
    expect(res.status).toBe(200);
    expect(spans(await cardsOf(api, s.collectionId, s.board, acts))).toEqual(basePlan);
  });
});

describe('moving a card of an independent stage', () => {
  /**
   * Cutting → Design (independent) → Welding, from Wed 06: Cutting Wed 06, Design Wed 06,
   * Welding Thu 07. Welding depends on Cutting, not on Design (an independent stage is not
   * part of the chain: plan.ts, and collection-state.ts leaves it out of the warnings).
   */
  async function withIndependentMiddle(behavior: 'push' | 'maintain') {
    const board = await createBoard(api, acts, {
      dependency_behavior: behavior,
      stages: [
        { name: 'Cutting', activities: ['Cut'] },
        { name: 'Design', activities: ['Design'], independent: true },
        { name: 'Welding', activities: ['Weld'] },
      ],
    });
    const collection = await createCollection(api, board.id, acts, { Cut: 480, Design: 480, Weld: 480 });
    const planned = await plan(api, collection.id, board.id, { start: '2024-03-06' });
    const design = planned.cards.find((c: any) => c.stage_id === board.stages.Design);
    expect(spans(await cardsOf(api, collection.id, board, acts))).toEqual([
      'Cutting: 2024-03-06..2024-03-06',
      'Design: 2024-03-06..2024-03-06',
      'Welding: 2024-03-07..2024-03-07',
    ]);
    return { board, collection, design };
  }

  it.each(['push', 'maintain'] as const)('%s: moving the independent card later moves no dependent stage', async (behavior) => {
    const { board, collection, design } = await withIndependentMiddle(behavior);
    const res = await api.inject('PUT', `/v1/collection/${collection.id}/card/${design.id}`, { end_date: '2024-03-11' });
    expect(res.status).toBe(200);
    expect(spans(await cardsOf(api, collection.id, board, acts))).toEqual([
      'Cutting: 2024-03-06..2024-03-06',
      'Design: 2024-03-06..2024-03-11',
      'Welding: 2024-03-07..2024-03-07',
    ]);
    expect((await api.inject('GET', `/v1/collection/${collection.id}`)).body.warnings).toEqual([]);
  });
});

describe('planning again and moving back to the backlog', () => {
  it('re-planning replaces the previous cards', async () => {
    const board = await createBoard(api, acts, { stages: threeStages });
    const collection = await createCollection(api, board.id, acts, { Cut: 480, Weld: 480 });
    const first = await plan(api, collection.id, board.id, { start: '2024-03-04' });
    const second = await plan(api, collection.id, board.id, { start: '2024-03-11' });
    expect(spans(await cardsOf(api, collection.id, board, acts))).toEqual([
      'Cutting: 2024-03-11..2024-03-11',
      // Cutting's delay day Tue 12.
      'Welding: 2024-03-13..2024-03-13',
    ]);
    expect(second.cards).toHaveLength(2);
    for (const old of first.cards) {
      expect((await api.inject('GET', `/v1/collection/${collection.id}/card/${old.id}`)).status).toBe(404);
    }
    const all = await api.inject('GET', `/v1/card?filter=collection_id:eq:${collection.id}&limit=0`);
    expect(all.body.count).toBe(2);
    expect(second).toMatchObject({ start: '2024-03-11', end: '2024-03-13', status: 'planned' });
  });

  it('planning onto another board moves the collection there', async () => {
    const a = await createBoard(api, acts, { stages: threeStages });
    const b = await createBoard(api, acts, { stages: [{ name: 'Welding', activities: ['Weld', 'Cut'] }] });
    const collection = await createCollection(api, a.id, acts, { Cut: 480, Weld: 480 });
    await plan(api, collection.id, a.id, { start: '2024-03-04' });
    const moved = await plan(api, collection.id, b.id, { start: '2024-03-04' });
    expect(moved.board_id).toBe(b.id);
    expect(spans(await cardsOf(api, collection.id, b, acts))).toEqual(['Welding: 2024-03-04..2024-03-05']);
    const onA = await api.inject('GET', `/v1/card?filter=board_id:eq:${a.id}&limit=0`);
    expect(onA.body.count).toBe(0);
  });

  it('POST /v1/collection/{id}/backlog removes the cards and sets the collection back to not_planned', async () => {
    const board = await createBoard(api, acts, { stages: threeStages });
    const collection = await createCollection(api, board.id, acts, { Cut: 480, Weld: 480 }, { due_date: '2024-03-04' });
    const planned = await plan(api, collection.id, board.id, { start: '2024-03-04' });
    expect(planned.warnings).toHaveLength(1);

    const res = await api.inject('POST', `/v1/collection/${collection.id}/backlog`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({ id: collection.id, status: 'not_planned', start: null, end: null, progress: 'open', warnings: [] });
    expect((await api.inject('GET', `/v1/collection/${collection.id}/card?limit=0`)).body.count).toBe(0);
    for (const old of planned.cards) {
      expect((await api.inject('GET', `/v1/collection/${collection.id}/card/${old.id}`)).status).toBe(404);
    }
    // Back in the backlog, the client may ignore it again, and it can be planned again.
    expect((await api.inject('PUT', `/v1/collection/${collection.id}`, { status: 'ignored' })).status).toBe(200);
    await api.inject('PUT', `/v1/collection/${collection.id}`, { status: 'not_planned' });
    expect((await plan(api, collection.id, board.id, { start: '2024-03-04' })).cards).toHaveLength(2);
  });

  it('backlog of an unknown collection is a 404', async () => {
    const res = await api.inject('POST', '/v1/collection/01234567-89ab-7def-8123-456789abcdef/backlog');
    expect(res.status).toBe(404);
  });
});

describe('collection fields that follow from its cards', () => {
  async function planned(): Promise<{ board: BoardIds; collection: any }> {
    const board = await createBoard(api, acts, { stages: threeStages });
    const c = await createCollection(api, board.id, acts, { Cut: 480, Weld: 480 });
    return { board, collection: await plan(api, c.id, board.id, { start: '2024-03-04' }) };
  }
  const cardOn = (collection: any, board: BoardIds, stage: string) => collection.cards.find((c: any) => c.stage_id === board.stages[stage]);
  const put = async (collection: any, card: any, body: unknown) => {
    const res = await api.inject('PUT', `/v1/collection/${collection.id}/card/${card.id}`, body);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const get = async (collection: any) => (await api.inject('GET', `/v1/collection/${collection.id}`)).body;

  it('start and end are the first start and the last end of the cards', async () => {
    const { board, collection } = await planned();
    // Cutting Mon 04, (delay Tue 05) Welding Wed 06.
    expect(collection).toMatchObject({ start: '2024-03-04', end: '2024-03-06' });
    await put(collection, cardOn(collection, board, 'Cutting'), { start_date: '2024-03-01' });
    await put(collection, cardOn(collection, board, 'Welding'), { end_date: '2024-03-20' });
    expect(await get(collection)).toMatchObject({ start: '2024-03-01', end: '2024-03-20' });
  });

  it('progress is open, partial or done by the exit statuses of the cards', async () => {
    const { board, collection } = await planned();
    expect(collection.progress).toBe('open');
    const cutting = await put(collection, cardOn(collection, board, 'Cutting'), { status_id: board.statuses.Done });
    expect(cutting.completed_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/);
    expect((await get(collection)).progress).toBe('partial');
    await put(collection, cardOn(collection, board, 'Welding'), { status_id: board.statuses.Done });
    expect((await get(collection)).progress).toBe('done');
    const reopened = await put(collection, cardOn(collection, board, 'Cutting'), { status_id: board.statuses.Backlog });
    expect(reopened.completed_at).toBeNull();
    expect((await get(collection)).progress).toBe('partial');
  });

  it('the status is planned while the collection has cards, and not_planned when the last one goes', async () => {
    const { board, collection } = await planned();
    expect(collection.status).toBe('planned');
    expect((await api.inject('DELETE', `/v1/collection/${collection.id}/card/${cardOn(collection, board, 'Cutting').id}`)).status).toBe(
      204,
    );
    expect(await get(collection)).toMatchObject({ status: 'planned', start: '2024-03-06', end: '2024-03-06' });
    expect((await api.inject('DELETE', `/v1/collection/${collection.id}/card/${cardOn(collection, board, 'Welding').id}`)).status).toBe(
      204,
    );
    expect(await get(collection)).toMatchObject({ status: 'not_planned', start: null, end: null, progress: 'open' });
  });

  it('a card created by hand makes a backlog collection planned', async () => {
    const board = await createBoard(api, acts, { stages: threeStages });
    const c = await createCollection(api, board.id, acts, {});
    const res = await api.inject('POST', `/v1/collection/${c.id}/card`, {
      stage_id: board.stages.Welding,
      start_date: '2024-03-05',
      end_date: '2024-03-06',
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(await get(c)).toMatchObject({ status: 'planned', start: '2024-03-05', end: '2024-03-06' });
  });

  it('warns when the end passes the due date, and stops warning when it no longer does', async () => {
    const { board, collection } = await planned();
    await api.inject('PUT', `/v1/collection/${collection.id}`, { due_date: '2024-03-08' });
    await put(collection, cardOn(collection, board, 'Welding'), { end_date: '2024-03-11' });
    expect((await get(collection)).warnings).toEqual(['Planned to end on 2024-03-11, after the due date 2024-03-08']);
    await put(collection, cardOn(collection, board, 'Welding'), { end_date: '2024-03-08' });
    expect((await get(collection)).warnings).toEqual([]);
  });

  it('the due-date warning follows a change of the due date itself', async () => {
    const { collection } = await planned();
    // Planned end Wed 06; a due date of Tue 05 is passed.
    const res = await api.inject('PUT', `/v1/collection/${collection.id}`, { due_date: '2024-03-05' });
    expect(res.status).toBe(200);
    expect((await get(collection)).warnings).toEqual(['Planned to end on 2024-03-06, after the due date 2024-03-05']);
    await api.inject('PUT', `/v1/collection/${collection.id}`, { due_date: '2024-03-29' });
    expect((await get(collection)).warnings).toEqual([]);
  });

  it('the server-owned fields cannot be written by a client', async () => {
    const { collection } = await planned();
    const res = await api.inject('PUT', `/v1/collection/${collection.id}`, {
      start: '2020-01-01',
      end: '2030-01-01',
      progress: 'done',
      warnings: ['hello'],
      position: 99,
      source_type: 'order',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      start: '2024-03-04',
      end: '2024-03-06',
      progress: 'open',
      warnings: [],
      position: collection.position,
      source_type: 'custom',
    });
  });
});

describe('capacity counts the planned minutes', () => {
  /**
   * Board Cutting → Welding; Anna (8 h) on Cutting at 100 %. Planned with Anna from Mon 04:
   * Cut 600 → Mon 480 + Tue 120 → Mon … Tue; Weld 480 → (Anna has no Welding entry: default 100 %) Wed.
   * Capacity spreads a card's minutes evenly over its workdays: Cutting 300 + 300, Welding 480.
   */
  let board: BoardIds;
  let anna: string;
  beforeAll(async () => {
    board = await createBoard(api, acts, {
      stages: [
        { name: 'Cutting', activities: ['Cut'] },
        { name: 'Welding', activities: ['Weld'] },
      ],
    });
    anna = await createResource(api, { name: 'Anna', board: { ids: board, percentages: { Cutting: 100 } } });
    const c = await createCollection(api, board.id, acts, { Cut: 600, Weld: 480 });
    const planned = await plan(api, c.id, board.id, { start: '2024-03-04', resources: [anna] });
    expect(spans(await cardsOf(api, c.id, board, acts))).toEqual(['Cutting: 2024-03-04..2024-03-05', 'Welding: 2024-03-06..2024-03-06']);
    expect(planned.cards).toHaveLength(2);
  });
  const capacity = async (view: string, query: string) => {
    const res = await api.inject(
      'GET',
      `/v1/board/${board.id}/capacity/${view}?date_range_start=2024-03-04&date_range_end=2024-03-10&${query}`,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };

  it("per stage and day: time_planned spread over the card's workdays", async () => {
    const body = await capacity('stage', 'time_frame=day');
    const table = body.data.map((row: any) => [
      row.date,
      ...row.stage.map((s: any) => `${board.stageName(s.id)} ${s.time_available}/${s.time_planned}`),
    ]);
    expect(table).toEqual([
      ['2024-03-04', 'Cutting 480/300', 'Welding 0/0'],
      ['2024-03-05', 'Cutting 480/300', 'Welding 0/0'],
      ['2024-03-06', 'Cutting 480/0', 'Welding 0/480'],
      ['2024-03-07', 'Cutting 480/0', 'Welding 0/0'],
      ['2024-03-08', 'Cutting 480/0', 'Welding 0/0'],
      ['2024-03-09', 'Cutting 0/0', 'Welding 0/0'],
      ['2024-03-10', 'Cutting 0/0', 'Welding 0/0'],
    ]);
  });

  it('per stage and week: the sums', async () => {
    const body = await capacity('stage', 'time_frame=week');
    expect(body.data).toHaveLength(1);
    expect(body.data[0].stage.map((s: any) => [board.stageName(s.id), s.time_available, s.time_planned])).toEqual([
      ['Cutting', 2400, 600],
      ['Welding', 0, 480],
    ]);
  });

  it('per resource: the minutes of the cards the resource is assigned to', async () => {
    const body = await capacity('resource', 'time_frame=day');
    const annaByDay = body.data.map((row: any) => {
      const r = row.resource.find((x: any) => x.id === anna);
      return `${row.date} ${r.time_available}/${r.time_planned}`;
    });
    expect(annaByDay).toEqual([
      '2024-03-04 480/300',
      '2024-03-05 480/300',
      '2024-03-06 480/480',
      '2024-03-07 480/0',
      '2024-03-08 480/0',
      '2024-03-09 0/0',
      '2024-03-10 0/0',
    ]);
  });

  it("per resource type within a stage: by the activities' resource type", async () => {
    const body = await capacity('resource_type/stage', 'time_frame=week');
    const cutting = body.data[0].stage.find((s: any) => s.id === board.stages.Cutting);
    expect(cutting.resource_type).toEqual([
      { type: 'machine', time_available: 0, time_planned: 0 },
      { type: 'cell', time_available: 0, time_planned: 0 },
      { type: 'employee', time_available: 2400, time_planned: 600 },
    ]);
  });

  it('stops counting the cards once the collection is back in the backlog', async () => {
    const other = await createBoard(api, acts, { stages: [{ name: 'Cutting', activities: ['Cut'] }] });
    const c = await createCollection(api, other.id, acts, { Cut: 960 });
    await plan(api, c.id, other.id, { start: '2024-03-04' });
    const url = `/v1/board/${other.id}/capacity/stage?date_range_start=2024-03-04&date_range_end=2024-03-08&time_frame=week`;
    expect((await api.inject('GET', url)).body.data[0].stage[0].time_planned).toBe(960);
    await api.inject('POST', `/v1/collection/${c.id}/backlog`);
    expect((await api.inject('GET', url)).body.data[0].stage[0].time_planned).toBe(0);
  });

  it('a card across a weekend counts only on its workdays', async () => {
    const other = await createBoard(api, acts, { stages: [{ name: 'Cutting', activities: ['Cut'] }] });
    const c = await createCollection(api, other.id, acts, { Cut: 1440 });
    await plan(api, c.id, other.id, { start: '2024-03-07' });
    const res = await api.inject('GET', `/v1/board/${other.id}/capacity/stage?date_range_start=2024-03-07&date_range_end=2024-03-11`);
    expect(res.body.data.map((row: any) => `${row.date} ${row.stage[0].time_planned}`)).toEqual([
      '2024-03-07 480',
      '2024-03-08 480',
      '2024-03-09 0',
      '2024-03-10 0',
      '2024-03-11 480',
    ]);
  });
});
