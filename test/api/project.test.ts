import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { countRegisteredRoutes, hasDocumentedRoute } from '../helpers/routes.js';

const uuidPattern = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const timestampPattern = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

function expectErrorBody(body: any, status: number, message: string) {
  expect(body.reference).toMatch(/^[0-9a-f-]{36}$/);
  expect(Array.isArray(body.errors)).toBe(true);
  expect(body.errors.length).toBeGreaterThan(0);
  for (const error of body.errors) {
    expect(typeof error.code).toBe('number');
    expect(error.message).toBe(message);
    expect(typeof error.description).toBe('string');
  }
  // Never a stack trace or SQL in a response.
  expect(JSON.stringify(body)).not.toMatch(/at .*\.ts:\d+|SELECT |INSERT |sqlite/i);
  void status;
}

describe.each(['http', 'inject'] as const)('Project over %s', (transport) => {
  let api: TestApi;
  const call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) =>
    api[transport](method, path, body, headers);

  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('creates a project with 201 and returns the record with server-set id and timestamps', async () => {
    const res = await call('POST', '/v1/project', {
      name: 'Kitchen renovation',
      description: 'Three rooms',
      code: 'P-100',
      transaction: 'T1',
      external_ref: 'ext-1',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Kitchen renovation',
      description: 'Three rooms',
      code: 'P-100',
      transaction: 'T1',
      external_ref: 'ext-1',
    });
    expect(res.body.id).toMatch(uuidPattern);
    expect(res.body.created_at).toMatch(timestampPattern);
    expect(res.body.updated_at).toMatch(timestampPattern);
  });

  it('ignores server-owned fields in the body', async () => {
    const res = await call('POST', '/v1/project', {
      name: 'Shed',
      id: '00000000-0000-4000-8000-000000000000',
      created_at: '2000-01-01T00:00:00Z',
    });
    expect(res.status).toBe(201);
    expect(res.body.id).not.toBe('00000000-0000-4000-8000-000000000000');
    expect(res.body.created_at).not.toBe('2000-01-01T00:00:00Z');
  });

  it('lists projects in the envelope count, limit, offset, data', async () => {
    const res = await call('GET', '/v1/project');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ count: 2, limit: 100, offset: 0 });
    expect(res.body.data.map((p: any) => p.name)).toEqual(['Kitchen renovation', 'Shed']);
  });

  it('gets, updates (partially) and deletes a project; after delete it is 404', async () => {
    const created = (await call('POST', '/v1/project', { name: 'Garage', code: 'G1' })).body;
    const got = await call('GET', `/v1/project/${created.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(created);

    const updated = await call('PUT', `/v1/project/${created.id}`, { name: 'Garage door' });
    expect(updated.status).toBe(200);
    expect(updated.body).toMatchObject({ id: created.id, name: 'Garage door', code: 'G1' });

    const deleted = await call('DELETE', `/v1/project/${created.id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body === null || deleted.body === '').toBe(true);

    const gone = await call('GET', `/v1/project/${created.id}`);
    expect(gone.status).toBe(404);
    expectErrorBody(gone.body, 404, 'Not Found');
    expect((await call('PUT', `/v1/project/${created.id}`, { name: 'x' })).status).toBe(404);
    expect((await call('DELETE', `/v1/project/${created.id}`)).status).toBe(404);
  });

  it('answers an unknown or malformed id with 404', async () => {
    const unknown = await call('GET', '/v1/project/01234567-89ab-7def-8123-456789abcdef');
    expect(unknown.status).toBe(404);
    expect((await call('GET', '/v1/project/not-a-uuid')).status).toBe(404);
  });

  it('rejects invalid input with 422 and one error per offending field, changing nothing', async () => {
    const before = (await call('GET', '/v1/project')).body.count;
    const res = await call('POST', '/v1/project', { description: 5, code: 'x'.repeat(101), external_ref: ['a'] });
    expect(res.status).toBe(422);
    expectErrorBody(res.body, 422, 'Unprocessable Content');
    const fields = res.body.errors.map((e: any) => e.field).sort();
    expect(fields).toEqual(['code', 'description', 'external_ref', 'name']);
    expect((await call('GET', '/v1/project')).body.count).toBe(before);
  });

  it('rejects a null name on update with 422 and keeps the record', async () => {
    const created = (await call('POST', '/v1/project', { name: 'Keep me' })).body;
    const res = await call('PUT', `/v1/project/${created.id}`, { name: null });
    expect(res.status).toBe(422);
    expect(res.body.errors[0].field).toBe('name');
    expect((await call('GET', `/v1/project/${created.id}`)).body.name).toBe('Keep me');
  });

  it('answers malformed JSON with 400 and the error body', async () => {
    const res = await call('POST', '/v1/project', '{"name": ');
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 400, 'Bad Request');
  });

  it('answers a body that is not an object with 400', async () => {
    const res = await call('POST', '/v1/project', [1, 2]);
    expect(res.status).toBe(400);
    expectErrorBody(res.body, 400, 'Bad Request');
  });

  it('refuses a duplicate external_ref with 422 "Duplicate entry", also after the first is deleted', async () => {
    const first = (await call('POST', '/v1/project', { name: 'A', external_ref: 'dup-1' })).body;
    const dup = await call('POST', '/v1/project', { name: 'B', external_ref: 'dup-1' });
    expect(dup.status).toBe(422);
    expect(dup.body.errors[0]).toMatchObject({ field: 'external_ref', description: 'Duplicate entry' });
    await call('DELETE', `/v1/project/${first.id}`);
    expect((await call('POST', '/v1/project', { name: 'C', external_ref: 'dup-1' })).status).toBe(422);
  });

  it('answers an unknown route with 404 and the error body', async () => {
    const res = await call('GET', '/v1/nothing-here');
    expect(res.status).toBe(404);
    expectErrorBody(res.body, 404, 'Not Found');
  });
});

describe('credentials', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  const cases: [string, Record<string, string>][] = [
    ['no headers', {}],
    ['only a key', { 'x-api-key': 'test-key-123' }],
    ['only an environment', { 'x-api-env': 'test' }],
    ['a wrong key', { 'x-api-key': 'wrong-key', 'x-api-env': 'test' }],
    ['an unknown environment', { 'x-api-key': 'test-key-123', 'x-api-env': 'other' }],
  ];

  it.each(cases)('answers %s with 401 "Not Logged In"', async (_name, headers) => {
    const res = await fetch(`${api.baseUrl}/v1/project`, { headers });
    expect(res.status).toBe(401);
    const body = await res.json();
    expectErrorBody(body, 401, 'Not Logged In');
  });

  it('checks credentials before reading a body, so a bad body without a key is 401', async () => {
    const res = await fetch(`${api.baseUrl}/v1/project`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{bad' });
    expect(res.status).toBe(401);
  });

  it('accepts header names in any case', async () => {
    const res = await fetch(`${api.baseUrl}/v1/project`, { headers: { 'X-Api-Key': 'test-key-123', 'X-Api-Env': 'test' } });
    expect(res.status).toBe(200);
  });

  it('keeps environments apart: a record of one is not visible, readable or deletable from another', async () => {
    const other = api.dataDir.system.createEnvironment('other-env');
    api.dataDir.system.addApiKey(other.id, 'other-key-456');
    const otherHeaders = { 'x-api-key': 'other-key-456', 'x-api-env': 'other-env' };
    const mine = (await api.http('POST', '/v1/project', { name: 'Mine only' })).body;

    const list = await api.http('GET', '/v1/project', undefined, otherHeaders);
    expect(list.body.data.map((p: any) => p.id)).not.toContain(mine.id);
    expect((await api.http('GET', `/v1/project/${mine.id}`, undefined, otherHeaders)).status).toBe(404);
    expect((await api.http('DELETE', `/v1/project/${mine.id}`, undefined, otherHeaders)).status).toBe(404);
    // A key of one environment does not open another.
    expect((await api.http('GET', '/v1/project', undefined, { 'x-api-key': 'other-key-456', 'x-api-env': 'test' })).status).toBe(401);
    expect((await api.http('GET', `/v1/project/${mine.id}`)).status).toBe(200);
  });
});

describe('request bodies', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });
  const send = (method: string, path: string, contentType: string | null, body?: string) =>
    fetch(`${api.baseUrl}${path}`, {
      method,
      headers: { ...api.headers, ...(contentType ? { 'content-type': contentType } : {}) },
      ...(body === undefined ? {} : { body }),
    });

  it('reads an empty body sent as application/json as no body, as the public API’s clients send it', async () => {
    const project = (await api.http('POST', '/v1/project', { name: 'Empty body' })).body;
    expect((await send('DELETE', `/v1/project/${project.id}`, 'application/json')).status).toBe(204);
    expect((await send('DELETE', `/v1/project/${project.id}`, 'application/json', '')).status).toBe(404);
    expect((await send('DELETE', `/v1/project/${project.id}`, 'application/json; charset=utf-8', '  ')).status).toBe(404);
  });

  it.each([
    ['text/plain', '{"name":"Plain"}'],
    ['application/xml', '<project name="Xml"/>'],
    ['application/x-www-form-urlencoded', 'name=Form'],
  ])('answers a %s body with 415 and writes nothing', async (type, body) => {
    const before = (await api.http('GET', '/v1/project?limit=0')).body.count;
    const res = await send('POST', '/v1/project', type, body);
    expect(res.status).toBe(415);
    expectErrorBody(await res.json(), 415, 'Unsupported Media Type');
    expect((await api.http('GET', '/v1/project?limit=0')).body.count).toBe(before);
  });

  it.each([['null'], ['[]'], ['"Name"'], ['42'], ['{bad']])('answers the JSON body %s with 400, not as an empty record', async (body) => {
    const before = (await api.http('GET', '/v1/project?limit=0')).body.count;
    const res = await send('POST', '/v1/project', 'application/json', body);
    expect(res.status).toBe(400);
    expectErrorBody(await res.json(), 400, 'Bad Request');
    expect((await api.http('GET', '/v1/project?limit=0')).body.count).toBe(before);
  });

  it('keeps prototype-poisoning protection: a __proto__ key is refused', async () => {
    const res = await send('POST', '/v1/project', 'application/json', '{"name":"P","__proto__":{"admin":true}}');
    expect(res.status).toBe(400);
  });
});

describe('OpenAPI document', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api.close();
  });

  it('is OpenAPI 3.1 and describes every route that exists', async () => {
    const res = await api.http('GET', '/v1/openapi.json');
    expect(res.status).toBe(200);
    expect(res.body.openapi).toBe('3.1.0');
    const documented = new Set<string>();
    for (const [path, ops] of Object.entries<Record<string, unknown>>(res.body.paths)) {
      for (const method of Object.keys(ops)) documented.add(`${method.toUpperCase()} ${path}`);
    }
    // Every route Fastify knows (but HEAD) is in the document, and nothing else.
    expect(documented).toContain('POST /v1/project');
    for (const route of documented) expect(hasDocumentedRoute(api.app, route), route).toBe(true);
    expect(documented.size).toBe(countRegisteredRoutes(api.app));
    expect(res.body.components.schemas.Project.properties.name.maxLength).toBe(150);
    expect(res.body.components.schemas.ProjectInput.required).toEqual(['name']);
  });
});
