/**
 * Base data over real HTTP: boards (docs/API.md "Board") with everything written inline —
 * stages with their activities, labels, statuses with entry/exit, custom field definitions —
 * the board's own sub-resources at `/v1/board/{board_id}/label|status|view|checklist|custom_field`,
 * and spaces (§4.8), which group boards.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import {
  create,
  expectErrorBody,
  expectFieldErrors,
  expectGone,
  expectNotFound,
  get,
  ids,
  officeWeek,
  otherEnvironment,
  remove,
  timestampPattern,
  unknownId,
  update,
  uuidPattern,
  without,
} from '../helpers/base-data.js';

let api: TestApi;
let weld: any;
let paint: any;
let space: any;

const everything = 'with=stages.activities,labels,statuses,custom_fields,views,checklists,space';

useSeededApi(async (started) => {
  api = started;
  weld = await create(api, '/v1/activity', { description: 'Weld', resource_type: 'machine' });
  paint = await create(api, '/v1/activity', { description: 'Paint' });
  space = await create(api, '/v1/space', { name: 'Factory', description: 'Hall A and B' });
});

/** The board of the public example: two stages, three labels, an entry and an exit status. */
const deepBoard = () => ({
  name: 'Production',
  color: 'navy',
  visibility: 'restricted',
  capacity_method: 'estimated_time',
  split_cards_by_activity: true,
  own_backlog: true,
  dependency_behavior: 'push',
  workdays: { ...officeWeek, '6': true },
  space_id: space.id,
  stages: [
    { name: 'Welding', priority: 0, delay_day: 1, efficiency: 80, default_percentage: 50, activities: [{ id: weld.id, priority: 1 }] },
    {
      name: 'Painting',
      priority: 1,
      independent: true,
      activities: [
        { id: paint.id, priority: 0 },
        { id: weld.id, priority: 2 },
      ],
    },
  ],
  labels: [
    { name: 'Rush', color: 'red', priority: 0 },
    { name: 'Export', color: 'skyblue', priority: 1 },
  ],
  statuses: [
    { name: 'New', color: 'grey', priority: 0, entry: true },
    { name: 'Done', color: 'green', priority: 1, exit: true },
  ],
  custom_fields: [{ name: 'Weight', type: 'number', scope: 'card', priority: 0, options: { unit: 'kg', decimals: 1 } }],
});

/** The tree of a board, names only, for comparing shapes. */
function tree(board: any) {
  return {
    stages: board.stages.map((s: any) => ({ name: s.name, activities: s.activities.map((a: any) => [a.description, a.priority]) })),
    labels: board.labels.map((l: any) => l.name),
    statuses: board.statuses.map((s: any) => [s.name, s.entry, s.exit]),
    custom_fields: board.custom_fields.map((c: any) => c.name),
  };
}

describe('board', () => {
  it('creates a board with stages (and their activities), labels, statuses and custom fields in one POST', async () => {
    const res = await api.http('POST', `/v1/board?${everything}`, deepBoard());
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const board = res.body;
    expect(board).toMatchObject({
      name: 'Production',
      color: 'navy',
      visibility: 'restricted',
      capacity_method: 'estimated_time',
      split_cards_by_activity: true,
      own_backlog: true,
      dependency_behavior: 'push',
      workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': false },
      space_id: space.id,
      card_lock_options: [],
      permission_set: 'admin',
      external_ref: null,
      archived_at: null,
      views: [],
      checklists: [],
      space: { id: space.id, name: 'Factory' },
    });
    expect(board.id).toMatch(uuidPattern);
    expect(board.created_at).toMatch(timestampPattern);
    expect(tree(board)).toEqual({
      stages: [
        { name: 'Welding', activities: [['Weld', 1]] },
        {
          name: 'Painting',
          activities: [
            ['Paint', 0],
            ['Weld', 2],
          ],
        },
      ],
      labels: ['Rush', 'Export'],
      statuses: [
        ['New', true, false],
        ['Done', false, true],
      ],
      custom_fields: ['Weight'],
    });
    // Every nested record belongs to the board and has its own id.
    for (const child of [...board.stages, ...board.labels, ...board.statuses, ...board.custom_fields]) {
      expect(child.board_id).toBe(board.id);
      expect(child.id).toMatch(uuidPattern);
    }
    expect(board.stages[0]).toMatchObject({ delay_day: 1, efficiency: 80, default_percentage: 50, independent: false });
    expect(board.stages[1]).toMatchObject({ delay_day: 0, efficiency: 100, default_percentage: 100, independent: true });
    expect(board.custom_fields[0]).toMatchObject({ type: 'number', scope: 'card', options: { unit: 'kg', decimals: 1 }, list: null });

    // GET with the same relations returns the same tree.
    expect(await get(api, `/v1/board/${board.id}?${everything}`)).toStrictEqual(board);
    // Without `with` the board comes alone.
    const plain = await get(api, `/v1/board/${board.id}`);
    expect(plain).not.toHaveProperty('stages');
    expect(plain).not.toHaveProperty('labels');
    // The nested stages are stages like any other.
    const stage = await get(api, `/v1/stage/${board.stages[0].id}?with=board,activities`);
    expect(stage.board.id).toBe(board.id);
    expect(stage.activities.map((a: any) => [a.id, a.priority])).toEqual([[weld.id, 1]]);
  });

  it('fills the documented defaults', async () => {
    const board = await create(api, '/v1/board', { name: 'Defaults' });
    expect(board).toMatchObject({
      color: 'transparent',
      visibility: 'everyone',
      capacity_method: 'individual',
      split_cards_by_activity: false,
      own_backlog: false,
      dependency_behavior: 'notify',
      workdays: officeWeek,
      space_id: null,
    });
    const label = await create(api, `/v1/board/${board.id}/label`, { name: 'Plain' });
    expect(label).toMatchObject({ color: 'grey', priority: 0 });
    const status = await create(api, `/v1/board/${board.id}/status`, { name: 'Plain' });
    expect(status).toMatchObject({ color: 'grey', priority: 0, entry: false, exit: false });
    const field = await create(api, `/v1/board/${board.id}/custom_field`, { name: 'Plain' });
    expect(field).toMatchObject({ type: 'text', scope: 'collection', priority: 0, options: null, list: null });
  });

  it('lists boards in the envelope and reads views, checklists and space through `with`', async () => {
    const board = await create(api, '/v1/board', { name: 'With views', space_id: space.id });
    const view = await create(api, `/v1/board/${board.id}/view`, { name: 'Capacity', type: 'capacity', settings: { zoom: 'week' } });
    const checklist = await create(api, `/v1/board/${board.id}/checklist`, { name: 'Quality', items: [{ description: 'Check welds' }] });
    const got = await get(api, `/v1/board/${board.id}?${everything}`);
    expect(ids(got.views)).toEqual([view.id]);
    expect(ids(got.checklists)).toEqual([checklist.id]);
    expect(got.space.id).toBe(space.id);
    const list = await get(api, `/v1/board?filter=id:eq:${board.id}&with=views`);
    expect(list).toMatchObject({ count: 1, limit: 100, offset: 0 });
    expect(ids(list.data[0].views)).toEqual([view.id]);
  });

  describe('cards (with=cards, filter cards.…)', () => {
    const statuses = [{ name: 'Open', entry: true }];
    /** A board with one stage, and a card on it in a collection of its own per name. */
    async function boardWithCards(on: TestApi, name: string, cards: string[]) {
      const board = await create(on, '/v1/board?with=stages', { name, stages: [{ name: 'Saw' }], statuses });
      const made = [];
      for (const card of cards) {
        const collection = await create(on, '/v1/collection', { name: `${name}: ${card}`, board_id: board.id });
        made.push(await create(on, `/v1/collection/${collection.id}/card`, { stage_id: board.stages[0].id, name: card }));
      }
      return { board, cards: made };
    }

    it('reads the cards on a board, across its collections and only its own', async () => {
      const { board, cards } = await boardWithCards(api, 'Carded', ['Legs', 'Top']);
      const { board: otherBoard, cards: otherCards } = await boardWithCards(api, 'Carded elsewhere', ['Legs']);
      const { board: empty } = await boardWithCards(api, 'Not carded', []);
      expect(ids((await get(api, `/v1/board/${board.id}?with=cards`)).cards)).toEqual(ids(cards));
      expect(ids((await get(api, `/v1/board/${otherBoard.id}?with=cards`)).cards)).toEqual(ids(otherCards));
      expect((await get(api, `/v1/board/${empty.id}?with=cards`)).cards).toEqual([]);

      // In a list each board gets its own, and the cards load their relations in turn.
      const list = await get(api, `/v1/board?filter=id:eq:${board.id},or,id:eq:${otherBoard.id}&with=cards.collection&sort=name`);
      expect(list.data.map((b: any) => [b.id, ids(b.cards)])).toEqual([
        [board.id, ids(cards)],
        [otherBoard.id, ids(otherCards)],
      ]);
      expect(list.data[0].cards[1].collection.name).toBe('Carded: Top');

      // A deleted card is no longer among them.
      await remove(api, `/v1/collection/${cards[1].collection_id}/card/${cards[1].id}`);
      expect(ids((await get(api, `/v1/board/${board.id}?with=cards`)).cards)).toEqual([cards[0].id]);
    });

    it('filters boards by their cards: cards.<field> and cards:has:<id>', async () => {
      const { board, cards } = await boardWithCards(api, 'Filtered by cards', ['Unique chair leg']);
      const { board: otherBoard, cards: otherCards } = await boardWithCards(api, 'Filtered by other cards', ['Unique table top']);
      expect(ids((await get(api, `/v1/board?filter=cards.name:eq:'Unique chair leg'`)).data)).toEqual([board.id]);
      expect(ids((await get(api, `/v1/board?filter=cards:has:${otherCards[0].id}`)).data)).toEqual([otherBoard.id]);
      expect(ids((await get(api, `/v1/board?filter=cards.name:starts_with:Unique,and,cards:not:has:${cards[0].id}`)).data)).toEqual([
        otherBoard.id,
      ]);
    });

    it("never shows another environment's cards, whatever with or filter asks", async () => {
      const { board, cards } = await boardWithCards(api, 'Ours', ['Shared name']);
      const other = otherEnvironment(api);
      const { board: theirs, cards: theirCards } = await boardWithCards(other, 'Theirs', ['Shared name']);
      expect(ids((await get(api, `/v1/board/${board.id}?with=cards`)).cards)).toEqual(ids(cards));
      expect(ids((await get(other, `/v1/board/${theirs.id}?with=cards`)).cards)).toEqual(ids(theirCards));
      expect(ids((await get(api, `/v1/board?filter=cards.name:eq:'Shared name'`)).data)).toEqual([board.id]);
      expect(ids((await get(other, `/v1/board?filter=cards.name:eq:'Shared name'`)).data)).toEqual([theirs.id]);
      expect((await get(api, `/v1/board?filter=cards:has:${theirCards[0].id}`)).count).toBe(0);
      expectNotFound(await other.http('GET', `/v1/board/${board.id}?with=cards`));
    });
  });

  it('updates only the fields sent; nested arrays sent replace the set: items with id are updated, new ones created, left-out ones deleted', async () => {
    const board = await create(api, `/v1/board?${everything}`, deepBoard());
    const [welding, painting] = board.stages;
    const [rush, exportLabel] = board.labels;
    const res = await api.http('PUT', `/v1/board/${board.id}?${everything}`, {
      color: 'teal',
      stages: [
        { id: welding.id, name: 'Welding 2', activities: [{ id: paint.id, priority: 3 }] },
        { name: 'Packing', priority: 2 },
      ],
      labels: [{ id: exportLabel.id, color: 'orange' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const after = res.body;
    expect(after).toMatchObject({ name: 'Production', color: 'teal', visibility: 'restricted' });
    expect(tree(after)).toEqual({
      // Welding kept its id and got a new name; its activities were replaced; Painting is gone.
      stages: [
        { name: 'Welding 2', activities: [['Paint', 3]] },
        { name: 'Packing', activities: [] },
      ],
      labels: ['Export'],
      // Not sent: untouched.
      statuses: [
        ['New', true, false],
        ['Done', false, true],
      ],
      custom_fields: ['Weight'],
    });
    expect(after.stages[0].id).toBe(welding.id);
    expect(after.stages[0]).toMatchObject({ efficiency: 80, delay_day: 1 });
    expect(after.labels[0]).toMatchObject({ id: exportLabel.id, name: 'Export', color: 'orange' });
    expect(await get(api, `/v1/board/${board.id}?${everything}`)).toStrictEqual(after);
    // The left-out records are deleted, not just unlinked.
    expectNotFound(await api.http('GET', `/v1/stage/${painting.id}`));
    expectNotFound(await api.http('GET', `/v1/board/${board.id}/label/${rush.id}`));
    // The activity itself survives; only its link to the stage went.
    const weldNow = await get(api, `/v1/activity/${weld.id}?with=stages`);
    expect(ids(weldNow.stages)).not.toContain(welding.id);
    expect(ids(weldNow.stages)).not.toContain(painting.id);
  });

  it('with update_without_delete_nested=true keeps the nested items left out, updates those with an id and adds the new ones', async () => {
    const board = await create(api, `/v1/board?${everything}`, deepBoard());
    const [welding, painting] = board.stages;
    const res = await api.http('PUT', `/v1/board/${board.id}?update_without_delete_nested=true&${everything}`, {
      stages: [
        { id: painting.id, name: 'Painting 2', activities: [{ id: paint.id, priority: 7 }] },
        { name: 'Packing', priority: 2 },
      ],
      labels: [{ name: 'New label' }],
      statuses: [],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(tree(res.body)).toEqual({
      stages: [
        { name: 'Welding', activities: [['Weld', 1]] },
        // Kept the Weld link it had, updated the Paint link's priority.
        {
          name: 'Painting 2',
          activities: [
            ['Paint', 7],
            ['Weld', 2],
          ],
        },
        { name: 'Packing', activities: [] },
      ],
      labels: ['Rush', 'Export', 'New label'],
      statuses: [
        ['New', true, false],
        ['Done', false, true],
      ],
      custom_fields: ['Weight'],
    });
    expect(ids(res.body.stages).slice(0, 2)).toEqual([welding.id, painting.id]);
    // update_without_delete_nested=false is the default and spelled out behaves the same.
    const replaced = await update(api, `/v1/board/${board.id}?update_without_delete_nested=false&with=labels`, { labels: [] });
    expect(replaced.labels).toEqual([]);
  });

  it('refuses a nested id that is not a child of this board with 422, changing nothing', async () => {
    const mine = await create(api, `/v1/board?with=stages,labels`, { name: 'Mine', stages: [{ name: 'A' }], labels: [{ name: 'L' }] });
    const other = await create(api, `/v1/board?with=stages,labels`, { name: 'Other', stages: [{ name: 'B' }], labels: [{ name: 'M' }] });
    const res = await api.http('PUT', `/v1/board/${mine.id}`, {
      name: 'Renamed',
      stages: [{ id: other.stages[0].id, name: 'Stolen' }],
      labels: [{ id: unknownId, name: 'Ghost' }],
    });
    expectFieldErrors(res, ['stages.0.id', 'labels.0.id']);
    expect(await get(api, `/v1/board/${mine.id}?with=stages,labels`)).toStrictEqual(mine);
    expect((await get(api, `/v1/stage/${other.stages[0].id}`)).name).toBe('B');
  });

  it('answers update_without_delete_nested that is not a boolean with 400', async () => {
    const board = await create(api, '/v1/board', { name: 'Flag' });
    const res = await api.http('PUT', `/v1/board/${board.id}?update_without_delete_nested=maybe`, { name: 'x' });
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 'Bad Request');
    expect(res.body.errors[0].description).toContain('update_without_delete_nested');
  });

  const weekWithout = (key: string) => without(officeWeek, key);
  const invalid: [string, Record<string, unknown>, string[]][] = [
    ['no name', { color: 'red' }, ['name']],
    ['a name longer than 150', { name: 'x'.repeat(151) }, ['name']],
    ['color not in the palette', { name: 'B', color: 'gold' }, ['color']],
    ['color in another case', { name: 'B', color: 'Blue' }, ['color']],
    ['visibility private', { name: 'B', visibility: 'private' }, ['visibility']],
    ['capacity_method remaining', { name: 'B', capacity_method: 'remaining' }, ['capacity_method']],
    ['dependency_behavior ignore', { name: 'B', dependency_behavior: 'ignore' }, ['dependency_behavior']],
    ['workdays without Sunday', { name: 'B', workdays: weekWithout('7') }, ['workdays']],
    ['workdays with a key "0"', { name: 'B', workdays: { ...officeWeek, '0': false } }, ['workdays']],
    ['workdays keyed by name', { name: 'B', workdays: { ...weekWithout('1'), monday: true } }, ['workdays']],
    ['workdays with "yes"', { name: 'B', workdays: { ...officeWeek, '1': 'yes' } }, ['workdays']],
    ['workdays with hours', { name: 'B', workdays: { ...officeWeek, '1': 8 } }, ['workdays']],
    ['workdays as an array', { name: 'B', workdays: [true, true, true, true, true, false, false] }, ['workdays']],
    ['workdays null', { name: 'B', workdays: null }, ['workdays']],
    ['space_id of no space', { name: 'B', space_id: unknownId }, ['space_id']],
    ['a stage without name', { name: 'B', stages: [{ priority: 0 }] }, ['stages.0.name']],
    ['a stage with efficiency 0', { name: 'B', stages: [{ name: 'S', efficiency: 0 }] }, ['stages.0.efficiency']],
    ['a stage naming no activity', { name: 'B', stages: [{ name: 'S', activities: [{ id: unknownId }] }] }, ['stages.0.activities.0.id']],
    ['a stage activity without id', { name: 'B', stages: [{ name: 'S', activities: [{ priority: 1 }] }] }, ['stages.0.activities.0.id']],
    ['a label without name', { name: 'B', labels: [{ color: 'red' }] }, ['labels.0.name']],
    ['a label colour outside the palette', { name: 'B', labels: [{ name: 'L', color: '#ff0000' }] }, ['labels.0.color']],
    ['a status entry that is not boolean', { name: 'B', statuses: [{ name: 'S', entry: 'yes' }] }, ['statuses.0.entry']],
    ['a status exit that is not boolean', { name: 'B', statuses: [{ name: 'S', exit: 1 }] }, ['statuses.0.exit']],
    ['a custom field of an unknown type', { name: 'B', custom_fields: [{ name: 'C', type: 'color' }] }, ['custom_fields.0.type']],
    ['a custom field of an unknown scope', { name: 'B', custom_fields: [{ name: 'C', scope: 'board' }] }, ['custom_fields.0.scope']],
    ['stages that are not an array', { name: 'B', stages: { name: 'S' } }, ['stages']],
    ['a stage that is not an object', { name: 'B', stages: ['S'] }, ['stages.0']],
  ];

  it.each(invalid)('refuses %s with 422 on that field, writing nothing', async (_label, body, fields) => {
    const before = (await get(api, '/v1/board?limit=0')).count;
    const stagesBefore = (await get(api, '/v1/stage?limit=0')).count;
    const res = await api.http('POST', '/v1/board', body);
    expectFieldErrors(res, fields);
    // Each description names where the problem is.
    for (const field of fields)
      expect(res.body.errors.find((e: any) => e.field === field).description).toContain(field.replace(/\.id$/, ''));
    expect((await get(api, '/v1/board?limit=0')).count).toBe(before);
    expect((await get(api, '/v1/stage?limit=0')).count).toBe(stagesBefore);
  });

  it('reports every problem of a deep body at once, with its path', async () => {
    const res = await api.http('POST', '/v1/board', {
      color: 'gold',
      stages: [{ name: 'ok' }, { efficiency: 1001 }],
      labels: [{ name: 'L', color: 'nope' }],
      custom_fields: [{ name: 'C', type: 'nope', scope: 'nope' }],
    });
    expectFieldErrors(res, [
      'name',
      'color',
      'stages.1.name',
      'stages.1.efficiency',
      'labels.0.color',
      'custom_fields.0.type',
      'custom_fields.0.scope',
    ]);
  });

  it('refuses a null name on update and keeps the board', async () => {
    const board = await create(api, '/v1/board', { name: 'Keep' });
    expectFieldErrors(await api.http('PUT', `/v1/board/${board.id}`, { name: null, workdays: { ...officeWeek, '7': 'no' } }), [
      'name',
      'workdays',
    ]);
    expect(await get(api, `/v1/board/${board.id}`)).toStrictEqual(board);
  });

  it('deletes a board with 204 and its stages, labels, statuses, views, checklists and custom fields with it', async () => {
    const board = await create(api, `/v1/board?${everything}`, deepBoard());
    const view = await create(api, `/v1/board/${board.id}/view`, { name: 'V' });
    const checklist = await create(api, `/v1/board/${board.id}/checklist`, { name: 'C' });
    await remove(api, `/v1/board/${board.id}`);
    await expectGone(api, `/v1/board/${board.id}`);
    expect(ids((await get(api, '/v1/board?limit=1000')).data)).not.toContain(board.id);
    for (const stage of board.stages) expectNotFound(await api.http('GET', `/v1/stage/${stage.id}`));
    // The board's own paths are gone with it: its lists are empty, as under any missing parent.
    expect(await get(api, `/v1/board/${board.id}/label`)).toMatchObject({ count: 0, data: [] });
    expectNotFound(await api.http('GET', `/v1/board/${board.id}/view/${view.id}`));
    expectNotFound(await api.http('GET', `/v1/board/${board.id}/checklist/${checklist.id}`));
    // The activities stay; they only lose the stages.
    const weldNow = await get(api, `/v1/activity/${weld.id}?with=stages`);
    expect(ids(weldNow.stages)).not.toContain(board.stages[0].id);
  });
});

interface PartCase {
  segment: string;
  full: () => Record<string, unknown>;
  change: Record<string, unknown>;
  bad: [string, Record<string, unknown>, string][];
}

const parts: PartCase[] = [
  {
    segment: 'label',
    full: () => ({ name: 'Rush', color: 'ruby', priority: 2 }),
    change: { name: 'Urgent', color: 'raspberry' },
    bad: [
      ['no name', { color: 'red' }, 'name'],
      ['a colour outside the palette', { name: 'L', color: 'crimson' }, 'color'],
      ['a negative priority', { name: 'L', priority: -1 }, 'priority'],
      ['a name longer than 100', { name: 'x'.repeat(101) }, 'name'],
    ],
  },
  {
    segment: 'status',
    full: () => ({ name: 'Ready', color: 'green', priority: 3, entry: false, exit: true }),
    change: { entry: true, exit: false },
    bad: [
      ['no name', { entry: true }, 'name'],
      ['entry "yes"', { name: 'S', entry: 'yes' }, 'entry'],
      ['exit 1', { name: 'S', exit: 1 }, 'exit'],
      ['a colour outside the palette', { name: 'S', color: 'white' }, 'color'],
    ],
  },
  {
    segment: 'view',
    full: () => ({ name: 'My week', type: 'calendar', filters: { labels: [], text: 'chair' }, settings: { zoom: 'week' } }),
    change: { type: 'list', settings: { zoom: 'month' } },
    bad: [
      ['no name', { type: 'list' }, 'name'],
      ['an unknown type', { name: 'V', type: 'gantt' }, 'type'],
      ['filters as an array', { name: 'V', filters: [] }, 'filters'],
      ['settings as a string', { name: 'V', settings: 'zoom' }, 'settings'],
      ['a user_id of no user', { name: 'V', user_id: unknownId }, 'user_id'],
    ],
  },
  {
    segment: 'checklist',
    full: () => ({ name: 'Quality', items: [{ description: 'Check welds' }, { description: 'Photo' }], priority: 1 }),
    change: { items: [{ description: 'Only this' }] },
    bad: [
      ['no name', { items: [] }, 'name'],
      ['items without description', { name: 'C', items: [{ text: 'x' }] }, 'items'],
      ['an item description over 500', { name: 'C', items: [{ description: 'x'.repeat(501) }] }, 'items'],
      ['items as an object', { name: 'C', items: { description: 'x' } }, 'items'],
    ],
  },
  {
    segment: 'custom_field',
    full: () => ({
      name: 'Finish',
      type: 'select',
      scope: 'card',
      priority: 4,
      list: [{ name: 'Matt', value: 'matt', color: 'grey' }],
      options: null,
    }),
    change: { type: 'list', scope: 'collection' },
    bad: [
      ['no name', { type: 'text' }, 'name'],
      ['an unknown type', { name: 'C', type: 'colour' }, 'type'],
      ['an unknown scope', { name: 'C', scope: 'board' }, 'scope'],
      ['list as an object', { name: 'C', list: { a: 1 } }, 'list'],
    ],
  },
];

describe.each(parts.map((p) => [p.segment, p] as const))('board %s (/v1/board/{board_id}/%s)', (segment, part) => {
  let board: any;
  let other: any;
  const path = (b: any = board) => `/v1/board/${b.id}/${segment}`;

  beforeAll(async () => {
    board = await create(api, '/v1/board', { name: `Owner of ${segment}` });
    other = await create(api, '/v1/board', { name: `Other of ${segment}` });
  });

  it('creates (201) with board_id from the path, reads it back and lists it under its board only', async () => {
    const body = part.full();
    // A board_id in the body cannot move it to another board.
    const created = await create(api, path(), { ...body, board_id: other.id });
    expect(created).toMatchObject({ ...body, board_id: board.id });
    expect(created.id).toMatch(uuidPattern);
    expect(await get(api, `${path()}/${created.id}`)).toStrictEqual(created);
    expect(ids((await get(api, path())).data)).toContain(created.id);
    expect((await get(api, path(other))).count).toBe(0);
  });

  it('updates only the fields sent', async () => {
    const created = await create(api, path(), part.full());
    const updated = await update(api, `${path()}/${created.id}`, part.change);
    expect(updated).toStrictEqual({ ...created, ...part.change, updated_at: expect.stringMatching(timestampPattern) });
  });

  it("is 404 under another board's path for GET, PUT and DELETE, and stays untouched", async () => {
    const created = await create(api, path(), part.full());
    expectNotFound(await api.http('GET', `${path(other)}/${created.id}`));
    expectNotFound(await api.http('PUT', `${path(other)}/${created.id}`, part.change));
    expectNotFound(await api.http('DELETE', `${path(other)}/${created.id}`));
    expect(await get(api, `${path()}/${created.id}`)).toStrictEqual(created);
  });

  it('is 404 under a board that does not exist (create), whose list is empty', async () => {
    expect(await get(api, `/v1/board/${unknownId}/${segment}`)).toMatchObject({ count: 0, data: [] });
    expectNotFound(await api.http('POST', `/v1/board/${unknownId}/${segment}`, part.full()));
  });

  it('deletes with 204; then it is 404 and no longer listed', async () => {
    const created = await create(api, path(), part.full());
    await remove(api, `${path()}/${created.id}`);
    await expectGone(api, `${path()}/${created.id}`, part.change);
    expect(ids((await get(api, path())).data)).not.toContain(created.id);
  });

  it.each(part.bad)('refuses %s with 422 on that field', async (_label, body, field) => {
    const before = (await get(api, `${path()}?limit=0`)).count;
    expectFieldErrors(await api.http('POST', path(), body), [field]);
    expect((await get(api, `${path()}?limit=0`)).count).toBe(before);
  });
});

describe('space', () => {
  it('creates, reads with its boards, updates and deletes a space', async () => {
    const created = await create(api, '/v1/space', { name: 'Workshop', description: 'Small jobs' });
    expect(created).toMatchObject({ name: 'Workshop', description: 'Small jobs' });
    expect(created.id).toMatch(uuidPattern);
    const a = await create(api, '/v1/board', { name: 'In the space A', space_id: created.id });
    const b = await create(api, '/v1/board', { name: 'In the space B', space_id: created.id });
    await create(api, '/v1/board', { name: 'Elsewhere' });

    const got = await get(api, `/v1/space/${created.id}?with=boards`);
    expect(ids(got.boards)).toEqual([a.id, b.id]);
    const listed = await get(api, `/v1/space?with=boards&filter=id:eq:${created.id}`);
    expect(ids(listed.data[0].boards)).toEqual([a.id, b.id]);

    // A board moved out of the space is no longer among its boards.
    await update(api, `/v1/board/${b.id}`, { space_id: null });
    expect(ids((await get(api, `/v1/space/${created.id}?with=boards`)).boards)).toEqual([a.id]);

    const updated = await update(api, `/v1/space/${created.id}`, { description: null });
    expect(updated).toMatchObject({ name: 'Workshop', description: null });

    await remove(api, `/v1/space/${created.id}`);
    await expectGone(api, `/v1/space/${created.id}`);
  });

  it('leaves its boards readable and writable when it is deleted: a board read back can be PUT back whole', async () => {
    // docs/API.md "Records": a client may GET a record, change it and PUT it back whole.
    const doomed = await create(api, '/v1/space', { name: 'Doomed' });
    const inside = await create(api, '/v1/board', { name: 'Inside the doomed space', space_id: doomed.id });
    await remove(api, `/v1/space/${doomed.id}`);
    const read = await get(api, `/v1/board/${inside.id}`);
    const res = await api.http('PUT', `/v1/board/${inside.id}`, { ...read, color: 'olive' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.color).toBe('olive');
  });

  it.each([
    ['no name', { description: 'x' }, ['name']],
    ['a name longer than 150', { name: 'x'.repeat(151) }, ['name']],
    ['a description that is not a string', { name: 'S', description: 5 }, ['description']],
  ] as [string, Record<string, unknown>, string[]][])('refuses %s with 422', async (_label, body, fields) => {
    expectFieldErrors(await api.http('POST', '/v1/space', body), fields);
  });
});
