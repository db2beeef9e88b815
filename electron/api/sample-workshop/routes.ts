/**
 * The sample workshop's routes (docs/API.md "Sample workshop"), for an environment's admins:
 *
 *   GET    /v1/sample_workshop   is it loaded, and how much of it is there
 *   POST   /v1/sample_workshop   load it (409 when it is there already)
 *   DELETE /v1/sample_workshop   remove exactly the sample records (404 when none are there)
 *
 * Loading and removing are each one command: one transaction, one undo step.
 */
import type { FastifyInstance } from 'fastify';
import { asCommandOnRecords } from '../commands/request-command.js';
import { requireAdmin } from '../permissions.js';
import type { RequestContext } from '../resource.js';
import { loadSampleWorkshop, removeSampleWorkshop, sampleWorkshopSummary } from './sample-workshop.js';

const tag = 'Sample workshop';

function asAdmin(ctx: RequestContext): RequestContext {
  requireAdmin(ctx.caller, 'Only an admin of the environment loads or removes the sample workshop.');
  return ctx;
}

export function registerSampleWorkshopRoutes(app: FastifyInstance): void {
  app.get(
    '/sample_workshop',
    { config: { doc: { summary: 'Whether the sample workshop is loaded, with its record counts', tag } } },
    (request) => sampleWorkshopSummary(request.ctx.records),
  );
  app.post(
    '/sample_workshop',
    {
      config: {
        doc: { summary: 'Load the sample workshop', tag, success: { status: 201, description: 'The sample workshop, loaded' } },
      },
    },
    async (request, reply) => {
      const ctx = asAdmin(request.ctx);
      const summary = await asCommandOnRecords(request, reply, 'Load the sample workshop', (tx) => loadSampleWorkshop(ctx, tx));
      return reply.code(201).send(summary);
    },
  );
  app.delete('/sample_workshop', { config: { doc: { summary: 'Remove the sample workshop', tag } } }, async (request, reply) => {
    const ctx = asAdmin(request.ctx);
    return asCommandOnRecords(request, reply, 'Remove the sample workshop', (tx) => removeSampleWorkshop(ctx, tx));
  });
}
