/**
 * The floor view's sign-in (docs/API.md "The floor", docs/decisions/floor-sign-in.md):
 *
 *   GET  /v1/floor/sign_in    public: `{environment}`, the server's one environment, else null
 *   POST /v1/floor/sign_in    public: {environment, email, password} → tokens of a sign-in that lasts a shift
 *   POST /v1/floor/sign_out   a bearer token's own sign-in (token family) is revoked
 *
 * A sign-in is a token family of the built-in client `planner-floor` (floor-client.ts), made by
 * the same password check, the same per-client limit and the same tokens as the authorize
 * page; its refresh tokens rotate at `POST /v1/oauth/token` like any other.
 */
import type { FastifyInstance } from 'fastify';
import { nowMs } from '../../../shared/clock.js';
import { limitKeyOf } from '../client-address.js';
import { requiredBody } from '../conventions/request-body.js';
import { ApiError } from '../errors.js';
import { limitRequest, type RequestLimiter } from '../rate-limit.js';
import type { OAuthAccess } from './access.js';
import { floorClientId, floorShiftHours } from './floor-client.js';
import { verifyPassword } from './passwords.js';
import { issueTokens } from './tokens.js';
import { signIn } from './users.js';

const wrongCredentials = 'The environment, email or password is not right.';

function text(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

export function registerFloorSignIn(app: FastifyInstance, options: { access: OAuthAccess; limiter: RequestLimiter }): void {
  const { access, limiter } = options;
  const oauth = access.state;

  app.get(
    '/floor/sign_in',
    {
      config: {
        public: true,
        doc: { summary: "The floor sign-in form's environment: the server's only one, else null", tag: 'Floor' },
      },
    },
    async () => ({ environment: (await access.onlyEnvironment()) ?? null }),
  );

  app.post(
    '/floor/sign_in',
    {
      config: {
        public: true,
        doc: {
          summary: 'Sign in to the floor view: tokens of the built-in client planner-floor, for a shift (rate-limited)',
          tag: 'Floor',
          body: {
            type: 'object',
            required: ['environment', 'email', 'password'],
            properties: { environment: { type: 'string' }, email: { type: 'string' }, password: { type: 'string' } },
          },
        },
      },
    },
    async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
      const body = requiredBody(request.body);
      const environmentName = text(body.environment).trim();
      const email = text(body.email).trim();
      const password = text(body.password);
      const environment = environmentName ? await access.findEnvironment(environmentName) : undefined;
      // Counted before the password hash is spent, as the authorize page counts (docs/API.md "Rate limits").
      await limitRequest(limiter, `${limitKeyOf(request.ip)}|authorize|${floorClientId}`, reply);
      // Without an environment the same hash is spent, so timing does not tell which part was wrong.
      const user = environment
        ? await signIn(access.recordsOf(environment), email, password)
        : await verifyPassword(password, undefined).then(() => undefined);
      if (!environment || !user) throw ApiError.notLoggedIn(wrongCredentials);
      const family = await oauth.createFamily({ client_id: floorClientId, environment_id: environment.id, user_id: user.id });
      const endsAt = nowMs() + floorShiftHours * 3_600_000;
      const tokens = await issueTokens(oauth, family, user.role, endsAt);
      return { ...tokens, environment: environment.name, ends_at: new Date(endsAt).toISOString() };
    },
  );

  app.post(
    '/floor/sign_out',
    {
      config: {
        doc: {
          summary: "End this bearer token's sign-in: every token of it stops working at once",
          tag: 'Floor',
          success: { status: 204, description: 'Signed out' },
        },
      },
    },
    async (request, reply) => {
      const familyId = request.ctx.caller.familyId;
      if (!familyId) throw ApiError.badRequest('Signing out ends a sign-in: send the access token of one, not an API key.');
      await oauth.revokeFamily(familyId, 'signed out');
      return reply.code(204).send();
    },
  );
}
