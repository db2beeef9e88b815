/**
 * The sync push as a declared operation (shared/operations/sync.ts, docs/architecture.md
 * "Operations"): the remote checks a push against the declaration — every problem named by its
 * path, 400 as the protocol documents (docs/API.md "Sync"), nothing applied — takes a newer
 * replica's extra keys without handing them on, and the OpenAPI document shows the body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mutationHash } from '../../electron/store/sync-book.js';
import { formatHlc } from '../../shared/hlc.js';
import { uuidv7 } from '../../shared/ids.js';
import { checkBody } from '../../shared/operation.js';
import { maxPushGroup, pushOperation, type Mutation } from '../../shared/operations/sync.js';
import { call, ok } from '../helpers/sync-cluster.js';
import { startInProcessRemote, type InProcessRemote } from '../helpers/sync-inprocess.js';

let remote: InProcessRemote;
const t0 = Date.now() - 60_000;
const hlc = (ms: number, node = 'pushop') => formatHlc({ millis: t0 + ms, counter: 0, node });

const createProject = (mutation_id: number, id: string, name: string, at: string): Mutation => ({
  mutation_id,
  resource: 'project',
  id,
  op: 'create',
  fields: { name, created_at: '2026-01-01T00:00:00Z', updated_at: '2026-01-01T00:00:00Z' },
  hlc: at,
});

const push = (body: unknown) => call(remote, 'POST', '/v1/sync/push', body);
const projectStatus = async (id: string) => (await call(remote, 'GET', `/v1/project/${id}`)).status;

beforeAll(async () => {
  remote = await startInProcessRemote();
});

afterAll(async () => {
  await remote?.close();
});

describe('the push operation', () => {
  it('checks a body against the declaration: ids in lower case, fields handed on as sent, extra keys left out', () => {
    const fields = { name: 'As sent' };
    const id = uuidv7();
    const { value, problems } = checkBody(pushOperation.body, {
      client_id: 'r1',
      from_a_newer_replica: true,
      mutations: [{ mutation_id: 1, resource: 'project', id: id.toUpperCase(), op: 'update', fields, hlc: hlc(1), later_key: 1 }],
    });
    expect(problems).toEqual([]);
    expect(value).toEqual({ client_id: 'r1', mutations: [{ mutation_id: 1, resource: 'project', id, op: 'update', fields, hlc: hlc(1) }] });
    // A record's fields are the resource's to check: the same object, not a copy per mutation.
    expect(value.mutations[0]!.fields).toBe(fields);
  });

  it('refuses a malformed push with 400 naming every problem by its path, and applies nothing', async () => {
    const good = uuidv7();
    const res = await push({
      client_id: 'not a replica id!',
      mutations: [
        createProject(1, good, 'Never applied', hlc(10)),
        { ...createProject(2, uuidv7(), 'Bad clock', 'yesterday') },
        { ...createProject(3, uuidv7(), 'Bad op', hlc(12)), op: 'upsert', group_id: 'no spaces allowed' },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(400);
    expect(res.body.errors.map((e: { code: number; field: string }) => [e.code, e.field])).toEqual([
      [10400, 'client_id'],
      [10400, 'mutations.1.hlc'],
      [10400, 'mutations.2.op'],
      [10400, 'mutations.2.group_id'],
    ]);
    expect(res.body.errors[1].description).toMatch(/^mutations\.1\.hlc must be text of 1 to 83 characters matching/);
    expect(await projectStatus(good)).toBe(404);
  });

  it("applies a newer replica's push with keys this version does not know, hashed as the mutation alone", async () => {
    const id = uuidv7();
    const mutation = createProject(1, id, 'From a newer replica', hlc(20));
    const sent = { client_id: 'newer', some_new_setting: 'x', mutations: [{ ...mutation, priority: 'high' }] };
    const first = await ok(remote, 'POST', '/v1/sync/push', sent, 200);
    expect(first.results).toEqual([{ mutation_id: 1, status: 'applied' }]);
    // Resent, it is recognised by the content hash of the declared keys only.
    const again = await ok(remote, 'POST', '/v1/sync/push', sent, 200);
    expect(again.results).toEqual([{ mutation_id: 1, status: 'applied', duplicate: true, hash: mutationHash(mutation) }]);
    expect(await projectStatus(id)).toBe(200);
  });

  it('shows the push body in the OpenAPI document, from the declaration', async () => {
    const doc = await ok(remote, 'GET', '/v1/openapi.json', undefined, 200);
    const schema = doc.paths['/v1/sync/push'].post.requestBody.content['application/json'].schema;
    expect(schema).toMatchObject({ type: 'object', required: ['client_id', 'mutations'] });
    expect(schema.additionalProperties).toBeUndefined();
    expect(schema.properties.client_id).toMatchObject({ type: 'string', minLength: 1, maxLength: 100, pattern: '^[A-Za-z0-9_.:-]+$' });
    const mutations = schema.properties.mutations;
    expect(mutations).toMatchObject({ type: 'array', minItems: 0, maxItems: maxPushGroup });
    expect(mutations.items.required).toEqual(['mutation_id', 'resource', 'id', 'op', 'hlc']);
    expect(mutations.items.properties).toMatchObject({
      mutation_id: { type: 'integer', minimum: 1 },
      id: { type: 'string', format: 'uuid' },
      op: { type: 'string', enum: ['create', 'update', 'delete'] },
      hlc: { type: 'string', pattern: expect.stringContaining('[0-9a-f]{4}') },
      group_id: { type: 'string', maxLength: 100 },
      group_description: { type: 'string', maxLength: 200 },
    });
    expect(Object.keys(mutations.items.properties)).toEqual([
      'mutation_id',
      'resource',
      'id',
      'op',
      'fields',
      'hlc',
      'group_id',
      'group_description',
    ]);
  });
});
