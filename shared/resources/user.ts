import { exceptionKinds, type ExceptionKind } from '../exceptions.js';
import {
  defineResource,
  externalRefField,
  idField,
  isTimeZone,
  jsonField,
  timestampField,
  type InputOf,
  type RecordOf,
} from '../fields.js';

export const userRoles = ['admin', 'manager', 'organiser', 'member', 'guest'] as const;
/** Roles that may plan and approve (time approval, planning changes). */
export const plannerRoles = ['admin', 'manager', 'organiser'] as const;
export const languages = ['nl', 'de', 'es', 'fr', 'it', 'pl', 'pt', 'en'] as const;

/** A user's `notify_exceptions`: distinct kinds of the exception inbox (docs/API.md "Notifications"). */
export function checkNotifiedKinds(value: unknown): string | null {
  if (!Array.isArray(value)) return `must be a list of exception kinds (${exceptionKinds.join(', ')})`;
  for (const kind of value)
    if (typeof kind !== 'string' || !(exceptionKinds as readonly string[]).includes(kind))
      return `names an unknown exception kind: ${JSON.stringify(kind)}; the kinds are ${exceptionKinds.join(', ')}`;
  if (new Set(value).size !== value.length) return 'names each exception kind at most once';
  return null;
}

/** A user of the environment (docs/API.md "Users"). Users are invited, not created. */
export const userSpec = defineResource({
  name: 'user',
  title: 'User',
  fields: {
    id: idField,
    email: { type: 'string', required: true, maxLength: 150, pattern: '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$' },
    username: { type: 'string', nullable: true, maxLength: 100 },
    firstname: { type: 'string', nullable: true, maxLength: 100 },
    infix: { type: 'string', nullable: true, maxLength: 30 },
    lastname: { type: 'string', nullable: true, maxLength: 100 },
    fullname: { type: 'string', nullable: true, readOnly: true },
    display_name: { type: 'string', nullable: true, maxLength: 150 },
    gender: { type: 'string', nullable: true, maxLength: 20 },
    mobile: { type: 'string', nullable: true, maxLength: 50 },
    avatar: { type: 'string', nullable: true, maxLength: 2048, pattern: '^https?://\\S+$' },
    avatar_checksum: { type: 'string', nullable: true, pattern: '^[a-fA-F0-9]{64}$', description: 'SHA-256 (hex) of the avatar image.' },
    avatar_signature: {
      type: 'string',
      nullable: true,
      readOnly: true,
      description: "Signed by the public API's file service; null here.",
    },
    about: { type: 'string', nullable: true, maxLength: 65535 },
    date_of_birth: { type: 'date', nullable: true },
    role: { type: 'enum', enum: userRoles, required: true },
    status: { type: 'enum', enum: ['invited', 'active', 'deactivated'], readOnly: true, default: 'invited' },
    // The public API also names `linked` (a user sees only cards linked to them). Nothing here
    // limits what a user reads by card (lists, `with`, sync pages, reports), so it would promise
    // a privacy it does not give: only `all` is offered (docs/API.md "Users"; migration 15).
    card_visibility: {
      type: 'enum',
      enum: ['all'],
      default: 'all',
      description: 'Every user sees every card; `linked` is not offered here.',
    },
    language: { type: 'enum', enum: languages, default: 'nl' },
    timezone: {
      type: 'string',
      maxLength: 64,
      default: 'Europe/Amsterdam',
      check: (v) => (isTimeZone(v as string) ? null : 'must be an IANA time zone such as Europe/Amsterdam'),
    },
    resource_id: { type: 'uuid', nullable: true, references: 'resource' },
    // A credential: whoever has it chooses the invited user's password (POST /v1/user/accept).
    invite_id: {
      type: 'uuid',
      nullable: true,
      readOnly: true,
      adminOnly: true,
      description: 'The open invitation (null once accepted). Shown to admins only.',
    },
    // Single sign-on and two-factor sign-in are not offered here (users sign in with a password,
    // docs/API.md "OAuth"), so these keep their defaults; they are the public API's fields.
    idp_id: {
      type: 'string',
      nullable: true,
      readOnly: true,
      description: "The user's id at a single sign-on provider; null: no SSO here.",
    },
    is_sso: { type: 'boolean', readOnly: true, default: false, description: 'Signs in through single sign-on; always false here.' },
    mfa_enabled: { type: 'boolean', readOnly: true, default: false, description: 'Uses two-factor sign-in; always false here.' },
    notify_own_changes: { type: 'boolean', default: false },
    // The user's own choice, on their record so that it follows them to every computer they
    // sign in on (it syncs like the rest of the record); each computer notifies on its own.
    notify_exceptions: jsonField<ExceptionKind[]>()({
      type: 'json',
      shape: 'array',
      default: [],
      check: checkNotifiedKinds,
      items: { type: 'string', enum: exceptionKinds },
      description: 'The kinds of exception (GET /v1/exception) this user is notified about on the desktop; none by default.',
    }),
    forgotten_timer_hours: {
      type: 'integer',
      minimum: 1,
      maximum: 168,
      default: 10,
      description: 'A running timer of this user is flagged `forgotten` once it has run this many hours.',
    },
    payroll_ref: {
      type: 'string',
      nullable: true,
      blankIsNull: true,
      maxLength: 50,
      description:
        'The user\'s employee number in the payroll package (Persnr, Werknemernummer, Personalnummer; docs/API.md "Payroll files").',
    },
    external_ref: externalRefField,
    transaction: { type: 'string', nullable: true, maxLength: 36 },
    archived_at: { type: 'datetime', nullable: true },
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type User = RecordOf<typeof userSpec>;
export type UserInput = InputOf<typeof userSpec>;
