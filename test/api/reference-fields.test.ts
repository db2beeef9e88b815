/**
 * Fields of the public API's records that were added later (docs/API.md "Resources and paths": resource, user,
 * attachment, webhook; migration 0010-reference-fields.ts), over real HTTP: each comes back from
 * POST, GET (one and list) and PUT with its type and default, server-owned ones ignore what a
 * client sends, and the OpenAPI document lists them. Also `position`, documented as null.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '../../electron/api/oauth/clients.js';
import { startTestApi, type TestApi } from '../helpers/api.js';
import { expectFieldErrors } from '../helpers/order-data.js';
import { activeUserThroughApi, signInForCode, tokenRequest } from '../helpers/oauth-flow.js';
import { createActivities, createBoard, type BoardIds } from '../helpers/planning.js';

let api: TestApi;
let board: BoardIds;

beforeAll(async () => {
  api = await startTestApi();
  board = await createBoard(api, await createActivities(api, ['Cut']), { stages: [{ name: 'Cutting', activities: ['Cut'] }] });
});
afterAll(async () => {
  await api.close();
});

async function ok(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<any> {
  const res = await api.http(method, path, body, headers);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)}`).toBe(method === 'POST' ? 201 : 200);
  return res.body;
}
/** The record as GET one and the list return it; both must equal `expected`. */
async function expectReadBack(path: string, list: string, expected: any): Promise<void> {
  expect(await ok('GET', `${path}/${expected.id}`)).toStrictEqual(expected);
  expect((await ok('GET', `${list}${list.includes('?') ? '&' : '?'}limit=1000`)).data.find((r: any) => r.id === expected.id)).toStrictEqual(
    expected,
  );
}

const sha = 'ab'.repeat(32);

describe('attachment thumbnails (§4.12): server-owned, null because no thumbnails are made', () => {
  it('round-trip as null through POST, GET, list and PUT, whatever a client sends', async () => {
    const c = await ok('POST', '/v1/collection', { name: 'With files', board_id: board.id });
    const path = `/v1/collection/${c.id}/attachment`;
    const sent = { thumbnail_bytes: 10, thumbnail_checksum: sha, thumbnail_signature: 'sig', thumbnail_type: 'image/png' };
    const made = await ok('POST', path, { filename: 'plan.pdf', file: 'https://example.com/plan.pdf', type: 'external', ...sent });
    expect(made).toMatchObject({
      thumbnail: null,
      thumbnail_bytes: null,
      thumbnail_checksum: null,
      thumbnail_signature: null,
      thumbnail_type: null,
    });
    await expectReadBack(path, path, made);
    const changed = await ok('PUT', `${path}/${made.id}`, { filename: 'plan-2.pdf', ...sent });
    expect(changed).toMatchObject({
      filename: 'plan-2.pdf',
      thumbnail_bytes: null,
      thumbnail_checksum: null,
      thumbnail_signature: null,
      thumbnail_type: null,
    });
  });
});

describe('user (§4.7): idp_id, is_sso, mfa_enabled, avatar_checksum, avatar_signature', () => {
  async function invite(email: string): Promise<any> {
    expect((await api.http('POST', '/v1/user', { email, role: 'member', is_sso: true, idp_id: 'x' })).status).toBe(201);
    return (await ok('GET', `/v1/user?filter=email:eq:'${email}'`)).data[0];
  }

  it('an invited user has no SSO, no second factor, no avatar data', async () => {
    const user = await invite('plain@example.com');
    expect(user).toMatchObject({ idp_id: null, is_sso: false, mfa_enabled: false, avatar_checksum: null, avatar_signature: null });
    await expectReadBack('/v1/user', '/v1/user', user);
  });

  it('avatar_checksum is written and read back; the server-owned ones ignore the body', async () => {
    const user = await invite('avatar@example.com');
    const changed = await ok('PUT', `/v1/user/${user.id}`, {
      avatar: 'https://cdn.example.com/a.png',
      avatar_checksum: sha,
      avatar_signature: 'forged',
      idp_id: 'azure|123',
      is_sso: true,
      mfa_enabled: true,
    });
    expect(changed).toStrictEqual({
      ...user,
      avatar: 'https://cdn.example.com/a.png',
      avatar_checksum: sha,
      updated_at: changed.updated_at,
    });
    await expectReadBack('/v1/user', '/v1/user', changed);
    expect((await ok('PUT', `/v1/user/${user.id}`, { avatar_checksum: null })).avatar_checksum).toBeNull();
  });

  it.each(['abc', 'g'.repeat(64), 12])('refuses avatar_checksum %j and keeps the user', async (checksum) => {
    const user = await invite(`bad-${String(checksum).slice(0, 5)}@example.com`);
    expectFieldErrors(await api.http('PUT', `/v1/user/${user.id}`, { avatar_checksum: checksum, firstname: 'Changed' }), [
      'avatar_checksum',
    ]);
    expect(await ok('GET', `/v1/user/${user.id}`)).toStrictEqual(user);
  });
});

describe('resource (§4.4): workdays_start_date', () => {
  it('is null (one pattern of workdays for every date); a date is refused, not dropped in silence', async () => {
    expectFieldErrors(await api.http('POST', '/v1/resource', { name: 'Press', workdays_start_date: '2026-01-05' }), [
      'workdays_start_date',
    ]);
    const made = await ok('POST', '/v1/resource', { name: 'Press', workdays_start_date: null });
    expect(made.workdays_start_date).toBeNull();
    await expectReadBack('/v1/resource', '/v1/resource', made);
    expectFieldErrors(await api.http('PUT', `/v1/resource/${made.id}`, { workdays_start_date: '2026-02-02' }), ['workdays_start_date']);
    const changed = await ok('PUT', `/v1/resource/${made.id}`, {
      workdays: { '1': 4, '2': 4, '3': 4, '4': 4, '5': 4, '6': null, '7': null },
      workdays_start_date: null,
    });
    expect(changed.workdays_start_date).toBeNull();
    expect(changed.workdays['1']).toBe(4);
  });
});

describe('webhook (§4.19): third_party and can_send', () => {
  const body = { url: 'https://hooks.example.com/in', event_types: ['comment.deleted'] };

  it('made with an API key: third_party false; can_send follows active', async () => {
    const { secret: _secret, ...made } = await ok('POST', '/v1/webhook', { ...body, third_party: true, can_send: false });
    expect(made).toMatchObject({ third_party: false, can_send: true, developer_client_id: null });
    await expectReadBack('/v1/webhook', '/v1/webhook', made);
    const off = await ok('PUT', `/v1/webhook/${made.id}`, { active: false, third_party: true, can_send: true });
    expect(off).toMatchObject({ active: false, can_send: false, third_party: false });
    expect((await ok('PUT', `/v1/webhook/${made.id}`, { active: true })).can_send).toBe(true);
  });

  it('made by a user signed in through an OAuth client: third_party true', async () => {
    const redirectUri = 'https://integrator.example.com/callback';
    const made = createClient(api.dataDir.system, {
      name: 'Integrator',
      redirect_uris: [redirectUri],
      confidential: true,
      environment_id: null,
    });
    await activeUserThroughApi(api.baseUrl, api.headers, {
      environment: api.environment.name,
      email: 'admin@example.com',
      role: 'admin',
      password: 'pass-word-123',
    });
    const code = await signInForCode(
      api.baseUrl,
      { client_id: made.client.id, redirect_uri: redirectUri, state: 's' },
      { environment: api.environment.name, email: 'admin@example.com', password: 'pass-word-123' },
    );
    const tokens = await tokenRequest(api.baseUrl, {
      grant_type: 'authorization_code',
      code,
      client_id: made.client.id,
      client_secret: made.client_secret!,
      redirect_uri: redirectUri,
    });
    expect(tokens.status).toBe(200);
    const bearer = { authorization: `Bearer ${tokens.body.access_token}`, 'x-api-key': '' };
    const hook = await ok('POST', '/v1/webhook', body, bearer);
    expect(hook).toMatchObject({ third_party: true, can_send: true, developer_client_id: made.client.id, api_key_id: null });
    expect((await ok('GET', `/v1/webhook/${hook.id}`)).third_party).toBe(true);
  });
});

describe('position (collection and card)', () => {
  it('is null: the public record does not say what it orders; cards are ordered by rank', async () => {
    const c = await ok('POST', '/v1/collection', { name: 'Positioned', board_id: board.id, position: 13 });
    expect(c.position).toBeNull();
    const card = await ok('POST', `/v1/collection/${c.id}/card`, { stage_id: board.stages.Cutting, position: 2 });
    expect(card.position).toBeNull();
    expect(card.rank).toMatch(/^[a-z]+$/);
  });
});

describe('OpenAPI', () => {
  it('lists the new fields with their types, server-owned ones read-only and left out of the input', async () => {
    const { schemas } = (await ok('GET', '/v1/openapi.json')).components;
    const expectations: [string, string, Record<string, unknown>, boolean][] = [
      ['Attachment', 'thumbnail_bytes', { type: ['integer', 'null'], readOnly: true }, false],
      ['Attachment', 'thumbnail_checksum', { type: ['string', 'null'], readOnly: true }, false],
      ['Attachment', 'thumbnail_signature', { type: ['string', 'null'], readOnly: true }, false],
      ['Attachment', 'thumbnail_type', { type: ['string', 'null'], readOnly: true }, false],
      ['User', 'idp_id', { type: ['string', 'null'], readOnly: true }, false],
      ['User', 'is_sso', { type: 'boolean', readOnly: true, default: false }, false],
      ['User', 'mfa_enabled', { type: 'boolean', readOnly: true, default: false }, false],
      ['User', 'avatar_checksum', { type: ['string', 'null'], pattern: '^[a-fA-F0-9]{64}$' }, true],
      ['User', 'avatar_signature', { type: ['string', 'null'], readOnly: true }, false],
      ['Resource', 'workdays_start_date', { type: ['string', 'null'], format: 'date', readOnly: true }, false],
      ['Webhook', 'third_party', { type: 'boolean', readOnly: true, default: false }, false],
      ['Webhook', 'can_send', { type: 'boolean', readOnly: true }, false],
    ];
    for (const [title, field, schema, writable] of expectations) {
      expect(schemas[title].properties[field], `${title}.${field}`).toMatchObject(schema);
      expect(field in schemas[`${title}Input`].properties, `${title}Input.${field}`).toBe(writable);
    }
  });
});
