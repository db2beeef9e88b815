/** User routes beside the generic ones (user.ts; docs/API.md): an invitation, and `GET /v1/me`. */
import type { FastifyInstance } from 'fastify';
import { requireAdmin } from '../permissions.js';
import { createRecord, presentOne } from '../records.js';
import { asCommandOnRecords } from '../commands/request-command.js';
import { meEnvironment, meExtras } from './me.js';
import { optionalBody } from '../conventions/request-body.js';
import { tables } from '../tables.js';
import { inviteFields, userModule } from './user.js';

export function registerUserRoutes(app: FastifyInstance): void {
  app.post(
    '/user',
    {
      config: {
        doc: {
          summary: 'Invite a user (201, no body)',
          tag: 'User',
          success: { status: 201, description: 'Invitation recorded' },
          body: {
            type: 'object',
            required: ['email', 'role'],
            properties: {
              email: { type: 'string' },
              role: { type: 'string', enum: ['admin', 'manager', 'organiser', 'member', 'guest'] },
              card_visibility: { type: 'string', enum: ['all'] },
              language: { type: 'string', enum: ['nl', 'de', 'es', 'fr', 'it', 'pl', 'pt', 'en'] },
              resource: { type: ['object', 'null'], properties: { id: { type: 'string', format: 'uuid' } } },
              mobile: { type: 'string' },
            },
          },
        },
      },
    },
    async (request, reply) => {
      // Before the body is read: a member is refused whatever they send.
      requireAdmin(request.ctx.caller, 'Only an admin invites users.');
      const body = optionalBody(request.body);
      const input: Record<string, unknown> = {};
      for (const field of inviteFields) if (body && field in body) input[field] = body[field];
      await asCommandOnRecords(request, reply, 'Invite a user', (tx) => createRecord(request.ctx, tx, userModule, input));
      return reply.code(201).send();
    },
  );

  app.get('/me', { config: { doc: { summary: 'The current authentication', tag: 'User' } } }, async (request) => {
    const { caller } = request.ctx;
    // Every key of the public answer (me.ts); what this server has no counterpart for is empty.
    const environment = meEnvironment(caller.environment);
    if (caller.kind === 'user' && caller.userId) {
      const user = await request.ctx.records.get(tables.user, caller.userId);
      return {
        type: 'user',
        environment,
        user: user ? await presentOne(request.ctx, userModule, user, { with: [], include: [] }) : null,
        ...meExtras(caller),
      };
    }
    // The desktop app's bridge key acts as the app's user (app-user.ts): it says who that is.
    const user = caller.userId ? await request.ctx.records.get(tables.user, caller.userId) : undefined;
    return {
      type: 'api-key',
      environment,
      'api-key': { id: caller.keyId ?? null },
      ...(caller.userId ? { user: user ? await presentOne(request.ctx, userModule, user, { with: [], include: [] }) : null } : {}),
      ...meExtras(caller),
    };
  });
}
