/**
 * The app's user: who the planner at this desktop app (or browser host) is (docs/API.md "The
 * app's user"). The app calls its own API with a key made at launch (the bridge key), and a
 * key has no user; without this, every entry booked with the timer or the week sheet had no
 * `user_id`, so payroll could not use it.
 *
 *  - The planner chooses (or creates) their user once; the choice is kept in the environment's
 *    database (`sync_state`, key `app_user_id`), so it survives restarts and goes with backups.
 *  - Signed in to a remote with an account, the signed-in user is the app's user; the host
 *    reads it from the stored sign-in, and a choice here cannot override it (409).
 *  - Requests with the bridge key carry that user as the caller's `userId`, so whatever defaults
 *    to "the caller's user" (time entries, timers, comments) is theirs. The caller stays an API
 *    key with its powers: the planner administers their own data. Other keys (the local API's
 *    for other programs) do not act as anyone.
 *
 *   GET /v1/app_user   {user_id, signed_in, user}
 *   PUT /v1/app_user   {user_id} chooses a user (null: nobody); {user: {...}} creates one and chooses it
 */
import type { FastifyInstance } from 'fastify';
import { isUuid } from '../../shared/ids.js';
import type { FieldProblem } from '../../shared/errors.js';
import type { RecordReads, RecordStore, RecordWrites } from '../store/record-store.js';
import { asCommandOnRecords } from './commands/request-command.js';
import { ApiError } from './errors.js';
import { requiredBody } from './conventions/request-body.js';
import { requireAdmin } from './permissions.js';
import { createRecord, presentOne } from './records.js';
import { localBooks, type RequestContext } from './resource.js';
import { userModule } from './resources/user.js';
import { tables } from './tables.js';

/** What the host tells the API about its own bridge. */
export interface AppUserOptions {
  /** The id of the key the host's bridge calls with (made fresh at each launch). */
  bridgeKeyId: string;
  /** The user signed in to the remote with an account, or null (no remote, or an API key). */
  signedInUserId(): string | null;
}

/** What a new user may be given here: their name, e-mail, role and the resource they are. */
const newUserFields = new Set(['email', 'firstname', 'infix', 'lastname', 'role', 'resource_id', 'language', 'timezone']);

/** A user that may book time: there, not deleted and not archived. */
async function liveUser(records: RecordReads, id: string) {
  const user = await records.get(tables.user, id);
  return user && !user.archived_at ? user : undefined;
}

/** The app's user id: the signed-in user's, else the chosen one's while that user is live. */
async function appUserId(records: RecordStore, options: AppUserOptions): Promise<{ userId: string | null; signedIn: boolean }> {
  const signedIn = options.signedInUserId();
  if (signedIn) return { userId: signedIn.toLowerCase(), signedIn: true };
  const chosen = await localBooks(records).appUserId();
  return { userId: chosen && (await liveUser(records, chosen)) ? chosen : null, signedIn: false };
}

/** Bridge requests act as the app's user (see the file head); called right after authentication. */
export async function actAsAppUser(ctx: RequestContext, options: AppUserOptions): Promise<void> {
  if (ctx.caller.kind !== 'api-key' || ctx.caller.keyId !== options.bridgeKeyId) return;
  const { userId } = await appUserId(ctx.records, options);
  if (userId) ctx.caller.userId = userId;
}

async function answer(ctx: RequestContext, options: AppUserOptions) {
  const { userId, signedIn } = await appUserId(ctx.records, options);
  const user = userId ? await ctx.records.get(tables.user, userId) : undefined;
  return {
    user_id: userId,
    signed_in: signedIn,
    // Signed in, the user record may still be on its way from the remote: null until it syncs.
    user: user ? await presentOne(ctx, userModule, user, { with: [], include: [] }) : null,
  };
}

/** The problems of a new user's fields, named `user.<field>` as the body sends them. */
function prefixed(error: unknown): never {
  if (error instanceof ApiError && error.kind === 'unprocessable') {
    throw new ApiError(
      'unprocessable',
      error.items.map((item) => ({ ...item, field: item.field ? `user.${item.field}` : 'user' })),
    );
  }
  throw error;
}

/** The new user's fields, checked for what may be given here (see newUserFields). */
function newUserInput(given: unknown): Record<string, unknown> {
  if (typeof given !== 'object' || given === null || Array.isArray(given))
    throw ApiError.rule('user', "user must be an object with the new user's email and name");
  // A non-array object (checked above), read field by field as unknown values.
  const input = given as Record<string, unknown>;
  const unknown = Object.keys(input).filter((name) => !newUserFields.has(name));
  if (unknown.length > 0) {
    throw ApiError.unprocessable(
      unknown.map((name): FieldProblem => ({
        field: `user.${name}`,
        description: `user.${name} cannot be set here; change it on the user afterwards`,
      })),
    );
  }
  return input;
}

async function createUser(ctx: RequestContext, tx: RecordWrites, input: Record<string, unknown>): Promise<string> {
  // The first user of a data folder owns it: an admin. Later ones are members unless asked.
  const anyone = (await tx.list(tables.user, { limit: 1, offset: 0 })).rows.length > 0;
  const role = input.role ?? (anyone ? 'member' : 'admin');
  try {
    return (await createRecord(ctx, tx, userModule, { ...input, role })).id;
  } catch (error) {
    return prefixed(error);
  }
}

export function registerAppUserRoutes(app: FastifyInstance, options: AppUserOptions): void {
  const summary = "Choose or create this app's user (the desktop app and browser host only)";
  const doc = (summary: string) => ({ doc: { summary, tag: 'User' } });

  app.get('/app_user', { config: doc("Who this app's user is (the desktop app and browser host only)") }, (request) =>
    answer(request.ctx, options),
  );

  // Creating the user is a command (undo takes the new user away again); choosing one writes
  // no record, so it is none.
  app.put('/app_user', { config: { ...doc(summary) } }, async (request, reply) => {
    const { ctx } = request;
    requireAdmin(ctx.caller, "Only an admin of the environment chooses who this app's user is.");
    const input = requiredBody(request.body);
    const extra = Object.keys(input).filter((name) => name !== 'user_id' && name !== 'user');
    if (extra.length > 0) throw ApiError.rule(extra[0]!, `${extra[0]} is not a field here; send user_id, or user to create one`);
    if ('user_id' in input === 'user' in input)
      throw ApiError.rule('user_id', 'send either user_id (an existing user, or null) or user (a new one)');
    if (options.signedInUserId()) {
      throw ApiError.conflict(
        "This app is signed in to its remote with an account: that account is the app's user. Sign out on the Sync screen to choose another.",
      );
    }
    if ('user' in input) {
      const newUser = newUserInput(input.user);
      await asCommandOnRecords(request, reply, summary, async (tx) => {
        await localBooks(tx).chooseAppUser(await createUser(ctx, tx, newUser));
      });
    } else {
      const given = input.user_id;
      if (given !== null && !isUuid(given)) throw ApiError.rule('user_id', 'user_id must be a uuid or null');
      const userId = given === null ? null : given.toLowerCase();
      await ctx.records.transaction(async (tx) => {
        if (userId && !(await liveUser(tx, userId)))
          throw ApiError.rule('user_id', `user_id names no user (or an archived one) with id ${userId}`);
        await localBooks(tx).chooseAppUser(userId ?? undefined);
      });
    }
    return answer(ctx, options);
  });
}
