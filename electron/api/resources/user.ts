/**
 * Users are invited, not created (API-REFERENCE.md §4.7): `POST /v1/user` records a pending
 * invitation and answers 201 with no body. Emails are unique among live users, compared
 * without case. `GET /v1/me` tells a caller who it is.
 */
import { isPlainObject } from '../../../shared/fields.js';
import { uuidv7 } from '../../../shared/ids.js';
import { userSpec } from '../../../shared/resources/user.js';
import { tableFor } from '../../store/environment-store.js';
import { ApiError } from '../errors.js';
import { createRecord, present } from '../records.js';
import type { ResourceModule } from '../resource.js';
import { resourceModule } from './resource.js';
import { optionalBody } from '../conventions/request-body.js';

const inviteFields = ['email', 'role', 'card_visibility', 'language', 'mobile', 'firstname', 'infix', 'lastname', 'timezone'];

function fullname(user: Record<string, unknown>): string | null {
  return [user.firstname, user.infix, user.lastname].filter((p) => typeof p === 'string' && p.length > 0).join(' ') || null;
}

export const userModule: ResourceModule = {
  spec: userSpec,
  table: tableFor(userSpec),
  path: '/user',
  without: ['create'],
  relations: { resource: { kind: 'belongsTo', target: () => resourceModule, foreignKey: 'resource_id' } },
  rules: {
    check(ctx, values, current) {
      if (typeof values.email !== 'string') return [];
      values.email = values.email.toLowerCase();
      const taken = ctx.store.list(userModule.table, {
        match: { email: values.email },
        limit: 1,
        offset: 0,
      }).rows.some((u) => u.id !== current?.id);
      return taken ? [{ field: 'email', description: 'A user with this email already exists' }] : [];
    },
    afterWrite(ctx, user, op) {
      const name = fullname(user);
      const changes: Record<string, unknown> = {};
      if (name !== user.fullname) changes.fullname = name;
      if (op === 'create') changes.invite_id = uuidv7();
      if (Object.keys(changes).length > 0) ctx.store.update(userModule.table, user.id, changes);
    },
  },
  routes(app) {
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
                card_visibility: { type: 'string', enum: ['all', 'linked'] },
                language: { type: 'string', enum: ['nl', 'de', 'es', 'fr', 'it', 'pl', 'pt', 'en'] },
                resource: { type: ['object', 'null'], properties: { id: { type: 'string', format: 'uuid' } } },
                mobile: { type: 'string' },
              },
            },
          },
        },
      },
      async (request, reply) => {
        const body = optionalBody(request.body);
        const input: Record<string, unknown> = {};
        for (const field of inviteFields) if (body && field in body) input[field] = body[field];
        const resource = body?.resource;
        if (resource !== undefined && resource !== null) {
          if (!isPlainObject(resource)) throw ApiError.rule('resource', 'resource must be {"id": "<uuid>"} or null');
          input.resource_id = resource.id;
        }
        createRecord(request.ctx, userModule, input);
        return reply.code(201).send();
      },
    );

    app.get('/me', { config: { doc: { summary: 'The current authentication', tag: 'User' } } }, (request) => {
      const { caller } = request.ctx;
      const environment = { id: caller.environment.id, name: caller.environment.name, created_at: caller.environment.created_at };
      if (caller.kind === 'user' && caller.userId) {
        const user = request.ctx.store.get(userModule.table, caller.userId);
        return { type: 'user', environment, user: user ? present(request.ctx, userModule, [user], { with: [], include: [] })[0] : null };
      }
      return { type: 'api-key', environment, 'api-key': { id: caller.keyId ?? null } };
    });
  },
};
