/**
 * Webhooks (docs/API.md) and their delivery log. Generic CRUD, except that the
 * POST answer is the only one that carries the webhook's `secret`. Beside the generic routes
 * (webhook-routes.ts):
 *
 *   GET  /v1/webhook/{webhook_id}/delivery                          the delivery log (list conventions)
 *   GET  /v1/webhook/{webhook_id}/delivery/{id}                     one delivery, with its body
 *   POST /v1/webhook/{webhook_id}/delivery/{id}/redeliver           send it again (a new delivery)
 *
 * Webhooks belong to this instance: they do not sync, and only admins (and API keys) manage
 * them (see api/admin-routes.ts).
 */
import { randomBytes } from 'node:crypto';
import { nowTimestamp } from '../../../shared/ids.js';
import { webhookDeliverySpec, webhookSpec } from '../../../shared/resources/webhook.js';
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
    check(ctx, _tx, values, current) {
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
    async afterWrite(_ctx, tx, record, op, _input, previous) {
      if (op === 'create') await tx.deliveries.saveSecret(record.id, randomBytes(32).toString('hex'));
      if (previous && previous.active !== record.active) {
        if (record.active) await tx.deliveries.resume(record.id);
        else await tx.deliveries.suspend(record.id);
      }
    },
    async afterDelete(_ctx, tx, record) {
      await tx.deliveries.suspend(record.id);
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
};

export const webhookDeliveryModule: ResourceModule = {
  spec: webhookDeliverySpec,
  table: tables.webhook_delivery,
  path: '/webhook/:webhook_id/delivery',
  parents: [{ param: 'webhook_id', field: 'webhook_id', module: () => webhookModule }],
  syncs: false,
  without: ['create', 'update', 'delete'],
};
