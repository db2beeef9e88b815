/**
 * Who may do what in an environment (docs/API.md "Permissions", its role table). An API key
 * administers its environment (the integration, the desktop app's own local API); a signed-in
 * user does when their role is `admin`. Planners (admin, manager, organiser) also keep
 * everyone's time; a member keeps their own; a guest only reads. The role is read from the
 * user record on every request (oauth/bearer.ts), so a change of role counts at once.
 */
import type { FilterNode } from '../../shared/filter.js';
import { filterAtoms } from '../../shared/filter.js';
import { own, type FieldSpec, type ResourceSpec } from '../../shared/fields.js';
import { plannerRoles } from '../../shared/resources/user.js';
import { ApiError } from './errors.js';
import type { Caller, ResourceModule } from './resource.js';
import { moduleNamed } from './registry.js';

export function isAdmin(caller: Caller): boolean {
  return caller.kind === 'api-key' || caller.role === 'admin';
}

/** 403 with the error body unless the caller administers the environment. */
export function requireAdmin(caller: Caller, description: string): void {
  if (!isAdmin(caller)) throw ApiError.forbidden(description);
}

/**
 * Approves time and books, changes, stops, deletes and marks exported anyone's time entries:
 * API keys (integrations may name any user) and users with a planner role. Members and guests
 * do not (docs/API.md "Permissions").
 */
export function isPlanner(caller: Caller): boolean {
  return caller.kind === 'api-key' || (plannerRoles as readonly string[]).includes(caller.role ?? '');
}

/** A guest reads everything a member reads and writes nothing. */
export function isReadOnly(caller: Caller): boolean {
  return caller.kind === 'user' && caller.role === 'guest';
}

export const readOnlyMessage = 'A guest reads the planning but changes nothing; ask an admin for the member role.';

/**
 * Pushes are answered mutation by mutation: a guest's replica gets each of its changes back
 * `rejected` (sync/apply-mutation.ts), so its queue drains into the conflict list and its
 * pulls keep flowing, as for any refused change. Signing out changes no planning: a guest
 * ends their own sign-in too.
 */
const answeredPerMutation = new Set(['/v1/sync/push', '/v1/floor/sign_out']);

/**
 * Refuses a guest's write (every method but GET and HEAD) with 403 before its body is read,
 * whatever the route: a new route cannot forget it. Runs right after authentication.
 */
export function refuseGuestWrite(caller: Caller, method: string, route: string | undefined): void {
  if (!isReadOnly(caller) || method === 'GET' || method === 'HEAD') return;
  if (route !== undefined && answeredPerMutation.has(route)) return;
  throw ApiError.forbidden(readOnlyMessage);
}

/** A declaration's fields (a resource's spec, or a table's). */
type Declared = Pick<ResourceSpec, 'fields'>;

function adminOnlyFields(spec: Declared): string[] {
  return Object.entries<FieldSpec>(spec.fields)
    .filter(([, f]) => f.adminOnly)
    .map(([name]) => name);
}

/**
 * The fields a record is shown without: write-only ones always, admin-only ones unless the
 * caller is an admin. No caller (a webhook's receiver, outside the environment) sees neither.
 */
export function hiddenFields(spec: Declared, caller: Caller | undefined): string[] {
  const writeOnly = Object.entries<FieldSpec>(spec.fields)
    .filter(([, f]) => f.writeOnly)
    .map(([name]) => name);
  return caller && isAdmin(caller) ? writeOnly : [...writeOnly, ...adminOnlyFields(spec)];
}

/**
 * A stored record as sync and the trash hand it out: whole (write-only fields are data that
 * travels between instances), but without admin-only fields for a caller who is not an admin,
 * so a replica signed in as a member never holds another user's invitation. Their clocks go
 * too: the replica keeps whatever it had.
 */
export function forSync<T extends Record<string, unknown> | null | undefined>(spec: Declared, caller: Caller, record: T): T {
  if (!record || isAdmin(caller)) return record;
  const hidden = adminOnlyFields(spec);
  if (hidden.length === 0) return record;
  const out: Record<string, unknown> = { ...record };
  for (const name of hidden) delete out[name];
  // A copy of the record without some fields: the caller's record type, less what it may not see.
  return out as T;
}

/**
 * Refuses a `filter` or `sort` that names a field the caller does not see, on the record or
 * through a relation (`followers.invite_id`): comparisons would read it out one character at
 * a time. The answer is the one an unknown field gets, so it does not tell the field exists.
 */
export function checkQueryFields(
  caller: Caller,
  module: ResourceModule,
  filter: FilterNode | undefined,
  sort: readonly { field: string }[],
): void {
  if (isAdmin(caller)) return;
  const hidden = (spec: Declared, name: string) => own<FieldSpec>(spec.fields, name)?.adminOnly === true;
  // A related record's field (`order.code`) is hidden as on that record.
  const concealed = (name: string) => {
    const dot = name.indexOf('.');
    const relation = dot === -1 ? undefined : own(module.relations, name.slice(0, dot));
    return relation && relation.kind !== 'fields'
      ? hidden(moduleNamed(relation.target).spec, name.slice(dot + 1))
      : hidden(module.spec, name);
  };
  for (const atom of filter ? filterAtoms(filter) : []) {
    if (concealed(atom.field)) throw ApiError.badRequest(`Unknown filter field: ${atom.field}`);
  }
  for (const key of sort) if (concealed(key.field)) throw ApiError.badRequest(`Unknown sort field: ${key.field}`);
}
