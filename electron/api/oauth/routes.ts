/**
 * The public side of OAuth 2 (authorization code, RFC 6749 with PKCE, RFC 7636):
 *
 *   GET  /v1/oauth/authorize   the sign-in and consent page
 *   POST /v1/oauth/authorize   the page's form: signs in and redirects with a code
 *   POST /v1/oauth/token       codes and refresh tokens → tokens (form-urlencoded)
 *   POST /v1/user/accept       accept an invitation by choosing a password
 *   /v1/floor/sign_in, /v1/floor/sign_out   the floor view's sign-in (floor-sign-in-routes.ts)
 *
 * These routes are reachable without credentials (`config.public`). They live in their own
 * plugin so that only they accept `application/x-www-form-urlencoded` bodies.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isPlainObject } from '../../../shared/fields.js';
import { isUuid } from '../../../shared/ids.js';
import type { OAuthState, StoredClient } from '../../store/oauth-store.js';
import { ApiError, toApiError } from '../errors.js';
import { presentOne } from '../records.js';
import { userModule } from '../resources/user.js';
import { contentSecurityPolicy, errorPage, formTargetOf, signInPage } from './authorize-page.js';
import { redirectUriAllowed, secretMatches } from './clients.js';
import {
  defaultRateLimit,
  limitRequest,
  countedRefusal,
  rateLimitHeaders,
  SlidingWindowLimiter,
  type RateLimitOptions,
} from '../rate-limit.js';
import { limitKeyOf } from '../client-address.js';
import { cookieOf, knownBrowser, rememberBrowser } from './known-browsers.js';
import type { OAuthAccess } from './access.js';
import { codeSeconds, digest, issueTokens, randomToken } from './tokens.js';
import { builtInClient, floorClientId, kioskClientId } from './floor-client.js';
import { registerFloorSignIn } from './floor-sign-in-routes.js';
import { registerKioskRoutes } from './kiosk-routes.js';
import { verifyPassword } from './passwords.js';
import { acceptInvitation, activeUser, signIn } from './users.js';
import { requiredBody } from '../conventions/request-body.js';
import { nowMs } from '../../../shared/clock.js';

export interface OAuthRouteOptions {
  /** Where OAuth's state and the users live: a data folder, or a team server's database (access.ts). */
  access: OAuthAccess;
  /** The limits, or a limiter to use (a test reads its size). */
  rateLimit?: RateLimitOptions | SlidingWindowLimiter;
  /** The clock authorization codes are issued and expire by, in ms (tests move it); default: the process clock (shared/clock.ts). */
  now?: () => number;
}

type Params = Record<string, string>;

const csrfCookie = 'planner_oauth_csrf';
const csrfLifetimeMs = 15 * 60_000;
const pkcePattern = /^[A-Za-z0-9._~-]{43,128}$/;

/** A form body: one string per name. A name sent twice is a 400 (RFC 6749 §3.1). */
export function parseForm(text: string): Params {
  const params: Params = {};
  for (const [name, value] of new URLSearchParams(text)) {
    if (Object.prototype.hasOwnProperty.call(params, name)) throw ApiError.badRequest(`${name} is sent more than once`);
    params[name] = value;
  }
  return params;
}

function stringParams(value: unknown): Params {
  if (value === undefined || value === null) return {};
  if (!isPlainObject(value)) throw ApiError.badRequest('Send the parameters as a form (application/x-www-form-urlencoded).');
  const params: Params = {};
  for (const [name, v] of Object.entries(value)) {
    if (typeof v === 'string') params[name] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') params[name] = String(v);
    else throw ApiError.badRequest(`${name} must be a string`);
  }
  return params;
}

// ------------------------------------------------------------------------ authorize

interface AuthorizeRequest {
  client: StoredClient;
  redirectUri: string;
  state: string;
  codeChallenge: string | null;
}

type AuthorizeCheck =
  | { kind: 'ok'; request: AuthorizeRequest }
  /** Refused on the page itself: the client or redirect URI cannot be trusted with a redirect. */
  | { kind: 'page'; message: string }
  /** Refused back to the (verified) redirect URI, as RFC 6749 §4.1.2.1 says. */
  | { kind: 'redirect'; location: string };

function redirectWith(uri: string, params: Record<string, string>): string {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== '') url.searchParams.set(name, value);
  return url.toString();
}

async function checkAuthorize(oauth: OAuthState, params: Params): Promise<AuthorizeCheck> {
  const clientId = params.client_id ?? '';
  const client = clientId ? await oauth.client(clientId) : undefined;
  if (!client) return { kind: 'page', message: 'This application is not known to Planner. Ask its maker to register it.' };
  const redirectUri = params.redirect_uri ?? '';
  if (!redirectUri || !redirectUriAllowed(client, redirectUri)) {
    return { kind: 'page', message: 'This application asked to send you to an address it has not registered, so sign-in stops here.' };
  }
  const state = params.state ?? '';
  const refuse = (error: string, description: string): AuthorizeCheck => ({
    kind: 'redirect',
    location: redirectWith(redirectUri, { error, error_description: description, state }),
  });
  if (params.response_type !== 'code') return refuse('unsupported_response_type', 'response_type must be code');
  if (state.length > 1000) return refuse('invalid_request', 'state is too long');
  const challenge = params.code_challenge ?? '';
  const method = params.code_challenge_method ?? (challenge ? 'plain' : '');
  if (challenge && method !== 'S256') return refuse('invalid_request', 'code_challenge_method must be S256');
  if (!challenge && method) return refuse('invalid_request', 'code_challenge is missing');
  if (challenge && !pkcePattern.test(challenge))
    return refuse('invalid_request', 'code_challenge must be 43-128 characters of A-Z a-z 0-9 - . _ ~');
  if (!client.confidential && !challenge) return refuse('invalid_request', 'this application must use PKCE (code_challenge with S256)');
  return { kind: 'ok', request: { client, redirectUri, state, codeChallenge: challenge || null } };
}

async function csrfKey(oauth: OAuthState): Promise<Buffer> {
  return createHmac('sha256', (await oauth.signingKey()).secret)
    .update('oauth-csrf')
    .digest();
}

/** `<nonce>.<expires>.<mac>`: the nonce is also in a cookie; the MAC binds it to this very request. */
async function csrfToken(oauth: OAuthState, request: AuthorizeRequest, nonce: string, expires: number): Promise<string> {
  const mac = createHmac('sha256', await csrfKey(oauth))
    .update([nonce, expires, request.client.id, request.redirectUri, request.state, request.codeChallenge ?? ''].join('\n'))
    .digest('base64url');
  return `${nonce}.${expires}.${mac}`;
}

async function csrfValid(
  oauth: OAuthState,
  request: FastifyRequest,
  authorize: AuthorizeRequest,
  token: string | undefined,
): Promise<boolean> {
  const [nonce, expiresText] = (token ?? '').split('.');
  const expires = Number(expiresText);
  if (!nonce || !Number.isSafeInteger(expires) || expires < nowMs() || cookieOf(request, csrfCookie) !== nonce) return false;
  const expected = Buffer.from(await csrfToken(oauth, authorize, nonce, expires));
  const actual = Buffer.from(token!);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}

function sendPage(reply: FastifyReply, status: number, html: string, formTarget?: string): FastifyReply {
  return reply
    .code(status)
    .headers({
      'content-security-policy': contentSecurityPolicy(formTarget),
      'x-frame-options': 'DENY',
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-store',
    })
    .type('text/html; charset=utf-8')
    .send(html);
}

async function showForm(
  oauth: OAuthState,
  reply: FastifyReply,
  request: FastifyRequest,
  authorize: AuthorizeRequest,
  fields: { environment: string; email: string; error?: string; nonce?: string },
  status = 200,
): Promise<FastifyReply> {
  const nonce = fields.nonce ?? randomToken(16);
  const expires = nowMs() + csrfLifetimeMs;
  const secure = request.protocol === 'https' ? '; Secure' : '';
  reply.header(
    'set-cookie',
    `${csrfCookie}=${nonce}; Path=/v1/oauth/authorize; HttpOnly; SameSite=Strict; Max-Age=${csrfLifetimeMs / 1000}${secure}`,
  );
  const hidden: Record<string, string> = {
    client_id: authorize.client.id,
    redirect_uri: authorize.redirectUri,
    response_type: 'code',
    state: authorize.state,
    csrf_token: await csrfToken(oauth, authorize, nonce, expires),
  };
  if (authorize.codeChallenge) {
    hidden.code_challenge = authorize.codeChallenge;
    hidden.code_challenge_method = 'S256';
  }
  const html = signInPage({
    clientName: authorize.client.name,
    hidden,
    environment: fields.environment,
    email: fields.email,
    ...(fields.error ? { error: fields.error } : {}),
  });
  return sendPage(reply, status, html, formTargetOf(authorize.redirectUri));
}

// ---------------------------------------------------------------------------- token

function invalidGrant(description: string): ApiError {
  return ApiError.badRequest(`invalid_grant: ${description}`);
}

function invalidClient(description: string): ApiError {
  return ApiError.notLoggedIn(`invalid_client: ${description}`);
}

/** client_id and client_secret from the body, or from HTTP Basic (RFC 6749 §2.3.1). */
function clientCredentials(request: FastifyRequest, params: Params): { clientId?: string; secret?: string } {
  const header = request.headers.authorization;
  const basic = typeof header === 'string' ? /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(header) : null;
  if (basic) {
    const decoded = Buffer.from(basic[1]!, 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon < 0) throw invalidClient('the Basic credentials are malformed');
    return { clientId: decodeURIComponent(decoded.slice(0, colon)), secret: decodeURIComponent(decoded.slice(colon + 1)) };
  }
  return {
    ...(params.client_id ? { clientId: params.client_id } : {}),
    ...(params.client_secret !== undefined ? { secret: params.client_secret } : {}),
  };
}

function required(params: Params, name: string): string {
  const value = params[name];
  if (!value) throw ApiError.badRequest(`invalid_request: ${name} is required`);
  return value;
}

export async function oauthRoutes(app: FastifyInstance, options: OAuthRouteOptions): Promise<void> {
  const { access } = options;
  const oauth = access.state;
  const limiter =
    options.rateLimit instanceof SlidingWindowLimiter ? options.rateLimit : access.limiter('oauth', options.rateLimit ?? defaultRateLimit);
  const now = options.now ?? nowMs;
  /** The user a code or a sign-in names, if their environment is still there and they may still sign in. */
  const userOf = async (environmentId: string, userId: string) => {
    const environment = await access.environmentById(environmentId);
    return environment ? activeUser(access.recordsOf(environment), userId) : undefined;
  };

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: 64 * 1024 }, (_request, text, done) => {
    try {
      // parseAs 'string' hands the body over as a string; Fastify's type allows a Buffer too.
      done(null, parseForm(text as string));
    } catch (error) {
      // parseForm throws only Errors (URIError on a broken percent escape).
      done(error as Error, undefined);
    }
  });

  app.get<{ Querystring: Params }>(
    '/oauth/authorize',
    {
      config: {
        public: true,
        doc: {
          summary: 'Sign-in and consent page (HTML) of the authorization-code flow',
          tag: 'OAuth',
          query: {
            client_id: 'The application (required).',
            redirect_uri: 'A redirect URI the application registered (required).',
            response_type: 'code',
            state: 'Returned unchanged with the code.',
            code_challenge: 'PKCE: base64url(SHA-256(code_verifier)); required for public clients.',
            code_challenge_method: 'S256',
            environment: 'Pre-fills the environment field.',
          },
        },
      },
    },
    async (request, reply) => {
      const params = stringParams(request.query);
      const check = await checkAuthorize(oauth, params);
      if (check.kind === 'page') return sendPage(reply, 400, errorPage('Sign-in refused', check.message));
      if (check.kind === 'redirect') return reply.redirect(check.location, 302);
      const boundTo = check.request.client.environment_id;
      const bound = boundTo ? (await access.environmentById(boundTo))?.name : undefined;
      return showForm(oauth, reply, request, check.request, { environment: bound ?? params.environment ?? '', email: '' });
    },
  );

  app.post(
    '/oauth/authorize',
    {
      config: {
        public: true,
        doc: {
          summary: 'Sign in from the authorize page; redirects to redirect_uri with code and state (rate-limited)',
          tag: 'OAuth',
          success: { status: 303, description: 'Redirect to redirect_uri?code=…&state=…' },
        },
      },
    },
    async (request, reply) => {
      const params = stringParams(request.body);
      // What costs nothing is checked before anything is counted: the client, the redirect, the form's own token.
      const check = await checkAuthorize(oauth, params);
      if (check.kind === 'page') return sendPage(reply, 400, errorPage('Sign-in refused', check.message));
      if (check.kind === 'redirect') return reply.redirect(check.location, 303);
      const authorize = check.request;
      if (!(await csrfValid(oauth, request, authorize, params.csrf_token))) {
        return sendPage(
          reply,
          400,
          errorPage(
            'Sign-in expired',
            'This sign-in form has expired or did not come from this page. Go back to the application and start again.',
          ),
        );
      }
      if (params.decision === 'deny') {
        return reply.redirect(
          redirectWith(authorize.redirectUri, { error: 'access_denied', error_description: 'the user said no', state: authorize.state }),
          303,
        );
      }
      const environmentName = (params.environment ?? '').trim();
      const email = (params.email ?? '').trim();
      const environment = environmentName ? await access.findEnvironment(environmentName) : undefined;
      // A password hash is what a sign-in costs: counted before it is spent, against the browser
      // when it signed in as this user before (known-browsers.ts), else against the address.
      const known = environment ? await knownBrowser(oauth, request, environment.id, email) : undefined;
      const counted = known ? `known|${known}` : `${limitKeyOf(request.ip)}|authorize|${authorize.client.id}`;
      try {
        await limitRequest(limiter, counted, reply);
      } catch (error) {
        const apiError = toApiError(error)!;
        reply.headers(apiError.headers);
        return sendPage(reply, 429, errorPage('Too many attempts', apiError.message));
      }
      const allowed = environment && (!authorize.client.environment_id || authorize.client.environment_id === environment.id);
      const records = allowed ? access.recordsOf(environment) : undefined;
      // Without an environment the same hash is spent, so timing does not tell which part was wrong.
      const user = records
        ? await signIn(records, email, params.password ?? '')
        : await verifyPassword(params.password ?? '', undefined).then(() => undefined);
      if (!environment || !user) {
        const nonce = params.csrf_token?.split('.')[0];
        return showForm(
          oauth,
          reply,
          request,
          authorize,
          { environment: environmentName, email, error: 'The environment, email or password is not right.', ...(nonce ? { nonce } : {}) },
          401,
        );
      }
      await rememberBrowser(oauth, request, reply, environment.id, email);
      const code = randomToken(32);
      await oauth.insertCode(digest(code), {
        client_id: authorize.client.id,
        environment_id: environment.id,
        user_id: user.id,
        redirect_uri: authorize.redirectUri,
        code_challenge: authorize.codeChallenge,
        expires_at: now() + codeSeconds * 1000,
      });
      return reply.redirect(redirectWith(authorize.redirectUri, { code, state: authorize.state }), 303);
    },
  );

  /** The tokens a token request is for, once it is checked; throws the refusal when it is not right. */
  const exchangeForTokens = async (
    params: Params,
    clientId: string | undefined,
    client: StoredClient | undefined,
    secret: string | undefined,
  ) => {
    if (!clientId) throw ApiError.badRequest('invalid_request: client_id is required');
    if (!client) throw invalidClient('no application with that client_id');
    if (secret !== undefined && !secretMatches(client, secret)) throw invalidClient('client_secret is wrong');
    if (client.confidential && secret === undefined) throw invalidClient('client_secret is required for this application');

    const grantType = required(params, 'grant_type');
    if (grantType === 'authorization_code') {
      const codeText = required(params, 'code');
      const redirectUri = required(params, 'redirect_uri');
      const codeHash = digest(codeText);
      const code = await oauth.takeCode(codeHash, client.id);
      if (!code) throw invalidGrant('the code is not known');
      if (code.used_at) {
        // A replayed code: whatever it was exchanged for is revoked too (RFC 6749 §4.1.2).
        if (code.family_id) await oauth.revokeFamily(code.family_id, 'authorization code reused');
        throw invalidGrant('the code has already been used');
      }
      if (code.expires_at <= now()) throw invalidGrant('the code has expired');
      if (code.redirect_uri !== redirectUri) throw invalidGrant('redirect_uri differs from the one the code was issued for');
      if (code.code_challenge) {
        const verifier = params.code_verifier ?? '';
        if (!pkcePattern.test(verifier)) throw invalidGrant('code_verifier is required (43-128 characters)');
        const challenge = createHash('sha256').update(verifier).digest('base64url');
        if (challenge !== code.code_challenge) throw invalidGrant('code_verifier does not match the code_challenge');
      }
      const user = await userOf(code.environment_id, code.user_id);
      if (!user) throw invalidGrant('the user can no longer sign in');
      const family = await oauth.createFamily({ client_id: client.id, environment_id: code.environment_id, user_id: user.id });
      await oauth.linkCodeToFamily(codeHash, family.id);
      return issueTokens(oauth, family, user.role);
    }
    if (grantType === 'refresh_token') {
      const outcome = await oauth.useRefreshToken(digest(required(params, 'refresh_token')), client.id);
      if (outcome.kind === 'reused') {
        throw ApiError.conflict('The refresh token has already been used. Every token of this sign-in is now revoked; sign in again.');
      }
      if (outcome.kind !== 'rotated') throw invalidGrant(`the refresh token is ${outcome.kind === 'unknown' ? 'not known' : outcome.kind}`);
      const { family } = outcome;
      const user = await userOf(family.environment_id, family.user_id);
      if (!user) {
        await oauth.revokeFamily(family.id, 'user can no longer sign in');
        throw invalidGrant('the user can no longer sign in');
      }
      // A floor sign-in ends with its shift, a kiosk's with its minutes: the new refresh token keeps the used one's expiry.
      const fixedEnd = client.id === floorClientId || client.id === kioskClientId;
      return issueTokens(oauth, family, user.role, fixedEnd ? outcome.expiresAt : undefined);
    }
    throw ApiError.badRequest('unsupported_grant_type: grant_type must be authorization_code or refresh_token');
  };

  app.post(
    '/oauth/token',
    {
      config: {
        public: true,
        doc: {
          summary: 'Exchange a code or a refresh token for tokens (form-urlencoded; rate-limited)',
          tag: 'OAuth',
          body: {
            type: 'object',
            required: ['grant_type', 'client_id'],
            properties: {
              grant_type: { type: 'string', enum: ['authorization_code', 'refresh_token'] },
              client_id: { type: 'string' },
              client_secret: { type: 'string' },
              code: { type: 'string' },
              redirect_uri: { type: 'string' },
              code_verifier: { type: 'string' },
              refresh_token: { type: 'string' },
            },
          },
        },
      },
    },
    async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
      // Counted once checked, and only when refused (docs/API.md "Rate limits"): a right code or
      // refresh token is always exchanged, however many wrong ones came from its address.
      const address = limitKeyOf(request.ip);
      // A client_id that names no application counts under one `unknown`, so made-up ids do not
      // each get a count of their own (docs/API.md "Rate limits").
      let counted = `${address}|token|unknown`;
      try {
        const params = stringParams(request.body);
        const { clientId, secret } = clientCredentials(request, params);
        const client = clientId ? (builtInClient(clientId) ?? (await oauth.client(clientId))) : undefined;
        if (client) counted = `${address}|token|${client.id}`;
        const tokens = await exchangeForTokens(params, clientId, client, secret);
        reply.headers(rateLimitHeaders(await limiter.peek(counted)));
        return tokens;
      } catch (error) {
        throw await countedRefusal(limiter, counted, reply, error, 'Too many refused token requests.');
      }
    },
  );

  registerFloorSignIn(app, { access, limiter });
  registerKioskRoutes(app, { access });

  app.post(
    '/user/accept',
    {
      config: {
        public: true,
        doc: {
          summary: 'Accept an invitation by choosing a password (rate-limited)',
          tag: 'User',
          body: {
            type: 'object',
            required: ['invite_id', 'password'],
            properties: {
              environment: { type: 'string', description: 'The environment name (or send x-api-env).' },
              invite_id: { type: 'string', format: 'uuid' },
              password: { type: 'string', minLength: 8 },
            },
          },
        },
      },
    },
    async (request, reply) => {
      await limitRequest(limiter, `${limitKeyOf(request.ip)}|accept`, reply);
      const body = requiredBody(request.body);
      const header = request.headers['x-api-env'];
      const environmentName = typeof body.environment === 'string' ? body.environment : typeof header === 'string' ? header : undefined;
      if (!isUuid(body.invite_id)) throw ApiError.rule('invite_id', 'invite_id must be the uuid from the invitation');
      const environment = environmentName ? await access.findEnvironment(environmentName) : undefined;
      if (!environment) throw ApiError.notFound('No open invitation with that id.');
      const user = await acceptInvitation(access.recordsOf(environment), body.invite_id, body.password);
      const ctx = await access.contextOf({ kind: 'user' as const, environment, userId: user.id, role: user.role }, environment);
      return await presentOne(ctx, userModule, user, { with: [], include: [] });
    },
  );
}
