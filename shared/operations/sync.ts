/**
 * The sync messages with a body (docs/API.md "Sync"): a replica's push, declared once for the
 * remote's checks, the OpenAPI document and the sync client that sends it (shared/operation.ts);
 * and the local replica's sync control: its settings and the retry of a refused change, which
 * the renderer sends.
 * The wire's mutation type (`Mutation`) is this declaration's value, and the answers of the
 * settings and the retry (`SyncSettings`, `Conflict`) are declared here with them, as the push's
 * are. The sync control contract (shared/sync.ts) takes and gives these, so it imports this file
 * and not the other way round.
 *
 * A malformed push is refused as a whole with 400, as the protocol has always answered it
 * (older replicas and remotes rely on it), not with the 422 of other operations.
 */
import { hlcPattern } from '../hlc.js';
import { defineOperation, shape, type BodyOf, type ValueOf } from '../operation.js';

/** Most mutations one push takes (docs/API.md "Sync"). */
export const maxPushBatch = 1000;
/**
 * A push may be larger than `maxPushBatch` only when it is one group (one planner action):
 * a group is applied whole, so a replica sends it whole, alone (docs/API.md "Sync", "Actions
 * sync whole"). A shape cannot say "one group", so the remote's handler checks that part.
 */
export const maxPushGroup = 20_000;

/** A replica id or an action's id: ids a peer makes itself, so only their characters are checked. */
const peerId = (description: string) => shape.text(100, { min: 1, pattern: /^[A-Za-z0-9_.:-]+$/, description });

/**
 * Keys a newer replica may add: let through and left out, as a remote that does not know
 * `group_id` leaves that out (docs/API.md "Sync", "Versions and unknown data").
 */
const newerKeys = { names: 'any', required: false, ignored: true } as const;

/** One change of a replica's outbox as it travels in a push. */
export const pushedMutation = shape.object(
  {
    mutation_id: shape.integer(1, Number.MAX_SAFE_INTEGER, "Increasing per replica id: the outbox's order."),
    resource: shape.text(100, { min: 1, description: 'The resource name (one this version does not declare is kept).' }),
    id: shape.uuid('The record.'),
    op: shape.choice(['create', 'update', 'delete']),
    fields: shape.optional(shape.nullable(shape.object({}, { names: 'any', required: false }))),
    hlc: shape.text(83, {
      min: 1,
      pattern: hlcPattern,
      description: 'The hybrid clock it was written at: `<millis>-<counter>-<node id>`.',
    }),
    group_id: shape.optional(
      peerId('The planner action (command) it belongs to: the remote applies a group all or nothing. Not part of the content hash.'),
    ),
    group_description: shape.optional(
      shape.text(200, { description: 'What the planner did ("Move 5 cards"), shown in the conflict list when the group is refused.' }),
    ),
  },
  newerKeys,
);

/**
 * One change of a replica's outbox as it travels in a push (docs/API.md "Sync"): the fields
 * it wrote (null for a delete) and the hybrid clock it was written at; `group_id` and
 * `group_description` name the planner's action it belongs to (docs/API.md "Sync", "Actions
 * sync whole"). Declared once, by the push operation's `pushedMutation` above; a push may
 * leave `fields` out, which the remote takes as null, so here it is always there.
 */
export type Mutation = Simplify<Omit<ValueOf<typeof pushedMutation>, 'fields'> & { fields: Record<string, unknown> | null }>;
type Simplify<T> = { [K in keyof T]: T[K] } & {};

/**
 * The remote's answer for one pushed mutation: applied or rejected on its merits; or not
 * applied at all: `stale` (its id is at or below the replica id's mark and not in its last
 * batch) or `deferred` (its clock runs ahead of the remote's).
 */
export interface PushResult {
  mutation_id: number;
  status: 'applied' | 'rejected' | 'stale' | 'deferred';
  /** The answer to a mutation of the last batch, sent again; `hash` is the content it had. */
  duplicate?: boolean;
  hash?: string;
  error?: unknown;
  record?: Record<string, unknown> | null;
  clocks?: Record<string, string>;
  group_id?: string;
}

export interface PushAnswer {
  results: PushResult[];
  last_mutation_id: number;
  /** The remote's wall clock (ms) when it answered, to tell a replica whose clock runs ahead. */
  server_time: number;
  /** The remote's sync protocol and schema version (docs/API.md "Versions and unknown data"). */
  protocol: number;
  schema: number;
}

export const pushOperation = defineOperation<PushAnswer>()({
  method: 'POST',
  path: '/sync/push',
  summary: "Apply a batch of a replica's mutations",
  tag: 'Sync',
  body: shape.object(
    {
      client_id: peerId("The replica id the remote keeps the push's bookkeeping under (bound to the credential that first used it)."),
      mutations: shape.list(
        pushedMutation,
        { max: maxPushGroup },
        `At most ${maxPushBatch}, in increasing mutation_id order; up to ${maxPushGroup} when all are one group.`,
      ),
    },
    newerKeys,
  ),
  answer: 'One result per mutation (applied, rejected, stale or deferred), the last mutation id, the server time and versions',
  malformedStatus: 400,
});

/** A credential for the remote: kept by the host, never returned or logged (docs/API.md "Sync"). */
const credential = (description: string) => shape.optional(shape.text(4096, { min: 1, description }));

/** The stored settings of the remote (the settings operation's answer); never the credentials themselves. */
export interface SyncSettings {
  remote_url: string | null;
  api_env: string | null;
  auth: 'api-key' | 'oauth' | null;
  has_credentials: boolean;
  /** Plain http to a remote on another computer was explicitly allowed (remoteUrlProblem). */
  allow_insecure_http: boolean;
}

/**
 * New settings for the remote this replica syncs with. What a shape cannot say is checked by
 * the route: that remote_url is an http(s) address, https unless it is this computer or plain
 * http is allowed (remoteUrlProblem, shared/sync.ts), that api_env goes with api_key, and that
 * the remote takes the credentials (docs/API.md "Sync", "Checked before saved").
 */
export const syncSettingsOperation = defineOperation<SyncSettings>()({
  method: 'PUT',
  path: '/sync/settings',
  summary: 'Set the remote URL and credentials',
  tag: 'Sync',
  body: shape.object({
    remote_url: shape.nullable(
      shape.text(512, { min: 1, description: 'The remote, an http(s) URL (https unless on this computer); null stops syncing.' }),
    ),
    api_env: credential('The environment on the remote; goes with api_key.'),
    api_key: credential('An API key of that environment.'),
    access_token: credential('An OAuth access token from the sign-in flow, kept by the host.'),
    refresh_token: credential('The OAuth refresh token that goes with access_token.'),
    allow_insecure_http: shape.optional(
      shape.boolean('Allow plain http to a remote on another computer (a network trusted completely); off unless given.'),
    ),
  }),
  answer: 'The stored settings (credentials are never returned, only whether some are stored)',
});

/** New settings, as the settings operation declares them: what `SyncControl.updateSettings` takes (shared/sync.ts). */
export type SyncSettingsInput = BodyOf<typeof syncSettingsOperation>;

/** A mutation the remote refused, kept with its data until the planner retries or discards it. */
export interface Conflict {
  id: string;
  mutation: Mutation;
  error: unknown;
  server_record: Record<string, unknown> | null;
  created_at: string;
  resolved_at: string | null;
  resolution: string | null;
  /**
   * A refused action (docs/API.md "Sync", "Actions sync whole"): its id, description and every
   * refused mutation of it, each with the reason and the remote's version. The conflict list
   * shows the action once; retry and discard apply to all of it.
   */
  group?: { id: string; description: string | null; items: ConflictItem[] };
}

/** One refused mutation of a refused action. */
export interface ConflictItem {
  mutation: Mutation;
  error: unknown;
  server_record: Record<string, unknown> | null;
}

/**
 * Tries a refused change again. The body is the record's fields to change first, any of them:
 * the resource's own rules check them as they check any edit. An action of several changes is
 * retried as it was, without edits (docs/API.md "Sync", "Actions sync whole").
 */
export const retryConflictOperation = defineOperation<Conflict>()({
  method: 'POST',
  path: '/sync/conflict/:id/retry',
  summary: 'Try the refused change again, with edited data if given',
  tag: 'Sync',
  body: shape.object({}, { names: 'any', required: false }),
  answer: 'The conflict, resolved as retried',
});
