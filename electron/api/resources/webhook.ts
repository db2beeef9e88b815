/**
 * Webhooks (docs/API.md) and their delivery log. Generic CRUD, except that the
 * POST answer is the only one that carries the webhook's `secret`. Beside the generic routes:
 *
 *   GET  /v1/webhook/{webhook_id}/delivery                          the delivery log (list conventions)
 *   GET  /v1/webhook/{webhook_id}/delivery/{id}                     one delivery, with its body
 *   POST /v1/webhook/{webhook_id}/delivery/{id}/redeliver           send it again (a new delivery)
 *
 * Webhooks belong to this instance: they do not sync, and only admins (and API keys) manage
 * them (see api/admin-routes.ts).
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { nowTimestamp } from '../../../shared/ids.js';
import { webhookDeliverySpec, webhookSpec } from '../../../shared/resources/webhook.js';
import { WebhookQueue } from '../../store/webhook-queue.js';
import type { QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { createRecord, findRecord, present, shapeOptionsFor } from '../records.js';
import type { Caller, ResourceModule } from '../resource.js';
import { tables } from '../tables.js';

/** The OAuth client a signed-in user came through (bearer callers carry it). */
function clientIdOf(caller: Caller): string | null {
  const clientId = (caller as Caller & { clientId?: unknown }).clientId;
  return typeof clientId === 'string' ? clientId : null;
}

export const webhookModule: ResourceModule = {
  spec: webhookSpec,
  table: tables.webhook,
  path: '/webhook',
  syncs: false,
  without: ['create'],
  rules: {
    check(ctx, values, current) {
      if (!current) {
        values.api_key_id = ctx.caller.kind === 'api-key' ? (ctx.caller.keyId ?? null) : null;
        values.developer_client_id = clientIdOf(ctx.caller);
        values.third_party = values.developer_client_id !== null;
      }
      // Activating a webhook again clears what failures left behind.
      if (current && values.active === true && current.active !== true) {
        values.fail_streak = 0;
        values.fail_streak_started_at = null;
        values.disabled_until = null;
      }
      return [];
    },
    afterWrite(ctx, record, op, _input, previous) {
      const queue = WebhookQueue.of(ctx.store);
      if (op === 'create') queue.saveSecret(record.id, randomBytes(32).toString('hex'));
      if (previous && previous.active !== record.active) {
        if (record.active) queue.resume(record.id);
        else queue.suspend(record.id);
      }
    },
    afterDelete(ctx, record) {
      WebhookQueue.of(ctx.store).suspend(record.id);
    },
    // Derived, not stored: failures that disable a webhook also switch it off (webhook-queue.ts).
    present(_ctx, records) {
      const now = nowTimestamp();
      for (const record of records) {
        const until = record.disabled_until;
        record.can_send = record.active === true && (typeof until !== 'string' || until <= now);
        record.mailed_warning_at = null;
        record.mailed_disabled_at = null;
      }
    },
  },
  routes: registerWebhookCreate,
};

export const webhookDeliveryModule: ResourceModule = {
  spec: webhookDeliverySpec,
  table: tables.webhook_delivery,
  path: '/webhook/:webhook_id/delivery',
  parents: [{ param: 'webhook_id', field: 'webhook_id', module: () => webhookModule }],
  syncs: false,
  without: ['create', 'update', 'delete'],
  routes: registerRedeliver,
};

function registerWebhookCreate(app: FastifyInstance): void {
  app.post<{ Querystring: QueryString }>(
    '/webhook',
    {
      config: {
        doc: {
          summary: 'Create a Webhook (the answer carries its secret, the only time it is shown)',
          tag: 'Webhook',
          resource: { module: webhookModule, operation: 'create' },
          success: { status: 201, description: 'The created Webhook with its secret' },
        },
      },
    },
    async (request, reply) => {
      const shape = shapeOptionsFor(webhookModule, request.query);
      const record = createRecord(request.ctx, webhookModule, request.body);
      const secret = WebhookQueue.of(request.ctx.store).secretOf(record.id);
      reply.code(201);
      return { ...present(request.ctx, webhookModule, [record], shape)[0], secret };
    },
  );
}

function registerRedeliver(app: FastifyInstance): void {
  app.post<{ Params: { webhook_id: string; id: string } }>(
    '/webhook/:webhook_id/delivery/:id/redeliver',
    {
      config: {
        doc: {
          summary: 'Send a delivery again, as a new delivery behind the queue',
          tag: 'Webhook',
          success: { status: 201, description: 'The new WebhookDelivery' },
        },
      },
    },
    async (request, reply) => {
      const { ctx } = request;
      const original = findRecord(ctx, webhookDeliveryModule, request.params.id, { webhook_id: request.params.webhook_id });
      const id = WebhookQueue.of(ctx.store).redeliver(original.webhook_id as string, original.id);
      if (!id) throw ApiError.notFound('No delivery with that id.');
      request.server.webhooks.wake(ctx.store);
      reply.code(201);
      return present(ctx, webhookDeliveryModule, [ctx.store.get(tables.webhook_delivery, id)!], { with: [], include: [] })[0];
    },
  );
}
