/**
 * `POST /v1/collection/{cid}/card/{id}/split`: a card split in two (split-card.ts; docs/API.md).
 * Its body is declared in shared/operations/planning.ts and checked by operationRoute.
 */
import type { FastifyInstance } from 'fastify';
import { splitCardOperation } from '../../../shared/operations/planning.js';
import { operationRoute } from '../conventions/operation-route.js';
import { findRecord, present, shapeOptionsFor } from '../records.js';
import { cardModule } from '../resources/card.js';
import { splitCard } from './split-card.js';

export function registerSplitRoutes(app: FastifyInstance): void {
  operationRoute(
    app,
    splitCardOperation,
    async (request, _reply, input) => {
      const shape = shapeOptionsFor(cardModule, request.query);
      const cards = splitCard(request.ctx, request.params.collection_id ?? '', request.params.id ?? '', input);
      return { data: await present(request.ctx, cardModule, cards, shape) };
    },
    // A card that is not under this collection is a 404 before anything in the body is looked at.
    (request) => findRecord(request.ctx, cardModule, request.params.id ?? '', { collection_id: request.params.collection_id ?? '' }),
  );
}
