/**
 * Users of each role signed in over the real OAuth flow (sign-in page, code, token), for tests
 * of who may do what (docs/API.md "Permissions"). One instance on its own data folder with one
 * environment and its API key; every user gets a Bearer token of a confidential client.
 */
import { expect } from 'vitest';
import { createClient } from '../../electron/api/oauth/clients.js';
import { createUserWithPassword } from '../../electron/api/oauth/users.js';
import type { Environment } from '../../electron/store/system.js';
import { expectErrorBody } from './api-errors.js';
import { call, prepareFolder, startInstance, type Instance } from './instance.js';
import { signInForCode, tokenRequest } from './oauth-flow.js';
import { recordsOf } from '../../electron/store/record-store.js';
import { requestContext } from '../../electron/api/resource.js';

const redirectUri = 'https://app.example.com/callback';
const password = 'pass-word-123';

export interface SignedInUser {
  id: string;
  headers: Record<string, string>;
}

export type Request = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any; headers: Headers }>;

export interface RolesInstance {
  instance: Instance;
  environment: Environment;
  /** Requests with the environment's API key. */
  byKey: Request;
  /** Requests with a user's Bearer token (and no API key). */
  as(user: SignedInUser): Request;
  /** Makes an active user with a password and signs them in. */
  signIn(email: string, role: string): Promise<SignedInUser>;
  stop(): Promise<void>;
}

export async function startRolesInstance(name: string): Promise<RolesInstance> {
  const keyValue = `${name}-key-123`;
  const folder = prepareFolder([{ name, key: keyValue }]);
  const environment = folder.environments[0]!;
  const instance = await startInstance(folder.folder, { oauthRateLimit: { limit: 1000, windowMs: 60_000 } });
  const made = createClient(instance.dataDir.system, {
    name: 'Roles app',
    redirect_uris: [redirectUri],
    confidential: true,
    environment_id: null,
  });
  const request =
    (headers: Record<string, string>): Request =>
    (method, path, body) =>
      call(instance.baseUrl, method, path, headers, body);
  return {
    instance,
    environment,
    byKey: request({ 'x-api-key': keyValue, 'x-api-env': name }),
    as: (user) => request(user.headers),
    async signIn(email, role) {
      const store = instance.dataDir.environment(environment.id);
      const user = await createUserWithPassword(
        requestContext({ kind: 'api-key', environment }, recordsOf(store)),
        { email, role },
        password,
      );
      const code = await signInForCode(
        instance.baseUrl,
        { client_id: made.client.id, redirect_uri: redirectUri, state: 'st' },
        { environment: name, email, password },
      );
      const answer = await tokenRequest(instance.baseUrl, {
        grant_type: 'authorization_code',
        code,
        client_id: made.client.id,
        client_secret: made.client_secret!,
        redirect_uri: redirectUri,
      });
      expect(answer.status, JSON.stringify(answer.body)).toBe(200);
      return { id: user.id, headers: { authorization: `Bearer ${answer.body.access_token as string}` } };
    },
    async stop() {
      await instance.stop();
      folder.remove();
    },
  };
}

/** 403 Forbidden with the documented error body; `mention` must be in its description. */
export function expectForbidden(answer: { status: number; body: any }, mention?: string): void {
  expect(answer.status, JSON.stringify(answer.body)).toBe(403);
  expectErrorBody(answer.body, 10403, 'Forbidden');
  if (mention) expect(answer.body.errors[0].description).toContain(mention);
}

/** A board with one stage and status, a collection on it and one card; answers their ids. */
export async function createCard(byKey: Request, name: string): Promise<{ cardId: string; collectionId: string }> {
  const board = await byKey('POST', '/v1/board?with=stages', { name, stages: [{ name: 'Welding' }], statuses: [{ name: 'Todo' }] });
  expect(board.status, JSON.stringify(board.body)).toBe(201);
  const collection = await byKey('POST', '/v1/collection', { name: `${name} order`, board_id: board.body.id });
  expect(collection.status, JSON.stringify(collection.body)).toBe(201);
  const card = await byKey('POST', `/v1/collection/${collection.body.id as string}/card`, {
    stage_id: board.body.stages[0].id,
    name: `${name} card`,
  });
  expect(card.status, JSON.stringify(card.body)).toBe(201);
  return { cardId: card.body.id as string, collectionId: collection.body.id as string };
}
