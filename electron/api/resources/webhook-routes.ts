/**
 * Webhook routes beside the generic ones (webhook.ts; docs/API.md): the create that answers
 * with the `secret`, and a delivery sent again. Both run on the asynchronous store, so on
 * either engine.
 */
import type { FastifyInstance } from 'fastify';
import { asCommandOnRecords, describeWrite } from '../commands/request-command.js';
import type { QueryString } from '../conventions/list-query.js';
import { ApiError } from '../errors.js';
import { createRecord, presentOne, presentWritten, readRecord, shapeOptionsFor } from '../records.js';
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
      const answer = await asCommandOnRecords(request, reply, describeWrite('Create', webhookModule.spec.title), async (tx) => {
        const record = await createRecord(request.ctx, tx, webhookModule, request.body);
        const secret = await tx.deliveries.secretOf(record.id);
        return { ...(await presentWritten(request.ctx, tx, webhookModule, record, shape)), secret };
      });
      reply.code(201);
      return answer;
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
      const original = await readRecord(ctx, webhookDeliveryModule, request.params.id, { webhook_id: request.params.webhook_id });
      // A stored delivery's webhook_id is a required uuid column.
      const id = await ctx.records.transaction((tx) => tx.deliveries.redeliver(original.webhook_id as string, original.id));
      if (!id) throw ApiError.notFound('No delivery with that id.');
      request.server.webhooks.wake(ctx.caller.environment.id);
      reply.code(201);
      const delivery = await readRecord(ctx, webhookDeliveryModule, id, { webhook_id: request.params.webhook_id });
      return await presentOne(ctx, webhookDeliveryModule, delivery, { with: [], include: [] });
    },
  );
}
