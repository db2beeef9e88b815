/**
 * Shared pieces of the base-data API tests (test/api/base-data*.test.ts) and the schedule and
 * capacity tests: workday presets, request shortcuts that fail the test on an unexpected
 * status, the "it is gone" check after a delete, and a second environment of the same API.
 */
import { expect } from 'vitest';
import type { TestApi } from './api.js';
import { expectErrorBody } from './order-data.js';

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
