/**
 * Text with an unpaired UTF-16 surrogate (`"\ud800x"` in JSON) has no UTF-8 form: SQLite
 * stored it as invalid bytes that read back as three U+FFFD. Any string in a JSON body,
 * key or value, declared field or not, is refused with 422 naming the field, and nothing is
 * written (docs/API.md "Errors"). A sync push refuses the one mutation, not the batch, so a
 * replica's queue never stops on it. Surrogate pairs (emoji) are ordinary text.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatHlc } from '../../shared/hlc.js';
import { uuidv7 } from '../../shared/ids.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectErrorBody } from '../helpers/api-errors.js';

let api: TestApi;
let boardId: string;
let collectionId: string;

beforeAll(async () => {
  api = await startTestApi();
  boardId = (await api.http('POST', '/v1/board', { name: 'Text' })).body.id;
  collectionId = (await api.http('POST', '/v1/collection', { name: 'Order 1', board_id: boardId })).body.id;
});
afterAll(async () => {
  await api.close();
});

/** The body as JSON text: `\\ud800` in these strings is the six characters of a JSON escape. */
function expectRefused(res: { status: number; body: any }, field: string): void {
  expect(res.status, JSON.stringify(res.body)).toBe(422);
  expectErrorBody(res.body, 10422, 'Unprocessable Content');
  expect(res.body.errors).toHaveLength(1);
  expect(res.body.errors[0].field).toBe(field);
  expect(res.body.errors[0].description).toContain('unpaired UTF-16 surrogate');
}

const count = async (path: string) => (await api.http('GET', `${path}?limit=0`)).body.count as number;

describe('a lone surrogate in a JSON body', () => {
  it('is refused with 422 naming the field, over HTTP and inject, and nothing is written; pairs are text', async () => {
    const before = await count('/v1/project');
    for (const text of ['"\\ud800x"', '"x\\udc00"', '"\\udbff"', '"\\ude00\\ud83d"']) {
      expectRefused(await api.http('POST', '/v1/project', `{"name":${text}}`), 'name');
      expectRefused(await api.inject('POST', '/v1/project', `{"name":${text}}`), 'name');
    }
    expect(await count('/v1/project')).toBe(before);

    // Surrogate pairs (emoji) and NUL are ordinary text, stored and read back as sent.
    const made = await api.http('POST', '/v1/project', '{"name":"Launch \\ud83d\\ude80","description":"\\u0000 and \\ud83d\\ude00"}');
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const back = (await api.http('GET', `/v1/project/${made.body.id}`)).body;
    expect(back.name).toBe('Launch 🚀');
    expect(back.description).toBe('\u0000 and 😀');
  });

  it('is refused in nested items, fields the route ignores and keys, with the path as the field', async () => {
    const before = await count('/v1/project');
    expectRefused(await api.http('POST', '/v1/project', '{"name":"ok","meta":{"notes":["fine","\\ud800"]}}'), 'meta.notes.1');
    expectRefused(await api.http('POST', '/v1/project', '{"name":"ok","\\ud800":1}'), '\ud800');
    expect(await count('/v1/project')).toBe(before);

    const stages = await count('/v1/stage');
    expectRefused(await api.http('PUT', `/v1/board/${boardId}`, '{"stages":[{"name":"Cut"},{"name":"\\udfff"}]}'), 'stages.1.name');
    expect(await count('/v1/stage')).toBe(stages);

    const collection = (await api.http('GET', `/v1/collection/${collectionId}`)).body;
    expectRefused(await api.http('PUT', `/v1/collection/${collectionId}/custom_field/Note`, '{"value":"\\ud800"}'), 'value');
    expect((await api.http('GET', `/v1/collection/${collectionId}`)).body).toEqual(collection);
  });
});

describe('a lone surrogate in a sync push', () => {
  it('rejects that mutation with 422 naming the field and applies the others', async () => {
    const hlc = formatHlc({ millis: Date.now(), counter: 0, node: 'text-replica' });
    const [bad, unknownField, good] = [uuidv7(), uuidv7(), uuidv7()];
    const body =
      '{"client_id":"text-replica","mutations":[' +
      `{"mutation_id":1,"resource":"project","id":"${bad}","op":"create","fields":{"name":"\\ud800x"},"hlc":"${hlc}"},` +
      `{"mutation_id":2,"resource":"project","id":"${unknownField}","op":"create","fields":{"name":"ok","not_yet_known":{"a":"\\udc00"}},"hlc":"${hlc}"},` +
      `{"mutation_id":3,"resource":"project","id":"${good}","op":"create","fields":{"name":"Good \\ud83d\\ude00"},"hlc":"${hlc}"}]}`;
    const push = await api.http('POST', '/v1/sync/push', body);
    expect(push.status, JSON.stringify(push.body)).toBe(200);
    const [first, second, third] = push.body.results;
    expect(first).toMatchObject({ mutation_id: 1, status: 'rejected' });
    expect(first.error.errors[0]).toMatchObject({ code: 10422, field: 'name' });
    expect(second).toMatchObject({ mutation_id: 2, status: 'rejected' });
    expect(second.error.errors[0]).toMatchObject({ code: 10422, field: 'not_yet_known.a' });
    expect(third).toMatchObject({ mutation_id: 3, status: 'applied' });
    expect(push.body.last_mutation_id).toBe(3);

    expect((await api.http('GET', `/v1/project/${bad}`)).status).toBe(404);
    expect((await api.http('GET', `/v1/project/${unknownField}`)).status).toBe(404);
    expect((await api.http('GET', `/v1/project/${good}`)).body.name).toBe('Good 😀');
  });
});
