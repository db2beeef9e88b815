/**
 * The public parts of `GET /v1/me` (docs/API.md): beside `type`, `environment` and the
 * key or user, the public API answers the host, AI settings, features, permissions and more.
 * Its clients read them (an assistant reads `organizations` and `permissions`), so every key is
 * here, holding what this server knows and an empty value for what it does not have
 * (docs/API.md "Users", "Compatibility").
 */
import type { Environment } from '../../store/system.js';
import { isAdmin, isPlanner, isReadOnly } from '../permissions.js';
import type { Caller } from '../resource.js';

/**
 * The environment as the public answer names it. `customer` is its name (an environment is one
 * customer's data here); it is always active and nobody's logins or requests are tracked.
 */
export function meEnvironment(environment: Environment): Record<string, unknown> {
  return {
    id: environment.id,
    name: environment.name,
    hash: null,
    customer: environment.name,
    status: 'active',
    last_login: null,
    last_request_user: null,
    last_request_third_party: null,
    state_user: null,
    state_third_party: null,
    created_at: environment.created_at,
    // Environment records never change here.
    updated_at: environment.created_at,
  };
}

/**
 * What the caller may do, in the words of docs/API.md "Permissions": everyone reads; all but
 * guests write; planners (and API keys) keep everyone's time; admins (and API keys) manage
 * users, webhooks and OAuth clients.
 */
export function mePermissions(caller: Caller): string[] {
  return [
    'read',
    ...(isReadOnly(caller) ? [] : ['write']),
    ...(isPlanner(caller) ? ['manage_time'] : []),
    ...(isAdmin(caller) ? ['admin'] : []),
  ];
}

/** The keys of the public answer this server has no counterpart for, with their empty values. */
export function meExtras(caller: Caller): Record<string, unknown> {
  return {
    host: { id: null, description: null },
    // No AI features here.
    ai_settings: { general: false, formula: false },
    features: [],
    permissions: mePermissions(caller),
    // The caller's organisation is its environment.
    organizations: [{ id: caller.environment.id, name: caller.environment.name }],
    // Per-board permissions are not kept: every board is open to whoever opens the environment.
    board_permission_set: {},
    // A user's preferences are fields of the user (`GET /v1/user/{id}?with=settings`).
    settings: [],
    next: false,
    show_nps: false,
  };
}
