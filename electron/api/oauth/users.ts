/**
 * Users as OAuth sees them: who may sign in (an `active`, unarchived user with a password),
 * accepting an invitation by choosing a password, and creating a signed-in-ready user for the
 * server's CLI. Passwords live in their own table (store/user-passwords.ts), never on the record.
 */
import type { userSpec } from '../../../shared/resources/user.js';
import type { StoredOf } from '../../../shared/fields.js';
import type { RecordReads, RecordStore } from '../../store/record-store.js';
import { ApiError } from '../errors.js';
import { createRecord } from '../records.js';
import type { RequestContext } from '../resource.js';
import { userModule } from '../resources/user.js';
import { hashPassword, passwordProblem, verifyPassword } from './passwords.js';
import { tables } from '../tables.js';

/** A user as stored (the password aside: it has its own table). */
export type StoredUser = StoredOf<typeof userSpec>;

export function canSignIn(user: StoredUser | undefined): user is StoredUser {
  return user !== undefined && user.status === 'active' && !user.archived_at;
}

/** The user behind a token, if they may still use the API (not deleted, archived or deactivated). */
export async function activeUser(records: RecordReads, userId: string): Promise<StoredUser | undefined> {
  const user = await records.get(tables.user, userId);
  return canSignIn(user) ? user : undefined;
}

async function userByEmail(records: RecordReads, email: string): Promise<StoredUser | undefined> {
  return (await records.list(tables.user, { match: { email: email.trim().toLowerCase() }, limit: 1, offset: 0 })).rows[0];
}

/** The user these credentials sign in; undefined for any mismatch (always at the cost of one hash). */
export async function signIn(records: RecordStore, email: string, password: string): Promise<StoredUser | undefined> {
  const user = await userByEmail(records, email);
  const stored = canSignIn(user) ? await records.passwordHashOf(user.id) : undefined;
  const ok = await verifyPassword(password, stored);
  return ok ? user : undefined;
}

function checkPassword(password: unknown): string {
  const problem = passwordProblem(password);
  if (problem !== null || typeof password !== 'string') throw ApiError.rule('password', problem ?? 'password must be a string');
  return password;
}

/** Makes an invited user active with the password they chose; the invitation is used up. */
export async function acceptInvitation(records: RecordStore, inviteId: string, password: unknown): Promise<StoredUser> {
  const chosen = checkPassword(password);
  const hash = await hashPassword(chosen);
  return records.transaction(async (tx) => {
    const match = { invite_id: inviteId.toLowerCase(), status: 'invited' };
    const [user] = (await tx.list(tables.user, { match, limit: 1, offset: 0 })).rows;
    if (!user || user.archived_at) throw ApiError.notFound('No open invitation with that id.');
    await tx.setPasswordHash(user.id, hash);
    return (await tx.update(tables.user, user.id, { status: 'active', invite_id: null }))!;
  });
}

/** Creates an active user with a password (the server's `user add` command), on either engine. */
export async function createUserWithPassword(ctx: RequestContext, input: Record<string, unknown>, password: unknown): Promise<StoredUser> {
  const chosen = checkPassword(password);
  const hash = await hashPassword(chosen);
  return ctx.records.transaction(async (tx) => {
    const user = await createRecord(ctx, tx, userModule, input);
    await tx.setPasswordHash(user.id, hash);
    return (await tx.update(tables.user, user.id, { status: 'active', invite_id: null }))!;
  });
}
