/**
 * Kiosk mode of the floor view (docs/API.md "The floor", docs/decisions/kiosk-pins.md):
 *
 *   PUT    /v1/floor/pin/:user_id      {pin}: a user's kiosk PIN (the user themself, or a planner)
 *   DELETE /v1/floor/pin/:user_id      the PIN goes
 *   POST   /v1/floor/kiosks            {board_id | stage_id, name?}: a kiosk and its key, shown once (planners)
 *   GET    /v1/floor/kiosks            the environment's kiosks, revoked ones too (planners)
 *   DELETE /v1/floor/kiosks/:id        revokes a kiosk and every operator's sign-in it opened (planners)
 *   GET    /v1/floor/kiosk             x-kiosk-key: the kiosk and its operators
 *   POST   /v1/floor/kiosk/unlock      x-kiosk-key, {user_id, pin}: tokens of a short sign-in as that operator
 *   DELETE /v1/floor/kiosk             x-kiosk-key: the kiosk revokes itself (leaving kiosk mode)
 *
 * PINs and kiosks live in the store's own tables (store/floor-book.ts), never on a record, so
 * no read of the API and no sync carries them.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { nowMs } from '../../../shared/clock.js';
import { uuidv7 } from '../../../shared/ids.js';
import type { StoredKiosk } from '../../store/floor-book.js';
import type { RecordReads, RecordStore } from '../../store/record-store.js';
import type { Environment } from '../../store/system.js';
import { requiredBody } from '../conventions/request-body.js';
import { ApiError } from '../errors.js';
import { isPlanner } from '../permissions.js';
import { tooManyRequests, type RequestLimiter } from '../rate-limit.js';
import type { Caller } from '../resource.js';
import { tables, type Stored } from '../tables.js';
import type { OAuthAccess } from './access.js';
import { kioskClientId, kioskSignInMinutes } from './floor-client.js';
import { hashPassword, verifyPassword } from './passwords.js';
import { issueTokens, randomToken } from './tokens.js';
import { canSignIn } from './users.js';

/** Wrong PINs of one user before the PIN locks; each wrong one after that doubles the lock. */
export const pinTriesBeforeLock = 5;
/** The first lock, in seconds, and the longest. */
const firstLockSeconds = 60;
const longestLockSeconds = 3600;
/** Wrong PINs on one kiosk, of any operators, in `kioskWindowMs`, before it takes no more. */
export const kioskWrongPinLimit = 10;
const kioskWindowMs = 10 * 60_000;

const pinPattern = /^\d{4,6}$/;
const pinRule = 'pin must be 4 to 6 digits (0-9), e.g. 2580';
const kioskKeyPrefix = 'kiosk';
const badKioskKey = 'This kiosk key is not known or was revoked: ask a planner to set the kiosk up again.';

/** Seconds a PIN locks for after `failures` wrong tries in a row (none below the limit). */
export function lockSeconds(failures: number): number {
  if (failures < pinTriesBeforeLock) return 0;
  return Math.min(longestLockSeconds, firstLockSeconds * 2 ** (failures - pinTriesBeforeLock));
}

function keyDigest(secret: string): string {
  return createHash('sha256').update(secret).digest('base64url');
}

/** The name an operator is shown by on the kiosk (never the email: anyone at the kiosk reads it). */
function operatorName(user: Stored<'user'>): string {
  const parts = [user.firstname, user.infix, user.lastname].filter(Boolean).join(' ');
  return user.display_name || user.fullname || parts || user.username || 'Operator';
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The users a kiosk serves: active users linked to a resource that plans on its board (or its stage). */
async function kioskOperators(records: RecordReads, kiosk: StoredKiosk): Promise<Stored<'user'>[]> {
  const { rows: users } = await records.list(tables.user, { limit: 1_000_000, offset: 0 });
  const linked = users.filter((user) => canSignIn(user) && user.resource_id);
  const resources = await records.getWhereIn(
    tables.resource,
    'id',
    linked.map((user) => user.resource_id),
  );
  const serving = new Set(
    resources
      .filter((resource) =>
        (resource.boards ?? []).some((board) => {
          if (board.active === false) return false;
          if (kiosk.board_id) return board.id === kiosk.board_id;
          return (board.stages ?? []).some((stage) => stage.id === kiosk.stage_id && stage.active !== false);
        }),
      )
      .map((resource) => resource.id),
  );
  return linked.filter((user) => serving.has(user.resource_id!)).sort((a, b) => operatorName(a).localeCompare(operatorName(b)));
}

function kioskView(kiosk: StoredKiosk) {
  return {
    id: kiosk.id,
    name: kiosk.name,
    board_id: kiosk.board_id,
    stage_id: kiosk.stage_id,
    created_by: kiosk.created_by,
    created_at: kiosk.created_at,
    last_used_at: kiosk.last_used_at,
    revoked_at: kiosk.revoked_at,
  };
}

function requirePlanner(caller: Caller): void {
  if (!isPlanner(caller)) throw ApiError.forbidden('Only a planner (admin, manager, organiser) sets up and revokes kiosks.');
}

/** The PIN of a body, checked: 422 for anything but 4 to 6 digits. */
function pinOf(body: Record<string, unknown>): string {
  const pin = body.pin;
  if (typeof pin !== 'string' || !pinPattern.test(pin)) throw ApiError.rule('pin', pinRule);
  return pin;
}

export function registerKioskRoutes(app: FastifyInstance, options: { access: OAuthAccess }): void {
  const { access } = options;
  const oauth = access.state;
  const wrongPins: RequestLimiter = access.limiter('kiosk-pin', { limit: kioskWrongPinLimit, windowMs: kioskWindowMs });

  /** The kiosk of the request's `x-kiosk-key`, its environment and records; 401 for any other. */
  async function kioskOf(request: FastifyRequest): Promise<{ kiosk: StoredKiosk; environment: Environment; records: RecordStore }> {
    const header = request.headers['x-kiosk-key'];
    const [prefix, environmentId, kioskId, secret, ...rest] = (typeof header === 'string' ? header : '').split('.');
    if (prefix !== kioskKeyPrefix || !environmentId || !kioskId || !secret || rest.length > 0) throw ApiError.notLoggedIn(badKioskKey);
    const environment = await access.environmentById(environmentId);
    if (!environment) throw ApiError.notLoggedIn(badKioskKey);
    const records = access.recordsOf(environment);
    const kiosk = await records.transaction((tx) => tx.floor.kiosk(kioskId));
    const given = Buffer.from(keyDigest(secret));
    const wanted = Buffer.from(kiosk?.key_hash ?? keyDigest(randomToken(32)));
    const right = given.length === wanted.length && timingSafeEqual(given, wanted);
    if (!kiosk || !right || kiosk.revoked_at) throw ApiError.notLoggedIn(badKioskKey);
    return { kiosk, environment, records };
  }

  /** Ends the kiosk and the operators' sign-ins it opened (they last kioskSignInMinutes at the most). */
  async function revoke(records: RecordStore, kioskId: string): Promise<boolean> {
    const since = iso(nowMs() - kioskSignInMinutes * 60_000);
    const { revoked, families } = await records.transaction(async (tx) => ({
      revoked: await tx.floor.revokeKiosk(kioskId, iso(nowMs())),
      families: await tx.floor.unlocksOf(kioskId, since),
    }));
    for (const family of families) await oauth.revokeFamily(family, 'kiosk revoked');
    return revoked;
  }

  app.put<{ Params: { user_id: string } }>(
    '/floor/pin/:user_id',
    {
      config: {
        doc: {
          summary:
            "Set a user's kiosk PIN (4 to 6 digits, stored as a salted scrypt digest, never read back): the user themself or a planner",
          tag: 'Floor',
          body: { type: 'object', required: ['pin'], properties: { pin: { type: 'string', pattern: '^[0-9]{4,6}$' } } },
        },
      },
    },
    async (request) => {
      const { ctx } = request;
      const userId = request.params.user_id.toLowerCase();
      if (!(ctx.caller.userId === userId || isPlanner(ctx.caller))) {
        throw ApiError.forbidden('A PIN is set by its own user or by a planner (admin, manager, organiser).');
      }
      const pin = pinOf(requiredBody(request.body));
      if (!(await ctx.records.get(tables.user, userId))) throw ApiError.notFound(`no user with id ${userId}`);
      const hash = await hashPassword(pin);
      await ctx.records.transaction((tx) => tx.floor.setPin(userId, hash, iso(nowMs())));
      return { user_id: userId, has_pin: true };
    },
  );

  app.delete<{ Params: { user_id: string } }>(
    '/floor/pin/:user_id',
    {
      config: {
        doc: {
          summary: "Remove a user's kiosk PIN: the user themself or a planner",
          tag: 'Floor',
          success: { status: 204, description: 'The PIN is gone' },
        },
      },
    },
    async (request, reply) => {
      const { ctx } = request;
      const userId = request.params.user_id.toLowerCase();
      if (!(ctx.caller.userId === userId || isPlanner(ctx.caller))) {
        throw ApiError.forbidden('A PIN is removed by its own user or by a planner (admin, manager, organiser).');
      }
      if (!(await ctx.records.transaction((tx) => tx.floor.clearPin(userId)))) throw ApiError.notFound('This user has no PIN.');
      return reply.code(204).send();
    },
  );

  app.post(
    '/floor/kiosks',
    {
      config: {
        doc: {
          summary: 'Turn a tablet into a kiosk for a board or a stage: the kiosk and its key, which is shown only here (planners)',
          tag: 'Floor',
          body: {
            type: 'object',
            properties: { board_id: { type: 'string' }, stage_id: { type: 'string' }, name: { type: 'string' } },
          },
          success: { status: 201, description: 'The kiosk, with its key' },
        },
      },
    },
    async (request, reply) => {
      const { ctx } = request;
      requirePlanner(ctx.caller);
      const body = requiredBody(request.body);
      const boardId = typeof body.board_id === 'string' ? body.board_id.toLowerCase() : undefined;
      const stageId = typeof body.stage_id === 'string' ? body.stage_id.toLowerCase() : undefined;
      if ((boardId === undefined) === (stageId === undefined)) throw ApiError.rule('board_id', 'name either board_id or stage_id');
      const board = boardId ? await ctx.records.get(tables.board, boardId) : undefined;
      const stage = stageId ? await ctx.records.get(tables.stage, stageId) : undefined;
      if (boardId && !board) throw ApiError.rule('board_id', `no board with id ${boardId}`);
      if (stageId && !stage) throw ApiError.rule('stage_id', `no stage with id ${stageId}`);
      if (body.name !== undefined && (typeof body.name !== 'string' || body.name.trim() === '' || body.name.length > 100)) {
        throw ApiError.rule('name', 'name must be text of 1 to 100 characters');
      }
      const secret = randomToken(32);
      const kiosk: StoredKiosk = {
        id: uuidv7(),
        name: typeof body.name === 'string' ? body.name.trim() : (board?.name ?? stage?.name ?? 'Kiosk'),
        board_id: board?.id ?? null,
        stage_id: stage?.id ?? null,
        key_hash: keyDigest(secret),
        created_by: ctx.caller.userId ?? null,
        created_at: iso(nowMs()),
        last_used_at: null,
        revoked_at: null,
      };
      await ctx.records.transaction((tx) => tx.floor.addKiosk(kiosk));
      reply.headers({ 'cache-control': 'no-store' });
      return reply.code(201).send({
        ...kioskView(kiosk),
        environment: ctx.caller.environment.name,
        key: [kioskKeyPrefix, ctx.caller.environment.id, kiosk.id, secret].join('.'),
      });
    },
  );

  app.get(
    '/floor/kiosks',
    { config: { doc: { summary: "The environment's kiosks, newest first, revoked ones too (planners)", tag: 'Floor' } } },
    async (request) => {
      requirePlanner(request.ctx.caller);
      const kiosks = await request.ctx.records.transaction((tx) => tx.floor.kiosks());
      return { data: kiosks.map(kioskView) };
    },
  );

  app.delete<{ Params: { id: string } }>(
    '/floor/kiosks/:id',
    {
      config: {
        doc: {
          summary: "Revoke a kiosk: its key and the operators' sign-ins it opened stop working at once (planners)",
          tag: 'Floor',
          success: { status: 204, description: 'Revoked' },
        },
      },
    },
    async (request, reply) => {
      requirePlanner(request.ctx.caller);
      const id = request.params.id.toLowerCase();
      const known = await request.ctx.records.transaction((tx) => tx.floor.kiosk(id));
      if (!known) throw ApiError.notFound(`no kiosk with id ${id}`);
      await revoke(request.ctx.records, id);
      return reply.code(204).send();
    },
  );

  app.get(
    '/floor/kiosk',
    {
      config: {
        public: true,
        doc: { summary: "A kiosk's board or stage and its operators, by the kiosk key (x-kiosk-key)", tag: 'Floor' },
      },
    },
    async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store' });
      const { kiosk, environment, records } = await kioskOf(request);
      const operators = await kioskOperators(records, kiosk);
      const withPin = await records.transaction((tx) => tx.floor.withPin(operators.map((user) => user.id)));
      return {
        kiosk: { id: kiosk.id, name: kiosk.name, board_id: kiosk.board_id, stage_id: kiosk.stage_id },
        environment: environment.name,
        data: operators.map((user) => ({ user_id: user.id, name: operatorName(user), has_pin: withPin.has(user.id) })),
      };
    },
  );

  app.delete(
    '/floor/kiosk',
    {
      config: {
        public: true,
        doc: {
          summary: 'Leave kiosk mode: the kiosk revokes its own key (x-kiosk-key)',
          tag: 'Floor',
          success: { status: 204, description: 'Revoked' },
        },
      },
    },
    async (request, reply) => {
      const { kiosk, records } = await kioskOf(request);
      await revoke(records, kiosk.id);
      return reply.code(204).send();
    },
  );

  app.post(
    '/floor/kiosk/unlock',
    {
      config: {
        public: true,
        doc: {
          summary:
            "An operator's PIN on a kiosk (x-kiosk-key): tokens of a sign-in as them for the floor's routes, 15 minutes at the most (rate-limited)",
          tag: 'Floor',
          body: {
            type: 'object',
            required: ['user_id', 'pin'],
            properties: { user_id: { type: 'string' }, pin: { type: 'string' } },
          },
        },
      },
    },
    async (request, reply) => {
      reply.headers({ 'cache-control': 'no-store', pragma: 'no-cache' });
      const { kiosk, environment, records } = await kioskOf(request);
      const kioskKey = `${environment.id}|${kiosk.id}`;
      const onKiosk = await wrongPins.peek(kioskKey);
      if (!onKiosk.allowed) throw tooManyRequests(onKiosk, 'Too many wrong PINs on this kiosk.');
      const body = requiredBody(request.body);
      if (typeof body.user_id !== 'string') throw ApiError.rule('user_id', 'user_id must name an operator of this kiosk');
      const pin = pinOf(body);
      const userId = body.user_id.toLowerCase();
      const operator = (await kioskOperators(records, kiosk)).find((user) => user.id === userId);
      if (!operator) {
        throw ApiError.forbidden("This user is not an operator of this kiosk's board or stage: their resource does not plan there.");
      }
      const now = nowMs();
      // Counted before the digest is checked, so tries sent at once cannot pass the limit.
      const counted = await records.transaction(async (tx) => {
        const taken = await tx.floor.countTry(operator.id, iso(now));
        if (taken && lockSeconds(taken.failures) > 0) await tx.floor.lockPin(operator.id, iso(now + lockSeconds(taken.failures) * 1000));
        return { taken, stored: taken ? undefined : await tx.floor.pinOf(operator.id) };
      });
      if (!counted.taken) {
        if (!counted.stored) throw ApiError.forbidden('You have no PIN yet: ask a planner to set one.');
        const wait = Math.max(1, Math.ceil((Date.parse(counted.stored.locked_until ?? '') - now) / 1000) || 1);
        throw tooManyRequests(
          { allowed: false, limit: pinTriesBeforeLock, remaining: 0, resetSeconds: wait },
          'Too many wrong PINs: this PIN is locked for a while.',
        );
      }
      // verifyPassword compares the scrypt digests with timingSafeEqual.
      if (!(await verifyPassword(pin, counted.taken.hash))) {
        const state = await wrongPins.take(kioskKey);
        if (!state.allowed) throw tooManyRequests(state, 'Too many wrong PINs on this kiosk.');
        const left = pinTriesBeforeLock - counted.taken.failures;
        throw ApiError.notLoggedIn(
          left > 0 ? `The PIN is not right (${left} more tries before it locks).` : 'The PIN is not right. It is locked for a while now.',
        );
      }
      const family = await oauth.createFamily({ client_id: kioskClientId, environment_id: environment.id, user_id: operator.id });
      await records.transaction(async (tx) => {
        await tx.floor.rightPin(operator.id);
        await tx.floor.addUnlock(family.id, kiosk.id, operator.id, iso(now));
        await tx.floor.kioskUsed(kiosk.id, iso(now));
      });
      const endsAt = now + kioskSignInMinutes * 60_000;
      const tokens = await issueTokens(oauth, family, operator.role, endsAt);
      return {
        ...tokens,
        environment: environment.name,
        ends_at: iso(endsAt),
        client_id: kioskClientId,
        user: { id: operator.id, name: operatorName(operator) },
      };
    },
  );
}

/** The routes an operator's sign-in on a kiosk reaches: the floor's own, for their jobs. */
const kioskRoutes = new Set([
  '/v1/floor/jobs',
  '/v1/floor/start',
  '/v1/floor/pause',
  '/v1/floor/finish',
  '/v1/floor/quantities',
  '/v1/floor/sign_out',
  '/v1/collection/:collection_id/attachment/:id/download',
]);

/**
 * A PIN is a weaker secret than a password: a sign-in it opened reaches the floor's routes and
 * nothing else, whatever the operator's role (docs/decisions/kiosk-pins.md). Runs right after
 * authentication, for every route.
 */
export function refuseKioskOutsideFloor(caller: Caller, route: string | undefined): void {
  if (caller.clientId !== kioskClientId) return;
  if (route !== undefined && kioskRoutes.has(route)) return;
  throw ApiError.forbidden("A kiosk's sign-in reaches the floor's jobs only; sign in with your password for the rest.");
}
