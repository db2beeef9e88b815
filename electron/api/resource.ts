/**
 * What a resource module declares. Generic code (records.ts, crud.ts) turns a declaration
 * into list/get/create/update/delete, eager loading, relation filters, deep insertion and
 * OpenAPI; a module adds only its domain rules. Adding a resource means adding one module.
 */
import type { SyncAction } from './sync/action-checks.js';
import type { FieldProblem } from '../../shared/errors.js';
import type { ResourceSpec } from '../../shared/fields.js';
import type { StoredOf, StoredRecord } from '../../shared/fields.js';
import type { TableDef } from '../store/table-def.js';
import { ApiError } from './errors.js';
import type { RecordReads, RecordStore, RecordWrites } from '../store/record-store.js';
import type { AnswerWork } from './conventions/answer-work.js';
import type { Environment } from '../store/system.js';
import type { TableName } from '../store/tables.js';

/** Who is calling: an API key of an environment, or a signed-in user. */
export interface Caller {
  kind: 'api-key' | 'user';
  environment: Environment;
  keyId?: string;
  userId?: string;
  /** The user's role (admin, manager, organiser, member, guest); undefined for API keys. */
  role?: string;
  /** The OAuth client a user signed in through; undefined for API keys. */
  clientId?: string;
  /** The sign-in (token family) of a bearer token, which signing out revokes; undefined for API keys. */
  familyId?: string;
}

export interface RequestContext {
  caller: Caller;
  /**
   * The environment's records through the asynchronous store boundary, which the team server's
   * PostgreSQL engine needs (docs/architecture.md "The asynchronous store boundary"): what the
   * API reads and writes.
   */
  records: RecordStore;
  /** `sync` while the remote applies a replica's mutation (rules may allow what planning did). */
  origin?: 'api' | 'sync';
  /**
   * While the remote applies a replica's mutation: the action it belongs to, for rules that
   * hold only once the whole action is applied (sync/action-checks.ts).
   */
  syncAction?: SyncAction;
  /**
   * Set by a command that moves a set of cards (commands/card-commands.ts): each card's move is
   * collected here instead of followed at once, so the board's dependency behaviour runs once
   * for the whole set (planning/card-set-moves.ts).
   */
  cardMoves?: { card: StoredRecord; previous: StoredRecord }[];
  /**
   * The work of the request's answer: what it embeds through `with` (against the budget), its
   * turns between batches, and its stop when nobody wants it any more (conventions/answer-work.ts).
   */
  answer?: AnswerWork;
}

/** The context of a request by `caller` on an environment's records: its SQLite file's (recordsOf), a team database's or a scenario's. */
export function requestContext(caller: Caller, records: RecordStore): RequestContext {
  return { caller, records };
}

/** A request's context on records of another engine (ApiOptions.recordsOf) or of a scenario. */
export function contextOnRecords(ctx: RequestContext, records: RecordStore): RequestContext {
  return { ...ctx, records };
}

/**
 * The local instance's own books (the app's user, a replica's view of its sync) of a store or
 * a transaction: the team server has none, and its routes for them answer as for any part of
 * the API that does not run on its engine.
 */
export function localBooks<Books>(holder: { readonly local?: Books | undefined }): Books {
  if (holder.local === undefined) throw unavailableHere();
  return holder.local;
}

function unavailableHere(): ApiError {
  return new ApiError('unavailable', [
    { description: 'This part of the API does not run on this store engine (docs/architecture.md "The asynchronous store boundary").' },
  ]);
}

/**
 * A relation that `with` can load, `filter` can name and (when writable) a body can carry inline.
 * Its `target` and `link` are resource names, looked up in the registry when followed, so a
 * module never imports the modules it relates to (no import cycles between resource modules).
 */
export type Relation =
  /** This record's `foreignKey` holds the id of one target record (`order.project_id`). */
  | { kind: 'belongsTo'; target: TableName; foreignKey: string }
  /**
   * Target records whose `foreignKey` holds this record's id (`order_row.order_id`).
   * `owned` children can be created, updated and deleted inline (deep insertion) and are
   * deleted with their parent.
   */
  | { kind: 'hasMany'; target: TableName; foreignKey: string; owned?: boolean; localKey?: never }
  /**
   * Target records whose `foreignKey` holds the value of this record's `localKey` rather than
   * its id (a resource's activities: those whose `resource_type` is its `type`). Many records
   * share such targets, so they are read (`with`, `filter`) and never owned or written inline.
   */
  | { kind: 'hasMany'; target: TableName; foreignKey: string; localKey: string; owned?: never }
  /** The one target record whose `foreignKey` holds this record's id (`collection.order`). */
  | { kind: 'hasOne'; target: TableName; foreignKey: string }
  /**
   * Targets linked through a link resource (`collection_label`): `ownerKey` points at this
   * record, `targetKey` at the target. `pivot` fields live on the link and are returned merged
   * into the target (`activities: [{id, time}]`). Writable inline as `[{id, …pivot}]`.
   */
  | {
      kind: 'manyToMany';
      target: TableName;
      link: TableName;
      ownerKey: string;
      targetKey: string;
      pivot?: readonly string[];
      /** Link fields copied from the owner when a link is made: `{supplier_order_id: 'order_id'}`. */
      ownerCopy?: Record<string, string>;
    }
  /**
   * Other records of the target that share a link target with this one: through `link`, whose
   * `ownerKey` points at a record and `sharedKey` at what they share (a resource's `resources`:
   * the resources in a group with it). Never this record itself. Read (`with`, `filter`), never
   * written inline: the links belong to what they share.
   */
  | { kind: 'peers'; target: TableName; link: TableName; ownerKey: string; sharedKey: string }
  /**
   * Some of the record's own fields, embedded as one object under the relation's name (a user's
   * `settings`). Nothing is loaded; it cannot be nested into or filtered on (filter the fields
   * themselves), and it is written through the fields.
   */
  | { kind: 'fields'; fields: readonly string[] };

export type WriteOp = 'create' | 'update';

/**
 * What a write rule answers: at once, or (a rule that reads or writes other records through
 * the transaction `tx` it is given) a promise of it, on either engine (docs/architecture.md
 * "The asynchronous store boundary").
 */
export type RuleAnswer<T> = T | Promise<T>;

/**
 * A resource's domain rules. `S` types the stored records the hooks get (`ResourceRules<typeof
 * cardSpec>`); left out, they are broad `StoredRecord`s.
 */
export interface ResourceRules<S extends ResourceSpec = ResourceSpec> {
  /** Maps deprecated or alternative input before validation (a card's `date` → start/end). */
  prepareInput?(input: Record<string, unknown>): Record<string, unknown>;
  /**
   * Cross-field checks after field validation; problems become 422 items. May also fill in
   * derived values (defaults that depend on other records) before the write.
   */
  check?(
    ctx: RequestContext,
    tx: RecordWrites,
    values: Record<string, unknown>,
    current: StoredOf<S> | undefined,
    /** For a record written inline: its parent as it will be after this write. */
    parent?: Record<string, unknown>,
    /**
     * The body as sent (after `prepareInput`), for write-only flags that are not stored and so
     * are not among `values` (a time entry's `overnight`).
     */
    input?: Record<string, unknown>,
  ): RuleAnswer<FieldProblem[]>;
  /** Runs inside the write transaction after the record and its nested records are written. */
  afterWrite?(
    ctx: RequestContext,
    tx: RecordWrites,
    record: StoredOf<S>,
    op: WriteOp,
    input: Record<string, unknown>,
    previous: StoredOf<S> | undefined,
  ): RuleAnswer<void>;
  /** Whether the record may be deleted (a locked time entry may not); problems become a 422. */
  checkDelete?(ctx: RequestContext, tx: RecordWrites, record: StoredOf<S>): RuleAnswer<FieldProblem[]>;
  /** Runs inside the delete transaction after the soft delete. */
  afterDelete?(ctx: RequestContext, tx: RecordWrites, record: StoredOf<S>): RuleAnswer<void>;
  /** Before a deleted record is restored from the trash; throws an ApiError to refuse it. */
  checkRestore?(ctx: RequestContext, record: StoredOf<S>): void;
  /**
   * Also before a restore from the trash or by an undo, for a rule that reads other records (a
   * time entry in a closed payroll period), through the transaction: throws an ApiError to
   * refuse it.
   */
  checkRestoreOnRecords?(ctx: RequestContext, tx: RecordReads, record: StoredOf<S>): Promise<void>;
  /** After a record came back from the trash, with what was deleted with it (commands/restore.ts). */
  afterRestore?(ctx: RequestContext, tx: RecordWrites, record: StoredOf<S>): RuleAnswer<void>;
  /**
   * The remote, before it applies a replica's create or update: a check of the change as a
   * whole, before per-field clocks pick the fields that land (a second plan of a collection is
   * refused however old its fields are). Throws an ApiError to refuse it.
   */
  checkSynced?(
    ctx: RequestContext,
    tx: RecordWrites,
    id: string,
    fields: Record<string, unknown>,
    current: StoredOf<S> | undefined,
  ): RuleAnswer<void>;
  /**
   * The remote, after it applied a replica's create or update: keeps a rule that spans records
   * which replicas changed apart (one running timer per user; a collection's summary of the
   * cards the remote has). What it writes is the remote's own change, and syncs to every
   * replica like any other.
   */
  afterSynced?(ctx: RequestContext, tx: RecordWrites, record: StoredOf<S>): RuleAnswer<void>;
  /**
   * Fills virtual fields of a page of records before they are returned; `include` lists the
   * computed extras the request asked for. It reads through `ctx.records`, the asynchronous
   * store, so that a list or a record reads the same from either engine (docs/architecture.md
   * "The asynchronous store boundary").
   */
  present?(ctx: RequestContext, records: Record<string, unknown>[], include: readonly string[]): void | Promise<void>;
  /** The extras `include` may name; anything else is a 400. */
  includes?: readonly string[];
}

export interface ScopeParam {
  param: string;
  field: string;
  module: () => ResourceModule;
  /**
   * The record has no such column: the parent is checked through an inner parent instead
   * (a checklist item belongs to a collection through its checklist).
   */
  inherited?: boolean;
}

export interface ResourceModule {
  spec: ResourceSpec;
  table: TableDef;
  /** Path under /v1, Fastify style: `/project`, `/order/:order_id/row`. Link records have none. */
  path?: string;
  /**
   * For nested paths, outermost first: each path parameter names a parent record, and the
   * record's `field` must hold it (`/collection/:collection_id/card/:card_id/checklist`).
   */
  parents?: readonly ScopeParam[];
  relations?: Record<string, Relation>;
  rules?: ResourceRules;
  /** False for records that belong to one instance and do not sync (webhooks, OAuth clients). */
  syncs?: boolean;
  /** Generic operations this resource does not offer (a user is invited, not created). */
  without?: readonly ('list' | 'get' | 'create' | 'update' | 'delete')[];
  /**
   * Records of this resource worked out from others rather than stored (a resource's company
   * holidays, read as its deviations): lists and gets answer them beside the stored ones, and
   * a PUT or DELETE of one is a 422 saying where it is changed.
   */
  derived?: DerivedRecords;
}

export interface DerivedRecords {
  /** Those under the nested path's parents: `match` is the column values the path fixes. */
  list(ctx: RequestContext, match: Record<string, unknown>): Promise<StoredRecord[]>;
  /** Why one is not written here: the field to name, and what to say. */
  readOnly(record: StoredRecord): FieldProblem;
}
