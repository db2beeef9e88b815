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
import { ApiError } from '../errors.js';
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
    (request) => sampleWorkshopSummary(request.ctx),
  );
  app.post(
    '/sample_workshop',
    {
      config: {
        doc: { summary: 'Load the sample workshop', tag, success: { status: 201, description: 'The sample workshop, loaded' } },
      },
    },
    (request, reply) => {
      const summary = loadSampleWorkshop(asAdmin(request.ctx));
      return reply.code(201).send(summary);
    },
  );
  app.delete('/sample_workshop', { config: { doc: { summary: 'Remove the sample workshop', tag } } }, (request) => {
    const summary = removeSampleWorkshop(asAdmin(request.ctx));
    if (summary.loaded) throw ApiError.conflict('The sample workshop could not be removed whole.');
    return summary;
  });
}
