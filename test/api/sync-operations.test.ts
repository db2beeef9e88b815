/**
 * The local replica's sync control as declared operations (shared/operations/sync.ts;
 * docs/API.md "Sync"): the settings' body is checked against the declaration, every problem
 * one 422 item named by its path together with the rules a shape cannot say (https, api_env
 * with api_key), before anything else is looked at; the OpenAPI document shows the bodies of
 * the settings and of a conflict's retry.
 *
 * This API syncs with no remote, so a body that passes is answered 409: a 422 here shows the
 * body was refused before the sync control was asked.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectFieldErrors } from '../helpers/order-data.js';

let api: TestApi;

beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

const byField = (res: { body: any }) =>
  Object.fromEntries(res.body.errors.map((e: { field: string; description: string }) => [e.field, e.description]));

describe('the sync settings', () => {
  it('names each wrong type by its path, and never repeats a credential', async () => {
    const res = await api.inject('PUT', '/v1/sync/settings', {
      remote_url: 'https://planner.example.com',
      api_env: 'prod',
      api_key: 7,
      refresh_token: '',
      allow_insecure_http: 'yes',
    });
    expectFieldErrors(res, ['api_key', 'refresh_token', 'allow_insecure_http']);
    expect(byField(res)).toEqual({
      api_key: 'api_key must be text of 1 to 4096 characters',
      refresh_token: 'refresh_token must be text of 1 to 4096 characters',
      allow_insecure_http: 'allow_insecure_http must be true or false',
    });

    const secret = 'a-secret-key-of-the-remote';
    const wrong = await api.inject('PUT', '/v1/sync/settings', { remote_url: 42, api_env: 'prod', api_key: secret });
    expectFieldErrors(wrong, ['remote_url']);
    expect(JSON.stringify(wrong.body)).not.toContain(secret);
  });

  it('refuses a field it does not take, beside the rules a shape cannot say, in one answer', async () => {
    const res = await api.inject('PUT', '/v1/sync/settings', {
      remote_url: 'http://planner.example.com',
      api_key: 'remote-key',
      password: 'hunter2',
    });
    expectFieldErrors(res, ['remote_url', 'api_env', 'password']);
    expect(byField(res)).toMatchObject({
      remote_url: expect.stringMatching(/must use https/),
      api_env: 'api_env goes with api_key',
      password: 'password is not something this takes',
    });
    // Alone, a field it does not take is refused too, before the missing sync is answered.
    expectFieldErrors(await api.inject('PUT', '/v1/sync/settings', { remote_url: null, interval: 5 }), ['interval']);
    expect((await api.inject('PUT', '/v1/sync/settings', { remote_url: null })).status).toBe(409);
  });

  it('needs remote_url, and keeps the friendly words for an address that is no http(s) URL', async () => {
    const missing = await api.inject('PUT', '/v1/sync/settings', { api_env: 'prod' });
    expectFieldErrors(missing, ['remote_url']);
    expect(byField(missing).remote_url).toBe('remote_url is required');
    const res = await api.inject('PUT', '/v1/sync/settings', { remote_url: 'planner.example.com' });
    expectFieldErrors(res, ['remote_url']);
    expect(byField(res).remote_url).toBe('remote_url must be an http(s) URL of at most 512 characters, or null to stop syncing');
  });
});

describe('the OpenAPI document', () => {
  it('shows the bodies of the sync settings and of a retry as declared', async () => {
    const paths = (await api.inject('GET', '/v1/openapi.json')).body.paths;
    const settings = paths['/v1/sync/settings'].put.requestBody.content['application/json'].schema;
    expect(settings).toMatchObject({ type: 'object', required: ['remote_url'], additionalProperties: false });
    expect(Object.keys(settings.properties).sort()).toEqual(
      ['access_token', 'allow_insecure_http', 'api_env', 'api_key', 'refresh_token', 'remote_url'].sort(),
    );
    expect(settings.properties.api_key).toMatchObject({ type: 'string', minLength: 1, maxLength: 4096 });
    // null stops syncing, so the schema lists it beside text.
    expect(settings.properties.remote_url).toMatchObject({ type: ['string', 'null'], maxLength: 512 });
    expect(settings.properties.allow_insecure_http).toMatchObject({ type: 'boolean' });

    const retry = paths['/v1/sync/conflict/{id}/retry'].post.requestBody.content['application/json'].schema;
    expect(retry).toMatchObject({ type: 'object', properties: {} });
    expect(retry.additionalProperties).toBeUndefined();
    expect(paths['/v1/sync/conflict/{id}/discard'].post.requestBody).toBeUndefined();
  });
});
