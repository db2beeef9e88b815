/**
 * Webhook routes beside the generic ones (webhook.ts; docs/API.md): the create that answers
 * with the `secret`, and a delivery sent again.
 */
import type { FastifyInstance } from 'fastify';
import { WebhookQueue } from '../../store/webhook-queue.js';
import type { QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { createRecord, findRecord, presentOne, shapeOptionsFor } from '../records.js';
import { tables } from '../tables.js';
import { webhookDeliveryModule, webhookModule } from './webhook.js';

export function registerWebhookCreate(app: FastifyInstance): void {
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
      return { ...(await presentOne(request.ctx, webhookModule, record, shape)), secret };
    },
  );
}

export function registerRedeliver(app: FastifyInstance): void {
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
      // A stored delivery's webhook_id is a required uuid column.
      const id = WebhookQueue.of(ctx.store).redeliver(original.webhook_id as string, original.id);
      if (!id) throw ApiError.notFound('No delivery with that id.');
      request.server.webhooks.wake(ctx.store);
      reply.code(201);
      return await presentOne(ctx, webhookDeliveryModule, ctx.store.get(tables.webhook_delivery, id)!, { with: [], include: [] });
    },
  );
}
