/**
 * Boolean query values are read without regard to case (docs/API.md "Lists"): `true`, `True`,
 * `TRUE`, `1`, `false`, `False`, `0`, in every boolean parameter and in filter values on
 * boolean fields, because a real client of the public API sends `archived=True`. Anything else
 * stays a 400 with the error body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluateFilter } from '../../shared/filter-eval.js';
import { parseFilter } from '../../shared/filter.js';
import { timeTrackingSpec } from '../../shared/resources/time-tracking.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectBadRequest } from '../helpers/api-errors.js';

let api: TestApi;
let kept: string;
let archived: string;

beforeAll(async () => {
  api = await startTestApi();
  kept = (await api.http('POST', '/v1/activity', { description: 'Welding' })).body.id;
  archived = (await api.http('POST', '/v1/activity', { description: 'Old welding', archived_at: '2026-01-01T00:00:00Z' })).body.id;
  for (const [start, end] of [
    ['2026-11-02T08:00:00Z', '2026-11-02T09:00:00Z'],
    ['2026-11-03T08:00:00Z', null],
  ] as const) {
    const res = await api.http('POST', '/v1/time_tracking', { activity_id: kept, start, end });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
  }
});
afterAll(async () => {
  await api.close();
});

const idsOf = (res: { body: any }): string[] => res.body.data.map((r: any) => r.id).sort();

describe('boolean query values in any case', () => {
  it('archived=True, TRUE and 1 list the archived records too; False, FALSE and 0 leave them out', async () => {
    for (const yes of ['true', 'True', 'TRUE', '1']) {
      const res = await api.http('GET', `/v1/activity?archived=${yes}`);
      expect(res.status, yes).toBe(200);
      expect(idsOf(res), yes).toEqual([kept, archived].sort());
    }
    for (const no of ['false', 'False', 'FALSE', '0', '']) {
      const res = await api.http('GET', `/v1/activity?archived=${no}`);
      expect(res.status, no).toBe(200);
      expect(idsOf(res), no).toEqual([kept]);
    }
  });

  it('filter values on boolean fields: running:eq:True, running:eq:FALSE', async () => {
    const running = await api.http('GET', `/v1/time_tracking?filter=${encodeURIComponent('running:eq:True')}`);
    expect(running.status).toBe(200);
    expect(running.body.data.map((e: any) => e.end)).toEqual([null]);
    const stopped = await api.http('GET', `/v1/time_tracking?filter=${encodeURIComponent('running:eq:FALSE')}`);
    expect(stopped.body.data.map((e: any) => e.end)).toEqual(['2026-11-02T09:00:00Z']);
    // The renderer's own filter evaluation reads them alike.
    expect(evaluateFilter(parseFilter('running:eq:True'), { running: true }, timeTrackingSpec.fields)).toBe(true);
    expect(evaluateFilter(parseFilter('running:eq:False'), { running: true }, timeTrackingSpec.fields)).toBe(false);
  });

  it('update_without_delete_nested=True keeps what the body leaves out', async () => {
    const board = (await api.http('POST', '/v1/board?with=stages', { name: 'North', stages: [{ name: 'Saw' }, { name: 'Paint' }] })).body;
    const res = await api.http('PUT', `/v1/board/${board.id}?update_without_delete_nested=True&with=stages`, {
      stages: [{ id: board.stages[0].id, name: 'Sawing' }],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.stages.map((s: any) => s.name).sort()).toEqual(['Paint', 'Sawing']);
  });

  it('the time report takes bom=True; mark_exported takes all=TRUE', async () => {
    const csv = await fetch(`${api.baseUrl}/v1/time_tracking/export?start=2026-11-02&end=2026-11-02&format=csv&bom=True`, {
      headers: api.headers,
    });
    expect(csv.status).toBe(200);
    expect([...Buffer.from(await csv.arrayBuffer()).subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const first = await api.http('POST', `/v1/time_tracking/mark_exported?filter=${encodeURIComponent('running:eq:False')}`, {});
    expect(first.body.count).toBe(1);
    const again = await api.http('POST', `/v1/time_tracking/mark_exported?all=TRUE&filter=${encodeURIComponent('running:eq:False')}`, {});
    expect(again.status).toBe(200);
    expect(again.body.count).toBe(1);
  });

  it('a word that is no boolean is still a 400 naming the parameter', async () => {
    expectBadRequest(await api.http('GET', '/v1/activity?archived=yes'), 'archived');
    expectBadRequest(await api.http('GET', `/v1/time_tracking?filter=${encodeURIComponent('running:eq:Yes')}`), 'Yes');
    expectBadRequest(await api.http('POST', '/v1/time_tracking/mark_exported?all=maybe', {}), 'all');
    expectBadRequest(await api.http('GET', '/v1/time_tracking/export?bom=tru'), 'bom');
  });
});
