/**
 * Base data over real HTTP: resources (docs/API.md "Resources and paths") with the boards and stages they
 * plan on, their schedule deviations (absences) at `/v1/resource/{id}/schedule_deviation`,
 * and groups (§4.6) of resources.
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { useSeededApi, type TestApi } from '../helpers/api.js';
import {
  create,
  expectDuplicate,
  expectFieldErrors,
  expectGone,
  expectNotFound,
  fullTime,
  get,
  ids,
  otherEnvironment,
  remove,
  timestampPattern,
  unknownId,
  update,
  uuidPattern,
  without,
} from '../helpers/base-data.js';

let api: TestApi;
/** Board with stages Cut (default_percentage 60) and Weld (default 100). */
let board: any;
/** Another board with its own stage Paint. */
let other: any;
let counter = 0;
const tag = () => `${process.pid}-${++counter}`;

useSeededApi(async (started) => {
  api = started;
  board = await create(api, '/v1/board?with=stages', {
    name: 'Metal',
    stages: [{ name: 'Cut', default_percentage: 60 }, { name: 'Weld' }],
  });
  other = await create(api, '/v1/board?with=stages', { name: 'Finish', stages: [{ name: 'Paint' }] });
});

const cut = () => board.stages[0];
const weldStage = () => board.stages[1];
const paint = () => other.stages[0];

describe('resource', () => {
  const fullResource = () => ({
    name: 'Laser 1',
    type: 'machine',
    description: 'Fiber laser, 6 kW',
    start_date: '2026-01-05',
    end_date: '2027-12-31',
    avatar: 'https://cdn.example/laser.png',
    workdays: { '1': 8, '2': 8, '3': 7.5, '4': 4, '5': 0, '6': null, '7': null },
    integration_schedule: true,
    color_hex: '#1a2b3c',
    boards: [
      {
        id: board.id,
        active: true,
        stages: [
          { id: cut().id, percentage: 50, active: true },
          { id: weldStage().id, percentage: 50, active: false },
        ],
      },
      { id: other.id, active: false, stages: [{ id: paint().id, percentage: 100, active: true }] },
    ],
    external_ref: `res-${tag()}`,
    transaction: 'T-9',
  });

  it('creates a resource with every field and the boards and stages it plans on (201)', async () => {
    const body = fullResource();
    const res = await api.http('POST', '/v1/resource?with=schedule_deviations,groups', body);
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toMatchObject({ ...body, archived_at: null, schedule_deviations: [], groups: [] });
    expect(res.body.id).toMatch(uuidPattern);
    expect(res.body.created_at).toMatch(timestampPattern);
    expect(await get(api, `/v1/resource/${res.body.id}?with=schedule_deviations,groups`)).toStrictEqual(res.body);
  });

  it("fills the documented defaults, and in boards active true and a stage's percentage from its default_percentage", async () => {
    const resource = await create(api, '/v1/resource', {
      name: 'Defaults',
      boards: [{ id: board.id, stages: [{ id: cut().id }, { id: weldStage().id }] }, { id: other.id }],
    });
    expect(resource).toMatchObject({
      type: 'employee',
      description: null,
      start_date: null,
      end_date: null,
      workdays: fullTime,
      integration_schedule: false,
      color_hex: null,
      archived_at: null,
    });
    expect(resource.boards).toEqual([
      // Cut has default_percentage 60, Weld 100.
      {
        id: board.id,
        active: true,
        stages: [
          { id: cut().id, percentage: 60, active: true },
          { id: weldStage().id, percentage: 100, active: true },
        ],
      },
      { id: other.id, active: true, stages: [] },
    ]);
    expect((await create(api, '/v1/resource', { name: 'No boards' })).boards).toEqual([]);
  });

  it('accepts ids in upper case and stores them lower case', async () => {
    const resource = await create(api, '/v1/resource', {
      name: 'Upper',
      boards: [{ id: board.id.toUpperCase(), stages: [{ id: cut().id.toUpperCase(), percentage: 10 }] }],
    });
    expect(resource.boards).toEqual([{ id: board.id, active: true, stages: [{ id: cut().id, percentage: 10, active: true }] }]);
  });

  it('updates only the fields sent; boards sent replace the whole list', async () => {
    const resource = await create(api, '/v1/resource', fullResource());
    const updated = await update(api, `/v1/resource/${resource.id}`, {
      name: 'Laser 2',
      end_date: null,
      workdays: { ...fullTime, '6': 4 },
      boards: [{ id: other.id, stages: [{ id: paint().id, percentage: 25 }] }],
    });
    expect(updated).toStrictEqual({
      ...resource,
      name: 'Laser 2',
      end_date: null,
      workdays: { ...fullTime, '6': 4 },
      boards: [{ id: other.id, active: true, stages: [{ id: paint().id, percentage: 25, active: true }] }],
      updated_at: expect.stringMatching(timestampPattern),
    });
    // A PUT without boards keeps them.
    expect((await update(api, `/v1/resource/${resource.id}`, { color_hex: '#abc' })).boards).toEqual(updated.boards);
  });

  describe('boards on PUT with and without update_without_delete_nested', () => {
    /** Plans on Metal (Cut 50, Weld 50 inactive) and, inactive, on Finish (Paint 100). */
    const planned = () =>
      create(api, '/v1/resource', {
        name: `Merged ${tag()}`,
        boards: [
          {
            id: board.id,
            stages: [
              { id: cut().id, percentage: 50 },
              { id: weldStage().id, percentage: 50, active: false },
            ],
          },
          { id: other.id, active: false, stages: [{ id: paint().id }] },
        ],
      });

    it('with the flag adds and updates the boards and stages sent, by id, and keeps those left out', async () => {
      const resource = await planned();
      const third = await create(api, '/v1/board?with=stages', {
        name: `Third ${tag()}`,
        stages: [{ name: 'Pack', default_percentage: 30 }],
      });
      const updated = await update(api, `/v1/resource/${resource.id}?update_without_delete_nested=true`, {
        boards: [
          { id: board.id, stages: [{ id: weldStage().id, active: true }] },
          { id: third.id, stages: [{ id: third.stages[0].id }] },
        ],
      });
      // The boards and stages sent come first, in the order sent; the ones left out follow.
      expect(updated.boards).toEqual([
        {
          id: board.id,
          active: true,
          stages: [
            { id: weldStage().id, percentage: 50, active: true },
            { id: cut().id, percentage: 50, active: true },
          ],
        },
        { id: third.id, active: true, stages: [{ id: third.stages[0].id, percentage: 30, active: true }] },
        { id: other.id, active: false, stages: [{ id: paint().id, percentage: 100, active: true }] },
      ]);
      expect(await get(api, `/v1/resource/${resource.id}`)).toStrictEqual(updated);

      // A board sent without stages, or with `stages: []`, keeps the stages it had.
      const again = await update(api, `/v1/resource/${resource.id}?update_without_delete_nested=true`, {
        boards: [
          { id: other.id, active: true },
          { id: board.id, stages: [] },
        ],
      });
      expect(again.boards).toEqual([{ ...updated.boards[2], active: true }, updated.boards[0], updated.boards[1]]);
    });

    it('with the flag refuses a board or stage that does not exist, naming it by its place in the body, and keeps the resource', async () => {
      const resource = await planned();
      const flagged = `/v1/resource/${resource.id}?update_without_delete_nested=true`;
      expectFieldErrors(await api.http('PUT', flagged, { boards: [{ id: unknownId }] }), ['boards.0.id']);
      expectFieldErrors(await api.http('PUT', flagged, { boards: [{ id: other.id, stages: [{ id: cut().id }] }] }), [
        'boards.0.stages.0.id',
      ]);
      expectFieldErrors(await api.http('PUT', flagged, { boards: [{ id: board.id, stages: [{ id: cut().id, percentage: 101 }] }] }), [
        'boards',
      ]);
      expect(await get(api, `/v1/resource/${resource.id}`)).toStrictEqual(resource);
    });

    it('without the flag (or with it false) the boards sent replace the list', async () => {
      const resource = await planned();
      const body = { boards: [{ id: board.id, stages: [{ id: weldStage().id }] }] };
      const replaced = [{ id: board.id, active: true, stages: [{ id: weldStage().id, percentage: 100, active: true }] }];
      expect((await update(api, `/v1/resource/${resource.id}`, body)).boards).toEqual(replaced);
      const second = await planned();
      expect((await update(api, `/v1/resource/${second.id}?update_without_delete_nested=false`, body)).boards).toEqual(replaced);
    });
  });

  it('accepts workdays hours at the bounds 0 and 24, fractions, and null for a day off', async () => {
    const workdays = { '1': 0, '2': 24, '3': 7.5, '4': 0.25, '5': null, '6': null, '7': 3 };
    expect((await create(api, '/v1/resource', { name: 'Bounds', workdays })).workdays).toEqual(workdays);
  });

  it.each(['#abc', '#aabbcc', '#0f0', '#123456'])('accepts color_hex %s (lower case, 3 or 6 digits)', async (color) => {
    expect((await create(api, '/v1/resource', { name: 'Colour', color_hex: color })).color_hex).toBe(color);
  });

  const invalid: [string, () => Record<string, unknown>, string[]][] = [
    ['no name', () => ({ type: 'machine' }), ['name']],
    ['type "person"', () => ({ name: 'R', type: 'person' }), ['type']],
    ['type "resource"', () => ({ name: 'R', type: 'resource' }), ['type']],
    ['color_hex in upper case (#ABC)', () => ({ name: 'R', color_hex: '#ABC' }), ['color_hex']],
    ['color_hex mixed case (#AaBbCc)', () => ({ name: 'R', color_hex: '#AaBbCc' }), ['color_hex']],
    ['color_hex with 4 digits (#abcd)', () => ({ name: 'R', color_hex: '#abcd' }), ['color_hex']],
    ['color_hex with 8 digits (#aabbccdd)', () => ({ name: 'R', color_hex: '#aabbccdd' }), ['color_hex']],
    ['color_hex without # (aabbcc)', () => ({ name: 'R', color_hex: 'aabbcc' }), ['color_hex']],
    ['color_hex that is not hex (#ggg)', () => ({ name: 'R', color_hex: '#ggg' }), ['color_hex']],
    ['workdays without Sunday', () => ({ name: 'R', workdays: without(fullTime, '7') }), ['workdays']],
    ['workdays with a key "8"', () => ({ name: 'R', workdays: { ...fullTime, '8': 1 } }), ['workdays']],
    ['workdays with 25 hours', () => ({ name: 'R', workdays: { ...fullTime, '1': 25 } }), ['workdays']],
    ['workdays with 24.5 hours', () => ({ name: 'R', workdays: { ...fullTime, '1': 24.5 } }), ['workdays']],
    ['workdays with -1 hours', () => ({ name: 'R', workdays: { ...fullTime, '2': -1 } }), ['workdays']],
    ['workdays with "8" as text', () => ({ name: 'R', workdays: { ...fullTime, '3': '8' } }), ['workdays']],
    ['workdays with true', () => ({ name: 'R', workdays: { ...fullTime, '3': true } }), ['workdays']],
    ['workdays null', () => ({ name: 'R', workdays: null }), ['workdays']],
    ['workdays as an array', () => ({ name: 'R', workdays: [8, 8, 8, 8, 8, null, null] }), ['workdays']],
    ['end_date before start_date', () => ({ name: 'R', start_date: '2026-05-01', end_date: '2026-04-30' }), ['end_date']],
    ['start_date that is no date', () => ({ name: 'R', start_date: '2026-02-30' }), ['start_date']],
    ['an avatar that is no http(s) url', () => ({ name: 'R', avatar: 'ftp://x/y.png' }), ['avatar']],
    ['boards naming an unknown board', () => ({ name: 'R', boards: [{ id: unknownId }] }), ['boards.0.id']],
    [
      'boards naming a stage of another board',
      () => ({ name: 'R', boards: [{ id: board.id, stages: [{ id: paint().id }] }] }),
      ['boards.0.stages.0.id'],
    ],
    [
      'boards naming an unknown stage',
      () => ({ name: 'R', boards: [{ id: other.id, stages: [{ id: paint().id }, { id: unknownId }] }] }),
      ['boards.0.stages.1.id'],
    ],
    ['boards as an object', () => ({ name: 'R', boards: { id: board.id } }), ['boards']],
    ['a board without id', () => ({ name: 'R', boards: [{ active: true }] }), ['boards']],
    ['a board active "yes"', () => ({ name: 'R', boards: [{ id: board.id, active: 'yes' }] }), ['boards']],
    [
      'a stage percentage of 101',
      () => ({ name: 'R', boards: [{ id: board.id, stages: [{ id: cut().id, percentage: 101 }] }] }),
      ['boards'],
    ],
    ['a stage percentage of -1', () => ({ name: 'R', boards: [{ id: board.id, stages: [{ id: cut().id, percentage: -1 }] }] }), ['boards']],
    [
      'a stage percentage of 33.3',
      () => ({ name: 'R', boards: [{ id: board.id, stages: [{ id: cut().id, percentage: 33.3 }] }] }),
      ['boards'],
    ],
    ['stages that are not a list', () => ({ name: 'R', boards: [{ id: board.id, stages: cut().id }] }), ['boards']],
  ];

  it.each(invalid)('refuses %s with 422 on that field, writing nothing', async (_label, body, fields) => {
    const before = (await get(api, '/v1/resource?archived=true&limit=0')).count;
    expectFieldErrors(await api.http('POST', '/v1/resource', body()), fields);
    expect((await get(api, '/v1/resource?archived=true&limit=0')).count).toBe(before);
  });

  it('names the rule a refused date order or day of hours broke, for the form to word it (docs/API.md "Field rules and limits")', async () => {
    const early = await api.http('POST', '/v1/resource', { name: 'R', start_date: '2026-03-10', end_date: '2026-03-01' });
    expect(early.status).toBe(422);
    expect(early.body.errors).toEqual([expect.objectContaining({ field: 'end_date', rule: 'notBeforeStart' })]);
    const long = await api.http('POST', '/v1/resource', { name: 'R', workdays: { ...fullTime, '1': 25 } });
    expect(long.body.errors).toEqual([expect.objectContaining({ field: 'workdays', rule: 'maximum', limit: 24 })]);
    const negative = await api.http('POST', '/v1/resource', { name: 'R', workdays: { ...fullTime, '2': -1 } });
    expect(negative.body.errors).toEqual([expect.objectContaining({ field: 'workdays', rule: 'minimum', limit: 0 })]);
    const resource = await create(api, '/v1/resource', { name: 'Away' });
    const absence = await api.http('POST', `/v1/resource/${resource.id}/schedule_deviation`, {
      type: 'vacation',
      start_date: '2026-03-10',
      end_date: '2026-03-01',
    });
    expect(absence.body.errors).toEqual([expect.objectContaining({ field: 'end_date', rule: 'notBeforeStart' })]);
  });

  it('refuses end_date before the stored start_date on update, and boards of unknown records, keeping the resource', async () => {
    const resource = await create(api, '/v1/resource', { name: 'Dated', start_date: '2026-03-01' });
    expectFieldErrors(await api.http('PUT', `/v1/resource/${resource.id}`, { end_date: '2026-02-28' }), ['end_date']);
    expectFieldErrors(await api.http('PUT', `/v1/resource/${resource.id}`, { boards: [{ id: board.id }, { id: unknownId }] }), [
      'boards.1.id',
    ]);
    expect(await get(api, `/v1/resource/${resource.id}`)).toStrictEqual(resource);
  });

  it('can be read and PUT back whole after a stage it plans on was deleted', async () => {
    // docs/API.md "Records": a client may GET a record, change it and PUT it back whole.
    const local = await create(api, '/v1/board?with=stages', { name: 'Shrinking', stages: [{ name: 'Keep' }, { name: 'Drop' }] });
    const resource = await create(api, '/v1/resource', {
      name: 'Planner of a shrinking board',
      boards: [
        {
          id: local.id,
          stages: [
            { id: local.stages[0].id, percentage: 50 },
            { id: local.stages[1].id, percentage: 50 },
          ],
        },
      ],
    });
    await remove(api, `/v1/stage/${local.stages[1].id}`);
    const read = await get(api, `/v1/resource/${resource.id}`);
    const res = await api.http('PUT', `/v1/resource/${resource.id}`, { ...read, description: 'edited in a form' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.description).toBe('edited in a form');
  });

  it('refuses a duplicate external_ref', async () => {
    const ref = `dup-${tag()}`;
    await create(api, '/v1/resource', { name: 'First', external_ref: ref });
    expectDuplicate(await api.http('POST', '/v1/resource', { name: 'Second', external_ref: ref }));
  });

  it('hides archived resources from the list unless archived=true; GET one still answers', async () => {
    const resource = await create(api, '/v1/resource', { name: `Retired ${tag()}` });
    const archived = await update(api, `/v1/resource/${resource.id}`, { archived_at: '2026-02-01T08:00:00Z' });
    expect(archived.archived_at).toBe('2026-02-01T08:00:00Z');
    expect(ids((await get(api, '/v1/resource?limit=1000')).data)).not.toContain(resource.id);
    const withArchived = await get(api, '/v1/resource?archived=true&limit=1000');
    expect(ids(withArchived.data)).toContain(resource.id);
    expect(ids((await get(api, '/v1/resource?archived=false&limit=1000')).data)).not.toContain(resource.id);
    expect((await get(api, `/v1/resource/${resource.id}`)).archived_at).toBe('2026-02-01T08:00:00Z');
    // Un-archiving brings it back.
    await update(api, `/v1/resource/${resource.id}`, { archived_at: null });
    expect(ids((await get(api, '/v1/resource?limit=1000')).data)).toContain(resource.id);
    expect((await api.http('GET', '/v1/resource?archived=maybe')).status).toBe(400);
  });

  it('deletes a resource with 204, its deviations and group memberships with it', async () => {
    const resource = await create(api, '/v1/resource', { name: 'Leaving' });
    const deviation = await create(api, `/v1/resource/${resource.id}/schedule_deviation`, {
      start_date: '2026-06-01',
      end_date: '2026-06-05',
    });
    const group = await create(api, '/v1/group', { name: 'Has the leaver', resources: [{ id: resource.id }] });
    await remove(api, `/v1/resource/${resource.id}`);
    await expectGone(api, `/v1/resource/${resource.id}`);
    expectNotFound(await api.http('GET', `/v1/resource/${resource.id}/schedule_deviation/${deviation.id}`));
    expect((await get(api, `/v1/group/${group.id}?with=resources`)).resources).toEqual([]);
    expect(ids((await get(api, '/v1/resource?archived=true&limit=1000')).data)).not.toContain(resource.id);
  });
});

describe('schedule deviation (/v1/resource/{id}/schedule_deviation)', () => {
  let resource: any;
  let colleague: any;
  const path = (r: any = resource) => `/v1/resource/${r.id}/schedule_deviation`;

  beforeAll(async () => {
    resource = await create(api, '/v1/resource', { name: 'Anna' });
    colleague = await create(api, '/v1/resource', { name: 'Ben' });
  });

  it('creates a deviation with every field (201), resource_id from the path, and reads it back', async () => {
    const body = {
      description: 'Flu',
      type: 'sick',
      start_date: '2026-01-05',
      end_date: '2026-01-09',
      time: 120,
      external_ref: `dev-${tag()}`,
    };
    const created = await create(api, path(), { ...body, resource_id: colleague.id });
    expect(created).toMatchObject({ ...body, resource_id: resource.id });
    expect(created.id).toMatch(uuidPattern);
    expect(await get(api, `${path()}/${created.id}`)).toStrictEqual(created);
    expect(ids((await get(api, path())).data)).toContain(created.id);
    expect(ids((await get(api, path(colleague))).data)).not.toContain(created.id);
    const withDeviations = await get(api, `/v1/resource/${resource.id}?with=schedule_deviations`);
    expect(ids(withDeviations.schedule_deviations)).toContain(created.id);
  });

  it('defaults to type other and a whole day (time null); a single day has start_date = end_date', async () => {
    const created = await create(api, path(), { start_date: '2026-12-25', end_date: '2026-12-25' });
    expect(created).toMatchObject({ type: 'other', time: null, description: null, external_ref: null });
  });

  // Every type the public record names (docs/API.md "Resources and paths", ScheduleDeviation): it has no list of its own.
  it.each(['leave', 'vacation', 'holiday', 'absence', 'sick', 'maintenance', 'malfunction', 'other'])('accepts type %s', async (type) => {
    expect((await create(api, path(), { type, start_date: '2026-02-02', end_date: '2026-02-02' })).type).toBe(type);
  });

  it('updates only the fields sent', async () => {
    const created = await create(api, path(), { start_date: '2026-03-02', end_date: '2026-03-06', time: 60 });
    const updated = await update(api, `${path()}/${created.id}`, { time: null, description: 'Whole days after all' });
    expect(updated).toStrictEqual({
      ...created,
      time: null,
      description: 'Whole days after all',
      updated_at: expect.stringMatching(timestampPattern),
    });
  });

  const invalid: [string, Record<string, unknown>, string[]][] = [
    ['no start_date and no end_date', { time: 60 }, ['start_date', 'end_date']],
    ['end_date before start_date', { start_date: '2026-03-02', end_date: '2026-03-01' }, ['end_date']],
    ['a start_date that is no date', { start_date: '2026-13-01', end_date: '2026-12-01' }, ['start_date']],
    ['time -1', { start_date: '2026-03-02', end_date: '2026-03-02', time: -1 }, ['time']],
    ['time 1441 (more than a day)', { start_date: '2026-03-02', end_date: '2026-03-02', time: 1441 }, ['time']],
    ['time 1.5 (not whole minutes)', { start_date: '2026-03-02', end_date: '2026-03-02', time: 1.5 }, ['time']],
    ['type "sabbatical" (not a type)', { start_date: '2026-03-02', end_date: '2026-03-02', type: 'sabbatical' }, ['type']],
    ['type "Absence" (types are lower case)', { start_date: '2026-03-02', end_date: '2026-03-02', type: 'Absence' }, ['type']],
  ];

  it.each(invalid)('refuses %s with 422 on that field', async (_label, body, fields) => {
    const before = (await get(api, `${path()}?limit=0`)).count;
    expectFieldErrors(await api.http('POST', path(), body), fields);
    expect((await get(api, `${path()}?limit=0`)).count).toBe(before);
  });

  it('refuses an update that puts end_date before the stored start_date (or start_date after the stored end_date)', async () => {
    const created = await create(api, path(), { start_date: '2026-04-06', end_date: '2026-04-10' });
    expectFieldErrors(await api.http('PUT', `${path()}/${created.id}`, { end_date: '2026-04-05' }), ['end_date']);
    expectFieldErrors(await api.http('PUT', `${path()}/${created.id}`, { start_date: '2026-04-11' }), ['end_date']);
    expect(await get(api, `${path()}/${created.id}`)).toStrictEqual(created);
  });

  it('refuses a duplicate external_ref', async () => {
    const ref = `dev-dup-${tag()}`;
    await create(api, path(), { start_date: '2026-05-04', end_date: '2026-05-04', external_ref: ref });
    expectDuplicate(await api.http('POST', path(colleague), { start_date: '2026-05-04', end_date: '2026-05-04', external_ref: ref }));
  });

  it("is 404 under another resource's path and under a resource that does not exist, whose list is empty", async () => {
    const created = await create(api, path(), { start_date: '2026-07-01', end_date: '2026-07-01' });
    expectNotFound(await api.http('GET', `${path(colleague)}/${created.id}`));
    expectNotFound(await api.http('PUT', `${path(colleague)}/${created.id}`, { time: 5 }));
    expectNotFound(await api.http('DELETE', `${path(colleague)}/${created.id}`));
    expectNotFound(await api.http('GET', `/v1/resource/${unknownId}/schedule_deviation/${created.id}`));
    // A list under a missing parent is empty, as the public API answers (docs/API.md "Compatibility").
    expect(await get(api, `/v1/resource/${unknownId}/schedule_deviation`)).toMatchObject({ count: 0, data: [] });
    expectNotFound(
      await api.http('POST', `/v1/resource/${unknownId}/schedule_deviation`, { start_date: '2026-07-01', end_date: '2026-07-01' }),
    );
    expect(await get(api, `${path()}/${created.id}`)).toStrictEqual(created);
  });

  it('deletes with 204; then it is 404 and no longer listed', async () => {
    const created = await create(api, path(), { start_date: '2026-08-03', end_date: '2026-08-04' });
    await remove(api, `${path()}/${created.id}`);
    await expectGone(api, `${path()}/${created.id}`, { time: 1 });
    expect(ids((await get(api, path())).data)).not.toContain(created.id);
    expect(ids((await get(api, `/v1/resource/${resource.id}?with=schedule_deviations`)).schedule_deviations)).not.toContain(created.id);
  });
});

describe('group', () => {
  let anna: any;
  let ben: any;
  let cara: any;

  beforeAll(async () => {
    anna = await create(api, '/v1/resource', { name: 'Anna G' });
    ben = await create(api, '/v1/resource', { name: 'Ben G' });
    cara = await create(api, '/v1/resource', { name: 'Cara G' });
  });

  it('creates a group with its resources (201), read back with resources; each resource lists the group', async () => {
    const res = await api.http('POST', '/v1/group?with=resources', { name: 'Welders', resources: [{ id: anna.id }, { id: ben.id }] });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body.name).toBe('Welders');
    expect(res.body.id).toMatch(uuidPattern);
    expect(ids(res.body.resources)).toEqual([anna.id, ben.id]);
    expect(res.body.resources[0]).toMatchObject({ name: 'Anna G', workdays: fullTime });
    expect(await get(api, `/v1/group/${res.body.id}?with=resources`)).toStrictEqual(res.body);
    expect(ids((await get(api, `/v1/resource/${anna.id}?with=groups`)).groups)).toContain(res.body.id);
    expect(ids((await get(api, `/v1/group?with=resources&filter=id:eq:${res.body.id}`)).data[0].resources)).toEqual([anna.id, ben.id]);
  });

  it('replaces the members on update by default and keeps them with update_without_delete_nested=true', async () => {
    const group = await create(api, '/v1/group', { name: 'Painters', resources: [{ id: anna.id }, { id: ben.id }] });
    const replaced = await update(api, `/v1/group/${group.id}?with=resources`, { resources: [{ id: cara.id }] });
    expect(ids(replaced.resources)).toEqual([cara.id]);
    expect(ids((await get(api, `/v1/resource/${anna.id}?with=groups`)).groups)).not.toContain(group.id);

    const merged = await update(api, `/v1/group/${group.id}?update_without_delete_nested=true&with=resources`, {
      resources: [{ id: ben.id }],
    });
    expect(ids(merged.resources).sort()).toEqual([ben.id, cara.id].sort());

    const renamed = await update(api, `/v1/group/${group.id}?with=resources`, { name: 'Painters 2' });
    expect(renamed.name).toBe('Painters 2');
    expect(ids(renamed.resources).sort()).toEqual([ben.id, cara.id].sort());
  });

  it.each([
    ['no name', { resources: [] }, ['name']],
    ['a name longer than 150', { name: 'x'.repeat(151) }, ['name']],
    ['a resource that does not exist', { name: 'G', resources: [{ id: unknownId }] }, ['resources.0.id']],
    ['a resource that is no reference', { name: 'G', resources: [{ name: 'Anna' }] }, ['resources.0.id']],
    ['resources that are not a list', { name: 'G', resources: { id: unknownId } }, ['resources']],
  ] as [string, Record<string, unknown>, string[]][])('refuses %s with 422', async (_label, body, fields) => {
    const before = (await get(api, '/v1/group?limit=0')).count;
    expectFieldErrors(await api.http('POST', '/v1/group', body), fields);
    expect((await get(api, '/v1/group?limit=0')).count).toBe(before);
  });

  it('deletes a group with 204; then it is 404 and its resources remain without it', async () => {
    const group = await create(api, '/v1/group', { name: 'Temporary', resources: [{ id: cara.id }] });
    await remove(api, `/v1/group/${group.id}`);
    await expectGone(api, `/v1/group/${group.id}`);
    expect(ids((await get(api, `/v1/resource/${cara.id}?with=groups`)).groups)).not.toContain(group.id);
    expect((await get(api, `/v1/resource/${cara.id}`)).name).toBe('Cara G');
  });
});

describe("a resource's cards, schedules and activities (with=…, filter …)", () => {
  /** A board with one stage and an entry status, so cards can be made on it. */
  async function planboard(on: TestApi) {
    return create(on, '/v1/board?with=stages', {
      name: 'Assigned work',
      stages: [{ name: 'Make' }],
      statuses: [{ name: 'Open', entry: true }],
    });
  }
  /** A card on `at` (in a collection of its own) assigned to `resources`. */
  async function card(on: TestApi, at: any, name: string, resources: any[]) {
    const collection = await create(on, '/v1/collection', { name, board_id: at.id });
    return create(on, `/v1/collection/${collection.id}/card`, {
      stage_id: at.stages[0].id,
      name,
      resources: resources.map((r) => ({ id: r.id })),
    });
  }
  let work: any;
  beforeAll(async () => {
    work = await planboard(api);
  });

  it('cards: the cards a resource is assigned to, only its own, on one and in a list', async () => {
    const anna = await create(api, '/v1/resource', { name: 'Anna (cards)' });
    const press = await create(api, '/v1/resource', { name: 'Press (cards)', type: 'machine' });
    const idle = await create(api, '/v1/resource', { name: 'Idle (cards)' });
    const legs = await card(api, work, 'Legs', [anna]);
    const top = await card(api, work, 'Top', [anna, press]);
    await card(api, work, "Nobody's", []);

    const got = await get(api, `/v1/resource/${anna.id}?with=cards.collection`);
    expect(ids(got.cards)).toEqual([legs.id, top.id]);
    expect(got.cards[1]).toMatchObject({ name: 'Top', collection: { name: 'Top' } });
    const list = await get(api, `/v1/resource?filter=id:eq:${anna.id},or,id:eq:${press.id},or,id:eq:${idle.id}&with=cards`);
    expect(Object.fromEntries(list.data.map((r: any) => [r.id, ids(r.cards)]))).toEqual({
      [anna.id]: [legs.id, top.id],
      [press.id]: [top.id],
      [idle.id]: [],
    });

    expect(ids((await get(api, `/v1/resource?filter=cards.name:eq:Top`)).data)).toEqual([anna.id, press.id]);
    expect(ids((await get(api, `/v1/resource?filter=cards:has:${legs.id}`)).data)).toEqual([anna.id]);

    // Taken off a card, the resource no longer lists it.
    await update(api, `/v1/collection/${top.collection_id}/card/${top.id}`, { resources: [{ id: press.id }] });
    expect(ids((await get(api, `/v1/resource/${anna.id}?with=cards`)).cards)).toEqual([legs.id]);
  });

  it('cards: deleting a resource takes it off its cards, and restoring it puts it back on them (docs/API.md "Trash")', async () => {
    const leaver = await create(api, '/v1/resource', { name: 'Leaver (cards)' });
    const stayer = await create(api, '/v1/resource', { name: 'Stayer (cards)' });
    const shared = await card(api, work, 'Shared', [leaver, stayer]);
    await remove(api, `/v1/resource/${leaver.id}`);
    const path = `/v1/collection/${shared.collection_id}/card/${shared.id}?with=resources`;
    expect(ids((await get(api, path)).resources)).toEqual([stayer.id]);
    expect((await api.http('POST', `/v1/trash/resource/${leaver.id}/restore`)).status).toBe(200);
    expect(ids((await get(api, `/v1/resource/${leaver.id}?with=cards`)).cards)).toEqual([shared.id]);
    expect(ids((await get(api, path)).resources).sort()).toEqual([leaver.id, stayer.id].sort());
  });

  it('schedules: its schedule deviations, as schedule_deviations reads them', async () => {
    const anna = await create(api, '/v1/resource', { name: 'Anna (schedules)' });
    const ben = await create(api, '/v1/resource', { name: 'Ben (schedules)' });
    const holiday = await create(api, `/v1/resource/${anna.id}/schedule_deviation`, {
      type: 'vacation',
      start_date: '2026-07-06',
      end_date: '2026-07-17',
    });
    const dentist = await create(api, `/v1/resource/${anna.id}/schedule_deviation`, {
      type: 'leave',
      start_date: '2026-03-02',
      end_date: '2026-03-02',
      time: 120,
    });
    const bens = await create(api, `/v1/resource/${ben.id}/schedule_deviation`, {
      type: 'sick',
      start_date: '2026-02-02',
      end_date: '2026-02-04',
    });

    const got = await get(api, `/v1/resource/${anna.id}?with=schedules,schedule_deviations`);
    expect(ids(got.schedules)).toEqual([holiday.id, dentist.id]);
    expect(got.schedules).toEqual(got.schedule_deviations);
    expect(got.schedules[1]).toMatchObject({ resource_id: anna.id, type: 'leave', time: 120 });
    const list = await get(api, `/v1/resource?filter=id:eq:${anna.id},or,id:eq:${ben.id}&with=schedules`);
    expect(Object.fromEntries(list.data.map((r: any) => [r.id, ids(r.schedules)]))).toEqual({
      [anna.id]: [holiday.id, dentist.id],
      [ben.id]: [bens.id],
    });
    expect(ids((await get(api, `/v1/resource?filter=name:ends_with:'(schedules)',and,schedules.type:eq:sick`)).data)).toEqual([ben.id]);
    expect(
      ids(
        (
          await get(
            api,
            `/v1/resource?filter=name:ends_with:'(schedules)',and,schedules.start_date:lte:2026-07-10,and,schedules.end_date:gte:2026-07-10`,
          )
        ).data,
      ),
    ).toEqual([anna.id]);
  });

  it('activities: those of its type, the work it can do; read-only, and following a change of type', async () => {
    const saw = await create(api, '/v1/activity', { description: 'Saw (by type)', resource_type: 'machine' });
    const drill = await create(api, '/v1/activity', { description: 'Drill (by type)', resource_type: 'machine' });
    const fit = await create(api, '/v1/activity', { description: 'Fit (by type)', resource_type: 'employee' });
    const laser = await create(api, '/v1/resource', { name: 'Laser (activities)', type: 'machine' });
    const lathe = await create(api, '/v1/resource', { name: 'Lathe (activities)', type: 'machine' });
    const fitter = await create(api, '/v1/resource', { name: 'Fitter (activities)', type: 'employee' });
    const cell = await create(api, '/v1/resource', { name: 'Cell (activities)', type: 'cell' });

    expect(ids((await get(api, `/v1/resource/${laser.id}?with=activities`)).activities)).toEqual([saw.id, drill.id]);
    const list = await get(api, `/v1/resource?filter=name:ends_with:'(activities)'&with=activities.stages&sort=name`);
    expect(list.data.map((r: any) => [r.id, ids(r.activities)])).toEqual([
      [cell.id, []],
      [fitter.id, [fit.id]],
      [laser.id, [saw.id, drill.id]],
      [lathe.id, [saw.id, drill.id]],
    ]);
    expect(list.data[2].activities[0].stages).toEqual([]);
    // Resources of one type share the activities, yet each answer is its own: show on one leaves the other whole.
    const shaped = await get(
      api,
      `/v1/resource?filter=id:eq:${laser.id},or,id:eq:${lathe.id}&with=activities&show=name,activities.0.description`,
    );
    expect(shaped.data.map((r: any) => r.activities)).toEqual([[{ description: 'Saw (by type)' }], [{ description: 'Saw (by type)' }]]);

    expect(
      ids((await get(api, `/v1/resource?filter=name:ends_with:'(activities)',and,activities.description:eq:'Fit (by type)'`)).data),
    ).toEqual([fitter.id]);
    expect(
      ids((await get(api, `/v1/resource?filter=name:ends_with:'(activities)',and,activities:has:${drill.id}&sort=name`)).data),
    ).toEqual([laser.id, lathe.id]);

    // Read back with its activities and PUT whole, the resource is saved and the activities stay as they are.
    const read = await get(api, `/v1/resource/${laser.id}?with=activities`);
    await update(api, `/v1/resource/${laser.id}`, { ...read, activities: [{ id: fit.id }] });
    expect(ids((await get(api, `/v1/activity?filter=resource_type:eq:machine,and,description:ends_with:'(by type)'`)).data)).toEqual([
      saw.id,
      drill.id,
    ]);
    // A machine that becomes a cell does other work.
    await update(api, `/v1/resource/${lathe.id}`, { type: 'cell' });
    expect((await get(api, `/v1/resource/${lathe.id}?with=activities`)).activities).toEqual([]);
  });

  it('offers resources: those in a group with it, each once, never itself (docs/API.md "Relations")', async () => {
    // One after the other: peers come in creation order, which concurrent requests do not have.
    const made = [];
    for (const name of ['Ann', 'Bob', 'Cat', 'Dan']) made.push(await create(api, '/v1/resource', { name: `${name} (peers)` }));
    const [ann, bob, cat, dan] = made;
    await create(api, '/v1/group', { name: 'Peers A', resources: [{ id: ann.id }, { id: bob.id }] });
    await create(api, '/v1/group', { name: 'Peers B', resources: [{ id: ann.id }, { id: bob.id }, { id: cat.id }] });
    const list = await get(api, `/v1/resource?filter=name:ends_with:'(peers)'&with=cards,resources&sort=name`);
    expect(list.data.map((r: any) => [r.name, r.resources.map((p: any) => p.name)])).toEqual([
      ['Ann (peers)', ['Bob (peers)', 'Cat (peers)']],
      ['Bob (peers)', ['Ann (peers)', 'Cat (peers)']],
      ['Cat (peers)', ['Ann (peers)', 'Bob (peers)']],
      ['Dan (peers)', []],
    ]);
    expect(ids((await get(api, `/v1/resource?filter=name:ends_with:'(peers)',and,resources:has:${cat.id}&sort=name`)).data)).toEqual([
      ann.id,
      bob.id,
    ]);
    expect(
      ids((await get(api, `/v1/resource?filter=name:ends_with:'(peers)',and,resources.name:eq:'Ann (peers)'&sort=name`)).data),
    ).toEqual([bob.id, cat.id]);
    // Read back with its peers and PUT whole, nothing about the groups changes.
    await update(api, `/v1/resource/${dan.id}`, {
      ...(await get(api, `/v1/resource/${dan.id}?with=resources`)),
      resources: [{ id: ann.id }],
    });
    expect((await get(api, `/v1/resource/${dan.id}?with=resources`)).resources).toEqual([]);
    // A deleted peer is gone from the others' lists.
    await remove(api, `/v1/resource/${cat.id}`);
    expect(ids((await get(api, `/v1/resource/${ann.id}?with=resources`)).resources)).toEqual([bob.id]);
  });

  it('loads each relation for the whole page at once: as many queries for 20 resources as for 2', async () => {
    for (let i = 0; i < 20; i++) {
      const resource = await create(api, '/v1/resource', { name: `Crowd ${i}`, type: i % 2 ? 'machine' : 'employee' });
      await create(api, `/v1/resource/${resource.id}/schedule_deviation`, { start_date: '2026-05-01', end_date: '2026-05-01' });
      await card(api, work, `Crowd card ${i}`, [resource]);
    }
    const store = api.dataDir.environment(api.environment.id);
    const loads = async (limit: number) => {
      const spy = vi.spyOn(store, 'getWhereIn');
      try {
        const list = await get(api, `/v1/resource?filter=name:starts_with:Crowd&limit=${limit}&with=cards.stage,schedules,activities`);
        expect(list.data).toHaveLength(limit);
        expect(list.data.every((r: any) => r.cards.length === 1 && r.schedules.length === 1)).toBe(true);
        return spy.mock.calls.length;
      } finally {
        spy.mockRestore();
      }
    };
    expect(await loads(20)).toBe(await loads(2));
  });

  it("never shows another environment's cards, deviations or activities, whatever with or filter asks", async () => {
    const other = otherEnvironment(api);
    const theirBoard = await planboard(other);
    const ours = await create(api, '/v1/resource', { name: 'Twin', type: 'cell' });
    const theirs = await create(other, '/v1/resource', { name: 'Twin', type: 'cell' });
    const ourCard = await card(api, work, 'Twin card', [ours]);
    const theirCard = await card(other, theirBoard, 'Twin card', [theirs]);
    const ourAbsence = await create(api, `/v1/resource/${ours.id}/schedule_deviation`, {
      type: 'holiday',
      start_date: '2026-12-24',
      end_date: '2026-12-26',
    });
    const theirAbsence = await create(other, `/v1/resource/${theirs.id}/schedule_deviation`, {
      type: 'holiday',
      start_date: '2026-12-24',
      end_date: '2026-12-26',
    });
    // Only the other environment has cell activities.
    const theirActivity = await create(other, '/v1/activity', { description: 'Cell work', resource_type: 'cell' });

    const got = await get(api, `/v1/resource/${ours.id}?with=cards,schedules,activities`);
    expect(ids(got.cards)).toEqual([ourCard.id]);
    expect(ids(got.schedules)).toEqual([ourAbsence.id]);
    expect(got.activities).toEqual([]);
    const seen = await get(other, `/v1/resource/${theirs.id}?with=cards,schedules,activities`);
    expect(ids(seen.cards)).toEqual([theirCard.id]);
    expect(ids(seen.schedules)).toEqual([theirAbsence.id]);
    expect(ids(seen.activities)).toEqual([theirActivity.id]);

    expect(ids((await get(api, `/v1/resource?filter=cards.name:eq:'Twin card'`)).data)).toEqual([ours.id]);
    expect(ids((await get(api, `/v1/resource?filter=name:eq:Twin,and,schedules.type:eq:holiday`)).data)).toEqual([ours.id]);
    expect((await get(api, `/v1/resource?filter=activities.description:eq:'Cell work'`)).count).toBe(0);
    expect((await get(api, `/v1/resource?filter=cards:has:${theirCard.id},or,schedules:has:${theirAbsence.id}`)).count).toBe(0);
    expectNotFound(await other.http('GET', `/v1/resource/${ours.id}?with=cards`));
  });
});
