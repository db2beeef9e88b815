/**
 * The remote keeping and passing on what other app versions sync (docs/API.md "Sync",
 * "Versions and unknown data").
 *
 * Keeping: a pushed field this version does not declare is kept with the mutation's clock
 * (last-writer-wins like any field) when the mutation is applied; a pushed record of a
 * resource it does not declare is kept whole and answered `applied`, so the replica neither
 * resends it nor lists it as a conflict. Their names must be lower-case snake case.
 *
 * Passing on: kept fields go out with their records in the change feed and the snapshot,
 * with their clocks; kept records go out as records of their own. A replica that knows them
 * applies them; one that does not keeps them too (electron/sync/merge.ts).
 *
 * Only an admin's replica (an API key, or an admin signed in) gets them: the remote cannot
 * tell whether the version that declares a field hides it from other roles, so it hands
 * nothing it cannot judge to a caller with less than full rights.
 *
 * Bounded (security audit N3): a kept value, the kept fields of a record and what an environment
 * keeps in all have limits (`KeptLimits`), each refusal with the error body; a resource may not
 * be named as one of the store's own tables (`api_key`); each value is kept with its writer, so
 * the version that declares it checks it as that writer's write (books.ts). The role rule of the
 * record a field belongs to is apply-mutation.ts's.
 */
import { loneSurrogatePath, loneSurrogateProblem, own, type ResourceSpec } from '../../../shared/fields.js';
import { nowTimestamp } from '../../../shared/ids.js';
import { kpiSnapshotSpec, oauthClientSpec, resourceSpecs, webhookDeliverySpec, webhookSpec } from '../../../shared/resources/index.js';
import type { Mutation } from '../../../shared/operations/sync.js';
import { isInternalName, keptBytesOf, keptNamePattern } from '../../store/unknown-data.js';
import type { RecordWrites } from '../../store/record-store.js';
import type { SyncFeed } from '../../store/sync-feed.js';
import { ApiError } from '../errors.js';
import { isAdmin } from '../permissions.js';
import type { Caller, RequestContext } from '../resource.js';

/**
 * Every resource this version declares, synced or not (webhooks, OAuth clients and KPI
 * snapshots stay on their instance): a pushed record of any other is another version's, and kept.
 */
export const declaredResources: ReadonlySet<string> = new Set([
  ...Object.keys(resourceSpecs),
  webhookSpec.name,
  webhookDeliverySpec.name,
  oauthClientSpec.name,
  kpiSnapshotSpec.name,
]);

const nameRule = 'lower-case letters, digits and _, starting with a letter (at most 64)';

/**
 * Takes the fields `spec` does not declare out of `fields` (a pushed mutation's, without
 * `id`) and returns them; a name no version could give is refused (422).
 */
export function takeUnknownFields(spec: ResourceSpec, fields: Record<string, unknown>): Record<string, unknown> {
  const unknown: Record<string, unknown> = {};
  for (const name of Object.keys(fields)) {
    if (name === 'deleted_at' || own(spec.fields, name) !== undefined) continue;
    if (!keptNamePattern.test(name))
      throw ApiError.rule(name, `${name} is not a field of ${spec.name}, nor a name another version could give one (${nameRule})`);
    unknown[name] = fields[name];
    delete fields[name];
  }
  return unknown;
}

/** How much data of other versions a remote keeps (docs/API.md "Versions and unknown data"). */
export interface KeptLimits {
  /** One value, as JSON, in bytes: a declared text holds at most 64 KiB too. */
  valueBytes: number;
  /** Kept fields of one record: a newer version's new resource has a few dozen at most. */
  fieldsPerRecord: number;
  /** Kept in one environment in all (each field's name and JSON value), in bytes. */
  environmentBytes: number;
}

export const defaultKeptLimits: KeptLimits = {
  valueBytes: 64 * 1024,
  fieldsPerRecord: 64,
  environmentBytes: 32 * 1024 * 1024,
};

/** Who a kept value was written by, as it is kept (`key:<id>` or `user:<id>`). */
export function writerOf(caller: Caller): string {
  return caller.kind === 'api-key' ? `key:${caller.keyId ?? ''}` : `user:${caller.userId ?? ''}`;
}

/**
 * The limits on what one push keeps: each value and each record's kept fields are checked as
 * they come; the environment's total is read once per push (a sum over everything kept) and
 * counted on from there, so a push of a thousand mutations does not add it up a thousand times.
 * A mutation rolled back after its fields were counted leaves them counted: the push errs on
 * the side of keeping less.
 */
export class KeptBudget {
  private used: number | undefined;

  constructor(readonly limits: KeptLimits = defaultKeptLimits) {}

  /** Refuses with the error body what would pass a limit (nothing is kept then); counts the rest. */
  async admit(tx: RecordWrites, resource: string, id: string, fields: Readonly<Record<string, unknown>>): Promise<void> {
    const { valueBytes, fieldsPerRecord, environmentBytes } = this.limits;
    const names = Object.keys(fields);
    if (names.length === 0) return;
    const tooLarge = names
      .map((name) => ({ name, bytes: Buffer.byteLength(JSON.stringify(fields[name] === undefined ? null : fields[name])) }))
      .filter((f) => f.bytes > valueBytes);
    if (tooLarge.length > 0)
      throw ApiError.unprocessable(
        tooLarge.map((f) => ({
          field: f.name,
          description: `${f.name} is ${f.bytes} bytes of data this version does not declare; it keeps at most ${valueBytes} bytes in one field`,
          rule: 'maxLength',
          limit: valueBytes,
        })),
      );
    const kept = new Set([...(await tx.sync.keptFieldNames(resource, id)), ...names]);
    if (kept.size > fieldsPerRecord)
      throw ApiError.unprocessable([
        {
          field: 'fields',
          description: `${resource} ${id} would have ${kept.size} fields this version does not declare; it keeps at most ${fieldsPerRecord} for one record`,
          rule: 'maximum',
          limit: fieldsPerRecord,
        },
      ]);
    this.used ??= await tx.sync.keptBytes();
    const adding = names.reduce((sum, name) => sum + keptBytesOf(name, fields[name]), 0);
    if (this.used + adding > environmentBytes) {
      throw new ApiError('insufficientStorage', [
        {
          field: 'fields',
          description: `This environment keeps ${this.used} bytes of data that this version does not declare, and keeps at most ${environmentBytes}; an admin can list and delete it (GET /v1/sync/kept).`,
          limit: environmentBytes,
        },
      ]);
    }
    this.used += adding;
  }
}

/** Keeps the unknown fields of an applied mutation, each with the mutation's clock and its writer. */
export async function keepUnknownFields(
  ctx: RequestContext,
  tx: RecordWrites,
  budget: KeptBudget,
  mutation: Mutation,
  unknown: Record<string, unknown>,
): Promise<void> {
  await budget.admit(tx, mutation.resource, mutation.id, unknown);
  await tx.sync.keep(mutation.resource, mutation.id, unknown, () => mutation.hlc, writerOf(ctx.caller));
}

/** Keeps a pushed mutation of a resource this version does not declare, whole. */
export async function keepUnknownRecord(ctx: RequestContext, tx: RecordWrites, budget: KeptBudget, mutation: Mutation): Promise<void> {
  if (!keptNamePattern.test(mutation.resource))
    throw ApiError.rule(
      'resource',
      `${mutation.resource} is not a resource that syncs, nor a name another version could give one (${nameRule})`,
    );
  if (isInternalName(mutation.resource))
    throw ApiError.rule('resource', `${mutation.resource} is the name of data this server keeps for itself, not a resource that syncs`);
  const badText = loneSurrogatePath(mutation.fields);
  if (badText !== undefined) throw ApiError.rule(badText, `${badText} ${loneSurrogateProblem}`);
  const fields = { ...(mutation.fields ?? {}) };
  delete fields.id;
  for (const name of Object.keys(fields)) {
    if (!keptNamePattern.test(name)) throw ApiError.rule(name, `${name} is not a name another version could give a field (${nameRule})`);
  }
  if (mutation.op === 'delete') fields.deleted_at = typeof fields.deleted_at === 'string' ? fields.deleted_at : nowTimestamp();
  await budget.admit(tx, mutation.resource, mutation.id, fields);
  await tx.sync.keep(mutation.resource, mutation.id, fields, () => mutation.hlc, writerOf(ctx.caller));
}

/** A record as the change feed and the snapshot send it. */
export interface SyncedRecord {
  resource: string;
  id: string;
  record: Record<string, unknown> | null;
  clocks: Record<string, string>;
}

export class KeptData {
  private constructor(
    /** Where kept data is read from; null when this caller gets none, or there is none. */
    private readonly feed: SyncFeed | null,
    /** Every resource this version declares (synced or not): the others are unknown here. */
    private readonly declared: ReadonlySet<string>,
  ) {}

  static async of(ctx: RequestContext, declared: ReadonlySet<string>): Promise<KeptData> {
    const { feed } = ctx.records;
    return new KeptData(isAdmin(ctx.caller) && (await feed.keepsData()) ? feed : null, declared);
  }

  /** Whether this caller is given kept data, and there is some. */
  get active(): boolean {
    return this.feed !== null;
  }

  /** Whether a resource is one this version does not declare: its records are kept data. */
  private isUnknown(resource: string): boolean {
    return !this.declared.has(resource);
  }

  /** The records with their kept fields added (declared fields and their clocks win). */
  async withKeptFields<T extends SyncedRecord>(resource: string, entries: T[]): Promise<T[]> {
    if (!this.feed) return entries;
    const kept = await this.feed.keptFieldsOfMany(
      resource,
      entries.filter((e) => e.record).map((e) => e.id),
    );
    if (kept.size === 0) return entries;
    return entries.map((entry) => {
      const fields = kept.get(entry.id);
      if (!fields || !entry.record) return entry;
      return { ...entry, record: { ...fields.values, ...entry.record }, clocks: { ...fields.clocks, ...entry.clocks } };
    });
  }

  /** Kept records of a resource this version does not declare, by id (none for a caller not given them). */
  async records(resource: string, ids: readonly string[]): Promise<Map<string, SyncedRecord>> {
    const out = new Map<string, SyncedRecord>();
    if (!this.feed || !this.isUnknown(resource)) return out;
    for (const [id, fields] of await this.feed.keptFieldsOfMany(resource, ids))
      out.set(id, { resource, id, record: { id, deleted_at: null, ...fields.values }, clocks: fields.clocks });
    return out;
  }

  /** A snapshot page of kept records of unknown resources, after the (resource, id) `after`. */
  async recordsPage(after: readonly [string, string] | null, limit: number): Promise<SyncedRecord[]> {
    if (!this.feed) return [];
    return (await this.feed.keptRecordsPage(this.declared, after, limit)).map((r) => ({
      resource: r.resource,
      id: r.id,
      record: { id: r.id, deleted_at: null, ...r.fields.values },
      clocks: r.fields.clocks,
    }));
  }
}
