/**
 * Users are invited, not created (docs/API.md): `POST /v1/user` records a pending
 * invitation and answers 201 with no body. Emails are unique among live users, compared
 * without case. `GET /v1/me` tells a caller who it is. Users are the admins' to manage (see
 * checkPermission); the invitation id is a credential (whoever has it chooses the user's
 * password), declared `adminOnly` so that only admins ever read it.
 */
import { uuidv7 } from '../../../shared/ids.js';
import { userSpec } from '../../../shared/resources/user.js';
import type { StoredRecord } from '../../../shared/fields.js';
import { ApiError } from '../errors.js';
import { isAdmin, requireAdmin } from '../permissions.js';
import type { RequestContext, ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

/** `resource` is `{id}` or null, read as `resource_id` like every to-one reference (write-plan.ts). */
export const inviteFields = [
  'email',
  'role',
  'card_visibility',
  'language',
  'mobile',
  'firstname',
  'infix',
  'lastname',
  'timezone',
  'resource',
];

/**
 * What a user who is not an admin may change, on their own record only: their profile, and the
 * fields that follow from it (`fullname`, `updated_at`: a replica's push carries them). Role,
 * email (what they sign in and are invited with), card visibility, their resource, archiving,
 * `external_ref` and the server's fields (status, the invitation) are the admins'.
 */
const profileFields = new Set([
  'username',
  'firstname',
  'infix',
  'lastname',
  'fullname',
  'display_name',
  'gender',
  'mobile',
  'avatar',
  'avatar_checksum',
  'about',
  'date_of_birth',
  'language',
  'timezone',
  'notify_own_changes',
  'notify_exceptions',
  'forgotten_timer_hours',
  'transaction',
  'updated_at',
]);

/**
 * Only admins make, archive, delete or restore users and change anyone's role; anyone else may
 * change their own profile and nothing more (docs/API.md "Permissions"). Runs for API writes
 * and for a replica's pushed changes alike, so a member's replica cannot write it either.
 */
function checkPermission(ctx: RequestContext, values: Record<string, unknown>, current: StoredRecord | undefined): void {
  const { caller } = ctx;
  if (isAdmin(caller)) return;
  if (!current) throw ApiError.forbidden('Only an admin invites users.');
  if (current.id !== caller.userId) throw ApiError.forbidden('Only an admin changes another user.');
  const changed = Object.keys(values).filter((name) => !profileFields.has(name) && values[name] !== current[name]);
  if (changed.length > 0) throw ApiError.forbidden(`Only an admin changes a user's ${changed.join(', ')}.`);
}

function fullname(user: Record<string, unknown>): string | null {
  return [user.firstname, user.infix, user.lastname].filter((p) => typeof p === 'string' && p.length > 0).join(' ') || null;
}

export const userModule: ResourceModule = {
  spec: userSpec,
  table: tables.user,
  path: '/user',
  without: ['create'],
  relations: {
    // The public API's user settings, as one object of the preferences a user record holds
    // (docs/API.md "Relations"); nothing else per user is stored.
    settings: { kind: 'fields', fields: ['language', 'timezone', 'card_visibility', 'notify_own_changes'] },
    resource: { kind: 'belongsTo', target: 'resource', foreignKey: 'resource_id' },
    time_tracking: { kind: 'hasMany', target: 'time_tracking', foreignKey: 'user_id' },
    // The views that are this user's own; shared ones (user_id null) are the board's.
    board_views: { kind: 'hasMany', target: 'board_view', foreignKey: 'user_id' },
  },
  rules: {
    async check(ctx, tx, values, current) {
      if (typeof values.email === 'string') values.email = values.email.toLowerCase();
      checkPermission(ctx, values, current);
      if (typeof values.email !== 'string') return [];
      const taken = (await tx.list(tables.user, { match: { email: values.email }, limit: 1, offset: 0 })).rows.some(
        (u) => u.id !== current?.id,
      );
      return taken ? [{ field: 'email', description: 'A user with this email already exists' }] : [];
    },
    async afterWrite(_ctx, tx, user, op) {
      const name = fullname(user);
      const changes: Record<string, unknown> = {};
      if (name !== user.fullname) changes.fullname = name;
      if (op === 'create') changes.invite_id = uuidv7();
      if (Object.keys(changes).length > 0) await tx.update(tables.user, user.id, changes);
    },
    checkDelete(ctx) {
      requireAdmin(ctx.caller, 'Only an admin deletes users.');
      return [];
    },
    checkRestore(ctx) {
      requireAdmin(ctx.caller, 'Only an admin restores users.');
    },
  },
};
