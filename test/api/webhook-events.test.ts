/**
 * Every one of the 36 webhook event types (docs/API.md "Webhooks", "Events"), made through the
 * API and received by a real receiver on 127.0.0.1: one webhook subscribed to all of them, then
 * a table of steps, each a change through the API and the event it must cause with the key
 * fields of its `data` in that event type's layout (normal: the record; nested: `{parent,
 * attached}`; pivot: `{parent, attached, pivot}`).
 *
 * Between steps the delivery log is drained (nothing left but successful deliveries), so what
 * arrives after a step's change was caused by that change.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyDelivery } from '../../electron/api/webhooks/signature.js';
import { webhookEventLayouts, webhookEventTypes, type WebhookEventType } from '../../shared/resources/webhook.js';
import { call, prepareFolder, startInstance, type Instance } from '../helpers/instance.js';
import { eventually, startReceiver, type ReceivedRequest, type Receiver } from '../helpers/webhook-receiver.js';

const key = { 'x-api-key': 'events-key-123', 'x-api-env': 'events' };
const timestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;

let folder: ReturnType<typeof prepareFolder>;
let instance: Instance;
let receiver: Receiver;
let hook: { id: string; secret: string };

const api = (method: string, path: string, body?: unknown) => call(instance.baseUrl, method, path, key, body);

/** The API's answer when it is the expected status; fails the test otherwise. */
async function ok(method: string, path: string, body?: unknown): Promise<any> {
  const answer = await api(method, path, body);
  const expected = method === 'POST' ? 201 : method === 'DELETE' ? 204 : 200;
  expect(answer.status, `${method} ${path}: ${JSON.stringify(answer.body)}`).toBe(expected);
  return answer.body;
}

/** Waits until the webhook has no delivery left to send: every event so far has arrived. */
async function drained(): Promise<void> {
  await eventually(
    () => api('GET', `/v1/webhook/${hook.id}/delivery?limit=0&filter=${encodeURIComponent('status:not:eq:successful')}`),
    (answer) => answer.status === 200 && answer.body.count === 0,
  );
}

/**
 * Ids the steps share: made before the webhook (a board with its stage and label, an activity,
 * a resource, a user) and by the steps themselves.
 */
const ids = {
  board: '',
  stage: '',
  label: '',
  activity: '',
  resource: '',
  user: '',
  collection: '',
  card: '',
  checklist: '',
  item: '',
  comment: '',
  attachment: '',
  entry: '',
};
const collectionPath = (rest = '') => `/v1/collection/${ids.collection}${rest}`;
const cardPath = () => collectionPath(`/card/${ids.card}`);

interface Step {
  event: WebhookEventType;
  /** Makes the change through the API; answers what the (last) event's `data` must match. */
  act: () => Promise<Record<string, unknown>>;
  /** How many events of this type the change sends; default one. */
  times?: number;
}

/**
 * In order: each step builds on the ones before it (a link is detached after it was attached,
 * a record deleted last).
 */
const steps: Step[] = [
  {
    event: 'collection.created',
    act: async () => {
      ids.collection = (await ok('POST', '/v1/collection', { board_id: ids.board, name: 'Events' })).id;
      return { id: ids.collection, name: 'Events', board_id: ids.board, status: 'not_planned' };
    },
  },
  {
    event: 'collection.updated',
    act: async () => {
      await ok('PUT', collectionPath(), { name: 'Events 2' });
      return { id: ids.collection, name: 'Events 2' };
    },
  },
  {
    event: 'collection.label.attached',
    act: async () => {
      await ok('PUT', collectionPath(), { labels: [{ id: ids.label }] });
      return { parent: { id: ids.collection, name: 'Events 2' }, attached: { id: ids.label, name: 'Rush' } };
    },
  },
  {
    event: 'collection.label.detached',
    act: async () => {
      await ok('PUT', collectionPath(), { labels: [] });
      return { parent: { id: ids.collection }, attached: { id: ids.label, name: 'Rush' } };
    },
  },
  {
    event: 'collection.follower.attached',
    act: async () => {
      await ok('PUT', collectionPath(), { followers: [{ id: ids.user }] });
      return { parent: { id: ids.collection }, attached: { id: ids.user, email: 'watcher@example.com' } };
    },
  },
  {
    event: 'collection.follower.detached',
    act: async () => {
      await ok('PUT', collectionPath(), { followers: [] });
      return { parent: { id: ids.collection }, attached: { id: ids.user, email: 'watcher@example.com' } };
    },
  },
  {
    event: 'collection.activity.attached',
    act: async () => {
      await ok('PUT', collectionPath(), { activities: [{ id: ids.activity, time: 30 }] });
      return { parent: { id: ids.collection }, attached: { id: ids.activity, description: 'Welding' }, pivot: { time: 30 } };
    },
  },
  {
    event: 'collection.activity.updated',
    act: async () => {
      await ok('PUT', collectionPath(), { activities: [{ id: ids.activity, time: 45 }] });
      return { parent: { id: ids.collection }, attached: { id: ids.activity }, pivot: { time: 45 } };
    },
  },
  {
    event: 'collection.activity.detached',
    act: async () => {
      await ok('PUT', collectionPath(), { activities: [] });
      return { parent: { id: ids.collection }, attached: { id: ids.activity }, pivot: { time: 45 } };
    },
  },
  {
    event: 'card.created',
    act: async () => {
      ids.card = (await ok('POST', collectionPath('/card'), { stage_id: ids.stage, name: 'E1' })).id;
      // With the fields the server fills in: the card is inserted whole.
      return {
        id: ids.card,
        collection_id: ids.collection,
        stage_id: ids.stage,
        name: 'E1',
        board_id: ids.board,
        rank: expect.any(String),
      };
    },
  },
  {
    event: 'card.updated',
    act: async () => {
      await ok('PUT', cardPath(), { name: 'E1 renamed' });
      return { id: ids.card, name: 'E1 renamed' };
    },
  },
  {
    event: 'card.updated.merged',
    act: async () => {
      await ok('PUT', cardPath(), { description: 'Both sides', start_date: '2026-03-02', end_date: '2026-03-04' });
      return { id: ids.card, name: 'E1 renamed', description: 'Both sides', start_date: '2026-03-02', end_date: '2026-03-04' };
    },
  },
  {
    event: 'card.label.attached',
    act: async () => {
      await ok('PUT', cardPath(), { labels: [{ id: ids.label }] });
      return { parent: { id: ids.card, name: 'E1 renamed' }, attached: { id: ids.label, name: 'Rush' } };
    },
  },
  {
    event: 'card.label.detached',
    act: async () => {
      await ok('PUT', cardPath(), { labels: [] });
      return { parent: { id: ids.card }, attached: { id: ids.label } };
    },
  },
  {
    event: 'card.resource.attached',
    act: async () => {
      await ok('PUT', cardPath(), { resources: [{ id: ids.resource }] });
      return { parent: { id: ids.card, name: 'E1 renamed' }, attached: { id: ids.resource, name: 'Anna', type: 'employee' } };
    },
  },
  {
    event: 'card.resource.detached',
    act: async () => {
      await ok('PUT', cardPath(), { resources: [] });
      return { parent: { id: ids.card }, attached: { id: ids.resource, name: 'Anna' } };
    },
  },
  {
    event: 'card.activity.attached',
    act: async () => {
      await ok('PUT', cardPath(), { activities: [{ id: ids.activity, time: 60 }] });
      return { parent: { id: ids.card, name: 'E1 renamed' }, attached: { id: ids.activity, description: 'Welding' }, pivot: { time: 60 } };
    },
  },
  {
    event: 'card.activity.updated',
    act: async () => {
      await ok('PUT', cardPath(), { activities: [{ id: ids.activity, time: 90 }] });
      return { parent: { id: ids.card }, attached: { id: ids.activity }, pivot: { time: 90 } };
    },
  },
  {
    event: 'card.activity.detached',
    act: async () => {
      await ok('PUT', cardPath(), { activities: [] });
      return { parent: { id: ids.card }, attached: { id: ids.activity }, pivot: { time: 90 } };
    },
  },
  {
    event: 'collection.checklist.created',
    act: async () => {
      ids.checklist = (await ok('POST', collectionPath('/checklist'), { name: 'Before shipping', card_id: ids.card, position: 1 })).id;
      return {
        parent: { id: ids.collection, name: 'Events 2' },
        attached: { id: ids.checklist, name: 'Before shipping', collection_id: ids.collection },
        pivot: { card_id: ids.card, position: 1 },
      };
    },
  },
  {
    event: 'collection.checklist.updated',
    act: async () => {
      await ok('PUT', collectionPath(`/checklist/${ids.checklist}`), { name: 'Before shipping!', position: 2 });
      return {
        parent: { id: ids.collection },
        attached: { id: ids.checklist, name: 'Before shipping!' },
        pivot: { card_id: ids.card, position: 2 },
      };
    },
  },
  {
    event: 'collection.checklist.item.attached',
    act: async () => {
      ids.item = (await ok('POST', collectionPath(`/checklist/${ids.checklist}/item`), { description: 'Weigh', position: 3 })).id;
      return {
        parent: { id: ids.checklist, name: 'Before shipping!' },
        attached: { id: ids.item, description: 'Weigh', checklist_id: ids.checklist },
        pivot: { position: 3, checked: false, checked_at: null },
      };
    },
  },
  {
    event: 'collection.checklist.item.updated',
    act: async () => {
      await ok('PUT', collectionPath(`/checklist/${ids.checklist}/item/${ids.item}`), { checked: true });
      return {
        parent: { id: ids.checklist },
        attached: { id: ids.item, checked: true },
        pivot: { position: 3, checked: true, checked_at: expect.stringMatching(timestamp) },
      };
    },
  },
  {
    event: 'collection.checklist.item.detached',
    act: async () => {
      await ok('DELETE', collectionPath(`/checklist/${ids.checklist}/item/${ids.item}`));
      return { parent: { id: ids.checklist }, attached: { id: ids.item, description: 'Weigh' }, pivot: { position: 3, checked: true } };
    },
  },
  {
    event: 'collection.checklist.deleted',
    act: async () => {
      await ok('DELETE', collectionPath(`/checklist/${ids.checklist}`));
      return {
        parent: { id: ids.collection },
        attached: { id: ids.checklist, name: 'Before shipping!' },
        pivot: { card_id: ids.card, position: 2 },
      };
    },
  },
  {
    event: 'comment.created',
    act: async () => {
      ids.comment = (await ok('POST', collectionPath('/comment'), { text: 'Customer called', card_id: ids.card })).id;
      return { id: ids.comment, collection_id: ids.collection, card_id: ids.card, parent_id: null, text: 'Customer called', user_id: null };
    },
  },
  {
    event: 'comment.updated',
    act: async () => {
      await ok('PUT', collectionPath(`/comment/${ids.comment}`), { text: 'Customer called twice' });
      return { id: ids.comment, text: 'Customer called twice' };
    },
  },
  {
    event: 'comment.deleted',
    act: async () => {
      await ok('DELETE', collectionPath(`/comment/${ids.comment}`));
      return { id: ids.comment, text: 'Customer called twice' };
    },
  },
  {
    event: 'attachment.created',
    act: async () => {
      const body = { filename: 'drawing.pdf', file: 'https://files.example.com/drawing.pdf', type: 'external', card_id: ids.card };
      ids.attachment = (await ok('POST', collectionPath('/attachment'), body)).id;
      return { id: ids.attachment, collection_id: ids.collection, ...body };
    },
  },
  {
    event: 'attachment.updated',
    act: async () => {
      await ok('PUT', collectionPath(`/attachment/${ids.attachment}`), { filename: 'drawing-v2.pdf' });
      return { id: ids.attachment, filename: 'drawing-v2.pdf' };
    },
  },
  {
    event: 'attachment.deleted',
    act: async () => {
      await ok('DELETE', collectionPath(`/attachment/${ids.attachment}`));
      return { id: ids.attachment, filename: 'drawing-v2.pdf' };
    },
  },
  {
    event: 'time_tracking.created',
    act: async () => {
      ids.entry = (
        await ok('POST', '/v1/time_tracking', {
          card_id: ids.card,
          activity_id: ids.activity,
          start: '2026-03-02T08:00:00Z',
          end: '2026-03-02T09:30:00Z',
        })
      ).id;
      return {
        id: ids.entry,
        card_id: ids.card,
        activity_id: ids.activity,
        start: '2026-03-02T08:00:00Z',
        end: '2026-03-02T09:30:00Z',
        duration: 90,
      };
    },
  },
  {
    event: 'time_tracking.updated',
    act: async () => {
      await ok('PUT', `/v1/time_tracking/${ids.entry}`, { end: '2026-03-02T10:00:00Z', note: 'Longer' });
      return { id: ids.entry, end: '2026-03-02T10:00:00Z', duration: 120, note: 'Longer' };
    },
  },
  {
    event: 'time_tracking.deleted',
    act: async () => {
      await ok('DELETE', `/v1/time_tracking/${ids.entry}`);
      return { id: ids.entry, note: 'Longer' };
    },
  },
  {
    event: 'card.deleted',
    act: async () => {
      await ok('DELETE', cardPath());
      return { id: ids.card, name: 'E1 renamed', collection_id: ids.collection };
    },
  },
  {
    event: 'collection.deleted',
    act: async () => {
      await ok('DELETE', collectionPath());
      return { id: ids.collection, name: 'Events 2' };
    },
  },
];

beforeAll(async () => {
  folder = prepareFolder([{ name: 'events', key: 'events-key-123' }]);
  instance = await startInstance(folder.folder, {
    allowPrivateWebhookTargets: true,
    webhookDelivery: { retryBaseMs: 5, retryMaxMs: 40, timeoutMs: 2000 },
  });
  const board = await ok('POST', '/v1/board?with=stages,labels', {
    name: 'Events',
    stages: [{ name: 'Cut' }],
    labels: [{ name: 'Rush' }],
    statuses: [{ name: 'Open', entry: true }],
  });
  ids.board = board.id;
  ids.stage = board.stages[0].id;
  ids.label = board.labels[0].id;
  ids.activity = (await ok('POST', '/v1/activity', { description: 'Welding' })).id;
  ids.resource = (await ok('POST', '/v1/resource', { name: 'Anna', type: 'employee' })).id;
  await ok('POST', '/v1/user', { email: 'watcher@example.com', role: 'member' });
  ids.user = (await ok('GET', `/v1/user?filter=${encodeURIComponent("email:eq:'watcher@example.com'")}`)).data[0].id;
  receiver = await startReceiver();
  hook = await ok('POST', '/v1/webhook', { url: receiver.url, event_types: webhookEventTypes, description: 'every event' });
});

afterAll(async () => {
  await receiver?.close();
  await instance?.stop();
  folder?.remove();
});

function layoutOf(event: WebhookEventType): keyof typeof webhookEventLayouts {
  return (Object.keys(webhookEventLayouts) as (keyof typeof webhookEventLayouts)[]).find((layout) =>
    (webhookEventLayouts[layout] as readonly string[]).includes(event),
  )!;
}

describe('every event type, made through the API', () => {
  it('the table covers each of the 36 event types once', () => {
    expect(steps.map((s) => s.event).sort()).toEqual([...webhookEventTypes].sort());
  });

  it('each change sends its event (once unless said otherwise), signed, with the key fields of its layout', async () => {
    for (const step of steps) {
      await drained();
      const before = receiver.delivered().length;
      const expected = await step.act();
      await drained();
      const caused: ReceivedRequest[] = receiver.delivered().slice(before);
      const ofStep = caused.filter((d) => d.json.event === step.event);
      const what = `${step.event} (this change sent: ${caused.map((d) => d.json.event).join(', ') || 'nothing'})`;
      expect(ofStep, what).toHaveLength(step.times ?? 1);
      const delivery = ofStep.at(-1)!;
      expect(delivery.event, what).toBe(step.event);
      expect(verifyDelivery(hook.secret, delivery.timestamp, delivery.body, delivery.signature), what).toBe(true);
      expect(delivery.json, what).toMatchObject({
        event: step.event,
        environment: { name: 'events' },
        created_at: expect.stringMatching(timestamp),
      });
      expect(delivery.json.data, what).toMatchObject(expected);
      // The layout: the record itself, or {parent, attached} with a pivot only for links with data.
      const keys = Object.keys(delivery.json.data).sort();
      if (layoutOf(step.event) === 'normal') {
        expect(keys, what).toEqual(expect.arrayContaining(['id', 'created_at', 'updated_at']));
        expect(keys, what).not.toContain('parent');
      } else expect(keys, what).toEqual(layoutOf(step.event) === 'pivot' ? ['attached', 'parent', 'pivot'] : ['attached', 'parent']);
      if (step.event.startsWith('collection.follower.')) expect(delivery.json.data.attached, what).not.toHaveProperty('invite_id');
    }
  });
});
