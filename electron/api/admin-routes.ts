/**
 * Routes only an environment's administrators reach: webhooks (with their delivery log) and
 * OAuth clients. API keys administer their environment; a signed-in user needs the `admin`
 * role, anything else gets 403. These records belong to this instance and never sync.
 */
import type { FastifyInstance } from 'fastify';
import type { OAuthState } from '../store/oauth-store.js';
import { registerResource } from './crud.js';
import { ApiError, sendError } from './errors.js';
import { registerClientRoutes } from './oauth/clients.js';
import { isAdmin } from './permissions.js';
import { webhookDeliveryModule, webhookModule } from './resources/webhook.js';
import { registerRedeliver, registerWebhookCreate } from './resources/webhook-routes.js';

export async function adminRoutes(app: FastifyInstance, options: { oauth: OAuthState }): Promise<void> {
  app.addHook('onRequest', async (request, reply) => {
    if (!isAdmin(request.ctx.caller)) {
      return sendError(reply, ApiError.forbidden('Only an admin of the environment manages webhooks and OAuth clients.'));
    }
  });
  registerWebhookCreate(app);
  registerResource(app, webhookModule);
  registerRedeliver(app);
  registerResource(app, webhookDeliveryModule);
  registerClientRoutes(app, options.oauth);
}
