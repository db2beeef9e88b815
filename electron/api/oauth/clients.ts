/**
 * OAuth clients: creating one (the secret is returned once and stored as a SHA-256 digest; it
 * is 256 random bits, so a fast digest is enough), checking a secret, matching redirect URIs,
 * and the admin routes `/v1/oauth_client` (an environment's admin manages the clients limited
 * to that environment; instance-wide clients come from the server's CLI).
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { checkWrite } from '../../../shared/fields.js';
import { isLoopbackHost, oauthClientSpec } from '../../../shared/resources/oauth-client.js';
import type { ListEnvelope } from '../../../shared/list.js';
import { uuidv7 } from '../../../shared/ids.js';
import { OAuthStore, type OAuthState, type StoredClient } from '../../store/oauth-store.js';
import type { SystemStore } from '../../store/system.js';
import { parseListOptions, type QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import type { RequestContext } from '../resource.js';
import { digest } from './tokens.js';
import { optionalBody } from '../conventions/request-body.js';

export interface NewClient {
  name: string;
  redirect_uris: string[];
  confidential: boolean;
  environment_id: string | null;
}

/** A new client's row and its secret (null for a public client). */
function newClient(input: NewClient): { row: Omit<StoredClient, 'created_at' | 'updated_at'>; secret: string | null } {
  const secret = input.confidential ? randomBytes(32).toString('base64url') : null;
  return { row: { id: uuidv7(), ...input, secret_hash: secret ? digest(secret) : null }, secret };
}

/** Creates a client in a data folder (the server's CLI); `client_secret` is null for public clients and shown only here. */
export function createClient(system: SystemStore, input: NewClient): { client: StoredClient; client_secret: string | null } {
  const { row, secret } = newClient(input);
  return { client: OAuthStore.of(system).insertClient(row), client_secret: secret };
}

/** As createClient, on either engine (the client routes, the server's `client add`). */
export async function addClient(oauth: OAuthState, input: NewClient): Promise<{ client: StoredClient; client_secret: string | null }> {
  const { row, secret } = newClient(input);
  return { client: await oauth.insertClient(row), client_secret: secret };
}

export function secretMatches(client: StoredClient, secret: string): boolean {
  if (!client.secret_hash) return false;
  const expected = Buffer.from(client.secret_hash, 'hex');
  const actual = Buffer.from(digest(secret), 'hex');
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

/**
 * Whether `uri` is one the client registered: compared exactly, except that the port of a
 * loopback http URI may differ (a native app listens on whatever port is free, RFC 8252 §7.3).
 */
export function redirectUriAllowed(client: StoredClient, uri: string): boolean {
  if (client.redirect_uris.includes(uri)) return true;
  let asked: URL;
  try {
    asked = new URL(uri);
  } catch {
    return false;
  }
  if (asked.protocol !== 'http:' || !isLoopbackHost(asked.hostname)) return false;
  const withoutPort = (u: URL) => `${u.protocol}//${u.hostname}${u.pathname}${u.search}`;
  return client.redirect_uris.some((registered) => {
    try {
      const url = new URL(registered);
      return url.protocol === 'http:' && withoutPort(url) === withoutPort(asked) && !asked.hash;
    } catch {
      return false;
    }
  });
}

export function presentClient(client: StoredClient): Record<string, unknown> {
  return {
    id: client.id,
    name: client.name,
    redirect_uris: client.redirect_uris,
    confidential: client.confidential,
    environment_id: client.environment_id,
    created_at: client.created_at,
    updated_at: client.updated_at,
  };
}

function body(value: unknown): Record<string, unknown> {
  return optionalBody(value);
}

async function ownClient(ctx: RequestContext, oauth: OAuthState, id: string): Promise<StoredClient> {
  const client = await oauth.client(id);
  if (!client || client.environment_id !== ctx.caller.environment.id) throw ApiError.notFound('No OAuthClient with that id.');
  return client;
}

/**
 * `/v1/oauth_client`: list (limit, offset), create, get, update (name, redirect_uris), delete.
 * Their writes are the instance's OAuth state, no environment's records: no command.
 */
export function registerClientRoutes(app: FastifyInstance, oauth: OAuthState): void {
  const tag = 'OAuth';
  app.get<{ Querystring: QueryString }>(
    '/oauth_client',
    {
      config: {
        doc: {
          summary: 'List the OAuth clients of this environment',
          tag,
          query: { limit: 'Page size, 0-1000 (default 100).', offset: 'Records to skip.' },
        },
      },
    },
    async (request): Promise<ListEnvelope<Record<string, unknown>>> => {
      const { limit, offset } = parseListOptions(request.query);
      const { count, rows } = await oauth.clientsOf(request.ctx.caller.environment.id, limit, offset);
      return { count, limit, offset, data: rows.map(presentClient) };
    },
  );
  app.post(
    '/oauth_client',
    {
      config: {
        doc: {
          summary: 'Register an OAuth client for this environment (the answer carries client_secret, once)',
          tag,
          success: { status: 201, description: 'The client with its secret' },
          body: {
            type: 'object',
            required: ['name', 'redirect_uris'],
            properties: {
              name: { type: 'string' },
              redirect_uris: { type: 'array', items: { type: 'string' } },
              confidential: { type: 'boolean' },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const check = checkWrite(oauthClientSpec, body(request.body), 'create');
      if (check.problems.length > 0) throw ApiError.unprocessable(check.problems);
      // checkWrite checked each against oauthClientSpec: a name, 1–20 URI strings, a boolean.
      const { client, client_secret } = await addClient(oauth, {
        name: check.values.name as string,
        redirect_uris: check.values.redirect_uris as string[], // checked, as above
        confidential: check.values.confidential as boolean, // checked, as above
        environment_id: request.ctx.caller.environment.id,
      });
      reply.code(201);
      return { ...presentClient(client), client_secret };
    },
  );
  app.get<{ Params: { id: string } }>('/oauth_client/:id', { config: { doc: { summary: 'Get one OAuth client', tag } } }, async (request) =>
    presentClient(await ownClient(request.ctx, oauth, request.params.id)),
  );
  app.put<{ Params: { id: string } }>(
    '/oauth_client/:id',
    {
      config: {
        doc: {
          summary: "Change an OAuth client's name or redirect URIs",
          tag,
          body: { type: 'object', properties: { name: { type: 'string' }, redirect_uris: { type: 'array', items: { type: 'string' } } } },
        },
      },
    },
    async (request) => {
      const client = await ownClient(request.ctx, oauth, request.params.id);
      const check = checkWrite(oauthClientSpec, body(request.body), 'update');
      if (check.problems.length > 0) throw ApiError.unprocessable(check.problems);
      const changes: { name?: string; redirect_uris?: string[] } = {};
      if (typeof check.values.name === 'string') changes.name = check.values.name;
      // checkWrite checked the list against oauthClientSpec: strings only.
      if (Array.isArray(check.values.redirect_uris)) changes.redirect_uris = check.values.redirect_uris as string[];
      return presentClient((await oauth.updateClient(client.id, changes))!);
    },
  );
  app.delete<{ Params: { id: string } }>(
    '/oauth_client/:id',
    {
      config: {
        doc: { summary: 'Delete an OAuth client; every sign-in through it ends', tag, success: { status: 204, description: 'Deleted' } },
      },
    },
    async (request, reply) => {
      const client = await ownClient(request.ctx, oauth, request.params.id);
      await oauth.deleteClient(client.id);
      return reply.code(204).send();
    },
  );
}
