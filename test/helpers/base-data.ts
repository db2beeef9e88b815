/**
 * Shared pieces of the base-data API tests (test/api/base-data*.test.ts) and the schedule and
 * capacity tests: workday presets, request shortcuts that fail the test on an unexpected
 * status, the "it is gone" check after a delete, a second environment of the same API, and the
 * one-stage shop of the capacity tests worked out by hand, with its promise dates.
 */
import { expect } from 'vitest';
import type { TestApi } from './api.js';
import { create, expectErrorBody } from './order-data.js';

export {
  create,
  expectErrorBody,
  expectFieldErrors,
  expectDuplicate,
  get,
  timestampPattern,
  unknownId,
  uuidPattern,
} from './order-data.js';

/** Board workdays, Monday = "1": the default Monday to Friday. */
export const officeWeek = { '1': true, '2': true, '3': true, '4': true, '5': true, '6': false, '7': false } as const;

/** Resource workdays in hours, Monday = "1": the default 8 hours Monday to Friday. */
export const fullTime = { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null } as const;

/** A copy of `object` without `key`. */
export function without<T extends Record<string, unknown>>(object: T, key: string): Record<string, unknown> {
  return Object.fromEntries(Object.entries(object).filter(([k]) => k !== key));
}

/** PUT that must answer 200; returns the record. */
export async function update(api: TestApi, path: string, body: Record<string, unknown>): Promise<any> {
  const res = await api.http('PUT', path, body);
  expect(res.status, `PUT ${path}: ${JSON.stringify(res.body)}`).toBe(200);
  return res.body;
}

/** DELETE that must answer 204 with no body. */
export async function remove(api: TestApi, path: string): Promise<void> {
  const res = await api.http('DELETE', path);
  expect(res.status, `DELETE ${path}: ${JSON.stringify(res.body)}`).toBe(204);
  expect(res.body === null || res.body === '').toBe(true);
}

/** After a delete: GET, PUT and DELETE of the record all answer 404 with the error body. */
export async function expectGone(api: TestApi, path: string, putBody: Record<string, unknown> = { name: 'x' }): Promise<void> {
  const got = await api.http('GET', path);
  expect(got.status, `GET ${path}`).toBe(404);
  expectErrorBody(got.body, 'Not Found');
  expect((await api.http('PUT', path, putBody)).status, `PUT ${path}`).toBe(404);
  expect((await api.http('DELETE', path)).status, `DELETE ${path}`).toBe(404);
}

/** A 404 with the documented error body. */
export function expectNotFound(res: { status: number; body: any }): void {
  expect(res.status, JSON.stringify(res.body)).toBe(404);
  expectErrorBody(res.body, 'Not Found');
  expect(res.body.errors[0].code).toBe(10404);
}

/** The ids of a list (or embedded list), in order. */
export function ids(records: { id: string }[]): string[] {
  return records.map((r) => r.id);
}

/**
 * A second environment of the same API, with its own key: the same server and data folder, so
 * a test can show that `with` and relation filters never reach across environments. Use it
 * with create, get, update and remove like the first.
 */
export function otherEnvironment(api: TestApi, name = 'other'): TestApi {
  const environment = api.dataDir.system.ensureEnvironment(name);
  const key = `${name}-key-456`;
  api.dataDir.system.ensureApiKey(environment.id, key);
  const headers = { 'x-api-key': key, 'x-api-env': environment.name };
  return {
    ...api,
    environment,
    headers,
    http: (method, path, body, extra) => api.http(method, path, body, { ...headers, ...extra }),
    inject: (method, path, body, extra) => api.inject(method, path, body, { ...headers, ...extra }),
    // The server and the folder are the first environment's to close.
    close: async () => {},
  };
}

type Named = { name: string } & Record<string, unknown>;

/**
 * A board (Mon–Fri unless told) with one stage that allows one activity and the entry status
 * Ready, and one resource (8 h Mon–Fri unless told) working all its time on that stage: the
 * shop of the capacity tests worked out by hand for one person or machine (setup times, second
 * shifts). Each part takes its own fields besides its name: setup minutes, a second shift, …
 */
export async function oneStageShop(
  api: TestApi,
  activityId: string,
  parts: { board: Named; stage: Named; resource: Named },
): Promise<{ boardId: string; stageId: string; resourceId: string }> {
  const board = await create(api, '/v1/board?with=stages', {
    workdays: officeWeek,
    ...parts.board,
    stages: [{ ...parts.stage, activities: [{ id: activityId, priority: 0 }] }],
  });
  await create(api, `/v1/board/${board.id}/status`, { name: 'Ready', priority: 0, entry: true, exit: false });
  const stageId: string = board.stages[0].id;
  const resource = await create(api, '/v1/resource', {
    workdays: fullTime,
    ...parts.resource,
    boards: [{ id: board.id, active: true, stages: [{ id: stageId, percentage: 100, active: true }] }],
  });
  return { boardId: board.id, stageId, resourceId: resource.id };
}

/** The finite promise date of one draft of `minutes` of an activity, from `start` (docs/API.md "Finite-capacity planning"). */
export async function draftPromise(api: TestApi, boardId: string, activityId: string, minutes: number, start: string): Promise<unknown> {
  const res = await api.http('POST', `/v1/board/${boardId}/promise_dates`, {
    start,
    capacity: 'finite',
    drafts: [{ key: 'draft', rows: [{ activity_id: activityId, duration: minutes }] }],
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body.data[0];
}
