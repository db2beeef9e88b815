/**
 * From the change log to webhook events. A write hook runs inside the transaction of every
 * change, maps the change to an event type (docs/API.md "Events"), builds the body once and
 * queues one delivery per subscribed webhook, so the change and its deliveries commit (or
 * roll back) together: a crash loses no event.
 *
 * Layouts (docs/API.md "Webhooks"): `normal` sends the record; `nested` sends the parent and
 * the attached record; `pivot` adds the link's own data. A link's create is `attached`, its
 * (soft) delete `detached`, a change to its data `updated`. Restoring a deleted record counts as
 * creating (attaching) it again.
 */
import { uuidv7 } from '../../../shared/ids.js';
import type { LoggedChange, WrittenChange } from '../../store/changes.js';
import type { StoredRecord } from '../../../shared/fields.js';
import type { RecordReads, RecordWrites, WriteHook } from '../../store/record-store.js';
import type { Subscriber } from '../../store/webhook-queue.js';
import { hiddenFields } from '../permissions.js';
import { moduleNamedOrNone } from '../registry.js';

type Layout = 'normal' | 'nested' | 'pivot';

interface EventSource {
  layout: Layout;
  created: string;
  updated?: string;
  deleted: string;
  /** Nested layouts: the field holding the parent's id and the parent's resource. */
  parent?: { key: string; resource: string };
  /** Link resources: the field holding the attached record's id. Absent: the record itself is attached. */
  attached?: { key: string; resource: string };
  /** Pivot layout: the link's own data. */
  pivot?: readonly string[];
}

function normal(name: string): EventSource {
  return { layout: 'normal', created: `${name}.created`, updated: `${name}.updated`, deleted: `${name}.deleted` };
}

function link(
  prefix: string,
  parentKey: string,
  parent: string,
  attachedKey: string,
  attached: string,
  pivot?: readonly string[],
): EventSource {
  return {
    layout: pivot ? 'pivot' : 'nested',
    created: `${prefix}.attached`,
    ...(pivot ? { updated: `${prefix}.updated`, pivot } : {}),
    deleted: `${prefix}.detached`,
    parent: { key: parentKey, resource: parent },
    attached: { key: attachedKey, resource: attached },
  };
}

/** Resource name → its events. Resources that are not served yet (time_tracking) start sending once they are. */
export const eventSources: Readonly<Record<string, EventSource>> = {
  card: normal('card'),
  collection: normal('collection'),
  attachment: normal('attachment'),
  comment: normal('comment'),
  time_tracking: normal('time_tracking'),
  card_label: link('card.label', 'card_id', 'card', 'label_id', 'label'),
  card_resource: link('card.resource', 'card_id', 'card', 'resource_id', 'resource'),
  collection_label: link('collection.label', 'collection_id', 'collection', 'label_id', 'label'),
  collection_follower: link('collection.follower', 'collection_id', 'collection', 'user_id', 'user'),
  card_activity: link('card.activity', 'card_id', 'card', 'activity_id', 'activity', ['time']),
  collection_activity: link('collection.activity', 'collection_id', 'collection', 'activity_id', 'activity', ['time']),
  checklist: {
    layout: 'pivot',
    created: 'collection.checklist.created',
    updated: 'collection.checklist.updated',
    deleted: 'collection.checklist.deleted',
    parent: { key: 'collection_id', resource: 'collection' },
    pivot: ['card_id', 'position'],
  },
  checklist_item: {
    layout: 'pivot',
    created: 'collection.checklist.item.attached',
    updated: 'collection.checklist.item.updated',
    deleted: 'collection.checklist.item.detached',
    parent: { key: 'checklist_id', resource: 'checklist' },
    pivot: ['position', 'checked', 'checked_at'],
  },
};

/** Several updates of one card in one write batch, sent once with the card's final state. */
export const mergedCardEvent = 'card.updated.merged';

export function eventOf(change: Pick<LoggedChange, 'resource' | 'op' | 'fields'>): string | undefined {
  const source = eventSources[change.resource];
  if (!source) return undefined;
  if (change.op === 'create') return source.created;
  if (change.op === 'delete') return source.deleted;
  const restored = change.fields !== null && 'deleted_at' in change.fields && change.fields.deleted_at === null;
  return restored ? source.created : source.updated;
}

/**
 * A stored record as the API shows it to someone outside the environment, deleted ones
 * included: write-only and admin-only fields left out (a receiver is no admin; a follower's
 * invitation id would let it sign up as that user).
 */
async function readRecord(records: RecordReads, resource: string, id: unknown): Promise<Record<string, unknown> | null> {
  const module = moduleNamedOrNone(resource);
  if (!module || typeof id !== 'string') return null;
  const record: StoredRecord | undefined = await records.get(module.table, id, { includeDeleted: true });
  if (!record) return null;
  const out: Record<string, unknown> = { ...record };
  for (const name of hiddenFields(module.spec, undefined)) delete out[name];
  return out;
}

async function eventData(records: RecordReads, change: WrittenChange): Promise<unknown> {
  const source = eventSources[change.resource]!;
  const record = (await readRecord(records, change.resource, change.id)) ?? { id: change.id };
  if (source.layout === 'normal') return record;
  const parent = source.parent ? await readRecord(records, source.parent.resource, record[source.parent.key]) : null;
  const attached = source.attached ? await readRecord(records, source.attached.resource, record[source.attached.key]) : record;
  const data: Record<string, unknown> = { parent, attached };
  if (source.layout === 'pivot') data.pivot = Object.fromEntries((source.pivot ?? []).map((field) => [field, record[field] ?? null]));
  return data;
}

export interface EnvironmentRef {
  id: string;
  name: string;
}

/** The `card.updated.merged` events of one write batch: card id → its event and its deliveries. */
export type MergedEvents = Map<string, { eventId: string; deliveries: string[] }>;

/**
 * The deliveries one change queues, in the transaction of the change (`tx`): the write hook of
 * a transaction on either engine (webhookWriteHook). `merged` holds the write batch's merged
 * card events; `readSubscribers` reads the live webhooks (the hook reads them once a
 * transaction). Answers whether it queued any.
 */
async function queueEvents(
  tx: RecordWrites,
  change: WrittenChange,
  environment: EnvironmentRef,
  merged: MergedEvents,
  readSubscribers: () => Promise<Subscriber[]>,
): Promise<boolean> {
  const event = eventOf(change);
  if (!event) return false;
  const subscribers = await readSubscribers();
  if (subscribers.length === 0) return false;

  const body = (eventId: string, type: string, data: unknown) =>
    JSON.stringify({ id: eventId, event: type, created_at: change.at, environment, data });
  async function enqueueAll(to: Subscriber[], type: string, payload: string, eventId: string): Promise<string[]> {
    const ids: string[] = [];
    for (const webhook of to)
      ids.push(
        await tx.deliveries.enqueue({
          webhookId: webhook.id,
          eventId,
          event: type,
          resource: change.resource,
          recordId: change.id,
          payload,
        }),
      );
    return ids;
  }

  let added = false;
  const direct = subscribers.filter((w) => w.eventTypes.has(event));
  if (direct.length > 0) {
    const eventId = uuidv7();
    await enqueueAll(direct, event, body(eventId, event, await eventData(tx, change)), eventId);
    added = true;
  }
  const mergedSubscribers =
    change.resource === 'card' && event === 'card.updated' ? subscribers.filter((w) => w.eventTypes.has(mergedCardEvent)) : [];
  if (mergedSubscribers.length > 0) {
    added = true;
    const existing = merged.get(change.id);
    const eventId = existing?.eventId ?? uuidv7();
    const payload = body(eventId, mergedCardEvent, await eventData(tx, change));
    let replaced = existing !== undefined;
    // Replacing fails only when the earlier rows were rolled back with a failed savepoint.
    for (const id of existing?.deliveries ?? []) {
      if (await tx.deliveries.replacePayload(id, payload)) continue;
      replaced = false;
      break;
    }
    if (!replaced) merged.set(change.id, { eventId, deliveries: await enqueueAll(mergedSubscribers, mergedCardEvent, payload, eventId) });
  }
  return added;
}

/**
 * The event hook of one environment (record-store.ts, WriteHook): one per transaction, which is
 * one write batch, on either engine (SQLite's SqliteRecordStore.onTransactionWrite, PostgreSQL's
 * PostgresRecordStore). `queued` is called (inside the transaction) whenever deliveries were
 * added: on SQLite the caller wakes its worker after the commit; a team server's nodes hear of
 * them from the commit's change events (team-service.ts).
 */
export function webhookWriteHook(environment: EnvironmentRef | (() => EnvironmentRef), queued: () => void = () => {}): () => WriteHook {
  return () => {
    const merged: MergedEvents = new Map();
    // Read once a transaction, at its first change that makes an event: a transaction that
    // plans a collection's ten cards asks once, not ten times.
    let subscribers: Subscriber[] | undefined;
    const readOnce = async (tx: RecordWrites) => (subscribers ??= await tx.deliveries.subscribers());
    return async (change, tx) => {
      if (!eventOf(change)) return;
      const ref = typeof environment === 'function' ? environment() : environment;
      if (await queueEvents(tx, change, ref, merged, () => readOnce(tx))) queued();
    };
  };
}
