/**
 * Base data over real HTTP: stages (docs/API.md "Resources and paths"), the rows of a board, and
 * activities (§4.3), the kinds of work a stage allows. The link between them carries a
 * priority and can be written from either side: `stage.activities: [{id, priority}]` and
 * `activity.stages: [{id}]`.
 */
import { describe, expect, it } from 'vitest';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import {
  create,
  expectFieldErrors,
  expectGone,
  expectNotFound,
  get,
  ids,
  otherEnvironment,
  remove,
  timestampPattern,
  unknownId,
  update,
  uuidPattern,
} from '../helpers/base-data.js';

let api: TestApi;
let board: any;
let otherBoard: any;
let item: any;
let saw: any;
let drill: any;
let sand: any;

useSeededApi(async (started) => {
  api = started;
  board = await create(api, '/v1/board', { name: 'Carpentry' });
  otherBoard = await create(api, '/v1/board', { name: 'Metal' });
  item = await create(api, '/v1/item', { description: 'Oak plank' });
  saw = await create(api, '/v1/activity', { description: 'Saw', resource_type: 'machine' });
  drill = await create(api, '/v1/activity', { description: 'Drill', resource_type: 'machine' });
  sand = await create(api, '/v1/activity', { description: 'Sand' });
});

/** [activity id, link priority] of a stage's embedded activities. */
const links = (stage: any) => stage.activities.map((a: any) => [a.id, a.priority]);

describe('stage', () => {
  const fullStage = () => ({
    board_id: board.id,
    name: 'Cutting',
    priority: 3,
    delay_day: 2,
    independent: true,
    efficiency: 80,
    default_percentage: 60,
    capacity_notification: true,
    capacity_notification_min: 10,
    capacity_notification_max: 95.5,
  });

  it('creates a stage with every field and its activities (201), read back with board and activities', async () => {
    const body = {
      ...fullStage(),
      activities: [
        { id: saw.id, priority: 1 },
        { id: drill.id, priority: 0 },
      ],
    };
    const res = await api.http('POST', '/v1/stage?with=board,activities', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject(fullStage());
    expect(res.body.id).toMatch(uuidPattern);
    expect(res.body.created_at).toMatch(timestampPattern);
    expect(res.body.board).toMatchObject({ id: board.id, name: 'Carpentry' });
    expect(links(res.body)).toEqual([
      [saw.id, 1],
      [drill.id, 0],
    ]);
    // The embedded activities are the activities, with the link's priority.
    expect(res.body.activities[0]).toMatchObject({ description: 'Saw', resource_type: 'machine' });

    expect(await get(api, `/v1/stage/${res.body.id}?with=board,activities`)).toStrictEqual(res.body);
    // Both sides see the link.
    expect(ids((await get(api, `/v1/activity/${saw.id}?with=stages`)).stages)).toContain(res.body.id);
    // The board lists it among its stages.
    expect(ids((await get(api, `/v1/board/${board.id}?with=stages`)).stages)).toContain(res.body.id);
  });

  it('fills the documented defaults', async () => {
    const stage = await create(api, '/v1/stage', { board_id: board.id, name: 'Plain' });
    expect(stage).toMatchObject({
      priority: 0,
      delay_day: 0,
      independent: false,
      efficiency: 100,
      default_percentage: 100,
      capacity_notification: false,
      capacity_notification_min: null,
      capacity_notification_max: null,
    });
  });

  it("gives an activity linked without a priority the link's default priority 0", async () => {
    // stage_activity.priority: integer, minimum 0, default 0 (shared/resources/stage.ts).
    const stage = await create(api, '/v1/stage?with=activities', {
      board_id: board.id,
      name: 'No priorities',
      activities: [{ id: saw.id }],
    });
    expect(links(stage)).toEqual([[saw.id, 0]]);
    expect(links(await get(api, `/v1/stage/${stage.id}?with=activities`))).toEqual([[saw.id, 0]]);
  });

  it('updates only the fields sent; activities sent replace the set, a link sent again gets its new priority', async () => {
    const stage = await create(api, '/v1/stage?with=activities', {
      ...fullStage(),
      activities: [
        { id: saw.id, priority: 1 },
        { id: drill.id, priority: 2 },
      ],
    });
    const updated = await update(api, `/v1/stage/${stage.id}?with=activities`, {
      name: 'Cutting 2',
      efficiency: 120,
      capacity_notification_max: null,
      activities: [
        { id: drill.id, priority: 5 },
        { id: sand.id, priority: 6 },
      ],
    });
    expect(updated).toMatchObject({ ...fullStage(), name: 'Cutting 2', efficiency: 120, capacity_notification_max: null });
    expect(links(updated)).toEqual([
      [drill.id, 5],
      [sand.id, 6],
    ]);
    expect(ids((await get(api, `/v1/activity/${saw.id}?with=stages`)).stages)).not.toContain(stage.id);
    // Without activities in the body the links stay.
    const renamed = await update(api, `/v1/stage/${stage.id}?with=activities`, { name: 'Cutting 3' });
    expect(links(renamed)).toEqual([
      [drill.id, 5],
      [sand.id, 6],
    ]);
    // An empty list removes them all.
    expect((await update(api, `/v1/stage/${stage.id}?with=activities`, { activities: [] })).activities).toEqual([]);
  });

  it('with update_without_delete_nested=true adds and updates links and keeps the others', async () => {
    const stage = await create(api, '/v1/stage?with=activities', {
      board_id: board.id,
      name: 'Merge',
      activities: [
        { id: saw.id, priority: 1 },
        { id: drill.id, priority: 2 },
      ],
    });
    const updated = await update(api, `/v1/stage/${stage.id}?update_without_delete_nested=true&with=activities`, {
      activities: [
        { id: drill.id, priority: 9 },
        { id: sand.id, priority: 3 },
      ],
    });
    expect(links(updated)).toEqual([
      [saw.id, 1],
      [drill.id, 9],
      [sand.id, 3],
    ]);
  });

  it('accepts efficiency at its bounds 1 and 1000 and default_percentage at 0 and 100', async () => {
    for (const efficiency of [1, 1000])
      expect((await create(api, '/v1/stage', { board_id: board.id, name: 'E', efficiency })).efficiency).toBe(efficiency);
    for (const pct of [0, 100])
      expect((await create(api, '/v1/stage', { board_id: board.id, name: 'P', default_percentage: pct })).default_percentage).toBe(pct);
  });

  const invalid: [string, Record<string, unknown>, string[]][] = [
    ['no board_id', { name: 'S' }, ['board_id']],
    ['a board_id of no board', { name: 'S', board_id: unknownId }, ['board_id']],
    ['a board_id that is not a uuid', { name: 'S', board_id: 'board-1' }, ['board_id']],
    ['no name', { board_id: '{board}' }, ['name']],
    ['efficiency 0 (below 1)', { board_id: '{board}', name: 'S', efficiency: 0 }, ['efficiency']],
    ['efficiency 1001 (above 1000)', { board_id: '{board}', name: 'S', efficiency: 1001 }, ['efficiency']],
    ['efficiency 80.5 (not whole)', { board_id: '{board}', name: 'S', efficiency: 80.5 }, ['efficiency']],
    ['default_percentage 101', { board_id: '{board}', name: 'S', default_percentage: 101 }, ['default_percentage']],
    ['default_percentage -1', { board_id: '{board}', name: 'S', default_percentage: -1 }, ['default_percentage']],
    ['delay_day -1', { board_id: '{board}', name: 'S', delay_day: -1 }, ['delay_day']],
    ['delay_day 366', { board_id: '{board}', name: 'S', delay_day: 366 }, ['delay_day']],
    ['priority -1', { board_id: '{board}', name: 'S', priority: -1 }, ['priority']],
    ['independent "yes"', { board_id: '{board}', name: 'S', independent: 'yes' }, ['independent']],
    ['capacity_notification_min -1', { board_id: '{board}', name: 'S', capacity_notification_min: -1 }, ['capacity_notification_min']],
    ['an activity that does not exist', { board_id: '{board}', name: 'S', activities: [{ id: unknownId }] }, ['activities.0.id']],
    [
      'an activity link priority -1',
      { board_id: '{board}', name: 'S', activities: [{ id: '{saw}', priority: -1 }] },
      ['activities.0.priority'],
    ],
  ];

  it.each(invalid)('refuses %s with 422 on that field, writing nothing', async (_label, template, fields) => {
    const body = JSON.parse(JSON.stringify(template).replaceAll('{board}', board.id).replaceAll('{saw}', saw.id));
    const before = (await get(api, '/v1/stage?limit=0')).count;
    expectFieldErrors(await api.http('POST', '/v1/stage', body), fields);
    expect((await get(api, '/v1/stage?limit=0')).count).toBe(before);
  });

  it('refuses an invalid update with 422 and keeps the stage and its links', async () => {
    const stage = await create(api, '/v1/stage?with=activities', {
      board_id: board.id,
      name: 'Keep',
      activities: [{ id: saw.id, priority: 1 }],
    });
    const res = await api.http('PUT', `/v1/stage/${stage.id}`, { name: null, efficiency: 0, activities: [{ id: unknownId }] });
    expectFieldErrors(res, ['name', 'efficiency', 'activities.0.id']);
    expect(await get(api, `/v1/stage/${stage.id}?with=activities`)).toStrictEqual(stage);
  });

  it('deletes a stage with 204; then it is 404, and neither its board nor its activities list it', async () => {
    const stage = await create(api, '/v1/stage', {
      board_id: otherBoard.id,
      name: 'Short-lived',
      activities: [{ id: sand.id, priority: 0 }],
    });
    await remove(api, `/v1/stage/${stage.id}`);
    await expectGone(api, `/v1/stage/${stage.id}`);
    expect(ids((await get(api, `/v1/board/${otherBoard.id}?with=stages`)).stages)).not.toContain(stage.id);
    expect(ids((await get(api, `/v1/activity/${sand.id}?with=stages`)).stages)).not.toContain(stage.id);
    // The activity itself is still there.
    expect((await get(api, `/v1/activity/${sand.id}`)).id).toBe(sand.id);
  });

  it('lists stages, filterable by board', async () => {
    const list = await get(api, `/v1/stage?filter=board_id:eq:${otherBoard.id}`);
    expect(list.data.every((s: any) => s.board_id === otherBoard.id)).toBe(true);
    const all = await get(api, '/v1/stage?limit=1000');
    expect(all.count).toBeGreaterThan(list.count);
  });
});

describe('activity', () => {
  const fullActivity = () => ({
    description: 'Assemble',
    code: 'ASM',
    item_id: item.id,
    resource_type: 'cell',
    default_duration: 90,
    day_max_duration: 240,
    billable: true,
    hourly_rate: 45.5,
    external_ref: `act-${Math.random()}`,
    transaction: 'T-1',
  });

  it('creates an activity with every field and the stages it is allowed in (201), read back with stages and item', async () => {
    const stageA = await create(api, '/v1/stage', { board_id: board.id, name: 'Assembly A' });
    const stageB = await create(api, '/v1/stage', { board_id: otherBoard.id, name: 'Assembly B' });
    const body = { ...fullActivity(), stages: [{ id: stageA.id }, { id: stageB.id }] };
    const res = await api.http('POST', '/v1/activity?with=stages,item', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const { stages: _stages, ...fields } = body;
    expect(res.body).toMatchObject({ ...fields, archived_at: null });
    expect(res.body.item).toMatchObject({ id: item.id, description: 'Oak plank' });
    expect(ids(res.body.stages)).toEqual([stageA.id, stageB.id]);
    expect(res.body.stages[0]).toMatchObject({ name: 'Assembly A', board_id: board.id });
    expect(await get(api, `/v1/activity/${res.body.id}?with=stages,item`)).toStrictEqual(res.body);
    // The stage side sees the link.
    expect(ids((await get(api, `/v1/stage/${stageA.id}?with=activities`)).activities)).toEqual([res.body.id]);
  });

  it('embeds item as null when there is none', async () => {
    const activity = await create(api, '/v1/activity?with=stages,item', { description: 'Loose' });
    expect(activity.item).toBeNull();
    expect(activity.stages).toEqual([]);
  });

  it('updates only the fields sent; stages sent replace the set unless update_without_delete_nested=true', async () => {
    const s1 = await create(api, '/v1/stage', { board_id: board.id, name: 'S1' });
    const s2 = await create(api, '/v1/stage', { board_id: board.id, name: 'S2' });
    const s3 = await create(api, '/v1/stage', { board_id: board.id, name: 'S3' });
    const activity = await create(api, '/v1/activity?with=stages', { ...fullActivity(), stages: [{ id: s1.id }, { id: s2.id }] });

    const replaced = await update(api, `/v1/activity/${activity.id}?with=stages`, { code: null, billable: false, stages: [{ id: s3.id }] });
    expect(replaced).toMatchObject({ code: null, billable: false, description: 'Assemble', hourly_rate: 45.5 });
    expect(ids(replaced.stages)).toEqual([s3.id]);

    const merged = await update(api, `/v1/activity/${activity.id}?update_without_delete_nested=true&with=stages`, {
      stages: [{ id: s1.id }],
    });
    expect(ids(merged.stages).sort()).toEqual([s1.id, s3.id].sort());
  });

  it('archives with archived_at; archived activities are listed only with archived=true', async () => {
    const activity = await create(api, '/v1/activity', { description: 'Old craft' });
    await update(api, `/v1/activity/${activity.id}`, { archived_at: '2026-01-31T12:00:00Z' });
    expect(ids((await get(api, '/v1/activity?limit=1000')).data)).not.toContain(activity.id);
    expect(ids((await get(api, '/v1/activity?archived=true&limit=1000')).data)).toContain(activity.id);
    expect((await get(api, `/v1/activity/${activity.id}`)).archived_at).toBe('2026-01-31T12:00:00Z');
  });

  const invalid: [string, Record<string, unknown>, string[]][] = [
    ['no description', { code: 'X' }, ['description']],
    ['a description longer than 150', { description: 'x'.repeat(151) }, ['description']],
    ['resource_type "person"', { description: 'A', resource_type: 'person' }, ['resource_type']],
    ['resource_type "resource"', { description: 'A', resource_type: 'resource' }, ['resource_type']],
    ['default_duration -1', { description: 'A', default_duration: -1 }, ['default_duration']],
    ['default_duration 1.5 (not whole minutes)', { description: 'A', default_duration: 1.5 }, ['default_duration']],
    ['day_max_duration -5', { description: 'A', day_max_duration: -5 }, ['day_max_duration']],
    ['hourly_rate -1', { description: 'A', hourly_rate: -1 }, ['hourly_rate']],
    ['billable "no"', { description: 'A', billable: 'no' }, ['billable']],
    ['an item_id of no item', { description: 'A', item_id: unknownId }, ['item_id']],
    ['a stage that does not exist', { description: 'A', stages: [{ id: unknownId }] }, ['stages.0.id']],
    ['a stage that is no reference', { description: 'A', stages: [{ name: 'x' }] }, ['stages.0.id']],
  ];

  it.each(invalid)('refuses %s with 422 on that field, writing nothing', async (_label, body, fields) => {
    const before = (await get(api, '/v1/activity?archived=true&limit=0')).count;
    expectFieldErrors(await api.http('POST', '/v1/activity', body), fields);
    expect((await get(api, '/v1/activity?archived=true&limit=0')).count).toBe(before);
  });

  it('deletes an activity with 204; then it is 404 and its stages no longer list it', async () => {
    const stage = await create(api, '/v1/stage', { board_id: board.id, name: 'Holds one' });
    const activity = await create(api, '/v1/activity', { description: 'Doomed', stages: [{ id: stage.id }] });
    expect(ids((await get(api, `/v1/stage/${stage.id}?with=activities`)).activities)).toEqual([activity.id]);
    await remove(api, `/v1/activity/${activity.id}`);
    await expectGone(api, `/v1/activity/${activity.id}`, { description: 'x' });
    expect((await get(api, `/v1/stage/${stage.id}?with=activities`)).activities).toEqual([]);
    expectNotFound(await api.http('GET', `/v1/activity/${activity.id}?with=stages`));
  });
});

describe("an activity's time entries (with=time_tracking, filter time_tracking.…)", () => {
  /** A card to track time on, in `on`'s environment. */
  async function cardIn(on: TestApi) {
    const planboard = await create(on, '/v1/board?with=stages', {
      name: 'Tracked',
      stages: [{ name: 'Work' }],
      statuses: [{ name: 'Open', entry: true }],
    });
    const collection = await create(on, '/v1/collection', { name: 'Tracked job', board_id: planboard.id });
    return create(on, `/v1/collection/${collection.id}/card`, { stage_id: planboard.stages[0].id });
  }
  /** An hour on 4 March 2024 on `card` for `activity`. */
  const entry = (activity: any, card: any, note: string, on = api) =>
    create(on, '/v1/time_tracking', {
      card_id: card.id,
      activity_id: activity.id,
      start: '2024-03-04T08:00:00Z',
      end: '2024-03-04T09:00:00Z',
      note,
    });

  it('reads the time entries of each activity, only its own, on one and in a list', async () => {
    const card = await cardIn(api);
    const plane = await create(api, '/v1/activity', { description: 'Plane' });
    const glue = await create(api, '/v1/activity', { description: 'Glue' });
    const unused = await create(api, '/v1/activity', { description: 'Unused' });
    const first = await entry(plane, card, 'Planed the legs');
    const glued = await entry(glue, card, 'Glued the top');
    const second = await entry(plane, card, 'Planed the top');
    // An entry without an activity belongs to none.
    await create(api, '/v1/time_tracking', { card_id: card.id, start: '2024-03-05T08:00:00Z', end: '2024-03-05T08:30:00Z' });

    const got = await get(api, `/v1/activity/${plane.id}?with=time_tracking.card`);
    expect(ids(got.time_tracking)).toEqual([first.id, second.id]);
    expect(got.time_tracking[0]).toMatchObject({ activity_id: plane.id, duration: 60, card: { id: card.id } });
    const list = await get(api, `/v1/activity?filter=id:eq:${plane.id},or,id:eq:${glue.id},or,id:eq:${unused.id}&with=time_tracking`);
    expect(Object.fromEntries(list.data.map((a: any) => [a.id, ids(a.time_tracking)]))).toEqual({
      [plane.id]: [first.id, second.id],
      [glue.id]: [glued.id],
      [unused.id]: [],
    });

    expect(ids((await get(api, `/v1/activity?filter=time_tracking.note:eq:'Glued the top'`)).data)).toEqual([glue.id]);
    expect(ids((await get(api, `/v1/activity?filter=time_tracking:has:${second.id}`)).data)).toEqual([plane.id]);
    expect(
      ids((await get(api, `/v1/activity?filter=time_tracking.duration:eq:60,and,time_tracking.note:starts_with:Planed`)).data),
    ).toEqual([plane.id]);

    await remove(api, `/v1/time_tracking/${first.id}`);
    expect(ids((await get(api, `/v1/activity/${plane.id}?with=time_tracking`)).time_tracking)).toEqual([second.id]);
  });

  it("never shows another environment's time entries, whatever with or filter asks", async () => {
    const other = otherEnvironment(api);
    const ours = await create(api, '/v1/activity', { description: 'Varnish' });
    const theirs = await create(other, '/v1/activity', { description: 'Varnish' });
    const ourEntry = await entry(ours, await cardIn(api), 'Varnished twice');
    const theirEntry = await entry(theirs, await cardIn(other), 'Varnished twice', other);
    expect(ids((await get(api, `/v1/activity/${ours.id}?with=time_tracking`)).time_tracking)).toEqual([ourEntry.id]);
    expect(ids((await get(other, `/v1/activity/${theirs.id}?with=time_tracking`)).time_tracking)).toEqual([theirEntry.id]);
    expect(ids((await get(api, `/v1/activity?filter=time_tracking.note:eq:'Varnished twice'`)).data)).toEqual([ours.id]);
    expect((await get(api, `/v1/activity?filter=time_tracking:has:${theirEntry.id}`)).count).toBe(0);
    expectNotFound(await other.http('GET', `/v1/activity/${ours.id}?with=time_tracking`));
  });
});
