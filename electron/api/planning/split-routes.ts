/** `POST /v1/collection/{cid}/card/{id}/split`: a card split in two (split-card.ts; docs/API.md). */
import type { FastifyInstance } from 'fastify';
import type { QueryString } from '../conventions/list-query.js';
import { requiredBody } from '../conventions/request-body.js';
import { present, shapeOptionsFor } from '../records.js';
import { cardModule } from '../resources/card.js';
import { splitCard, type SplitRequest } from './split-card.js';

export function registerSplitRoutes(app: FastifyInstance): void {
  app.post<{ Params: { collection_id: string; id: string }; Querystring: QueryString }>(
    '/collection/:collection_id/card/:id/split',
    {
      config: {
        doc: {
          summary: 'Split a card in two by a date or a share of its time',
          tag: 'Collection',
          body: {
            type: 'object',
            properties: { date: { type: 'string', format: 'date' }, share: { type: 'number', exclusiveMinimum: 0, exclusiveMaximum: 1 } },
          },
        },
      },
    },
    (request) => {
      const shape = shapeOptionsFor(cardModule, request.query);
      const input: SplitRequest = requiredBody(request.body ?? {});
      const cards = splitCard(request.ctx, request.params.collection_id, request.params.id, input);
      return { data: present(request.ctx, cardModule, cards, shape) };
    },
  );
}
