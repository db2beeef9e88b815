/**
 * One custom field of a collection by name (docs/API.md):
 *
 *   PUT    /v1/collection/{id}/custom_field/{name}    set one custom field value by name
 *   DELETE /v1/collection/{id}/custom_field/{name}    remove it
 */
import type { FastifyInstance } from 'fastify';
import { checkCustomFieldValues, customFieldValueSchema, type CustomFieldValue } from '../../../shared/custom-fields.js';
import { isPlainObject } from '../../../shared/fields.js';
import type { QueryString } from '../conventions/list-query.js';
import { optionalBody } from '../conventions/request-body.js';
import { ApiError } from '../errors.js';
import { asCommandOnRecords } from '../commands/request-command.js';
import { findRecord, presentWritten, shapeOptionsFor } from '../records.js';
import { tables } from '../tables.js';
import { collectionModule } from './collection.js';

/** The body of the by-name route: one value without its name (that is in the path). */
const customFieldBody = {
  type: 'object',
  properties: Object.fromEntries(
    Object.entries(customFieldValueSchema.properties).filter(([key]) => !['id', 'name', 'created_at', 'updated_at'].includes(key)),
  ),
};

const setSummary = 'Set one custom field of a collection by name';
const removeSummary = 'Remove one custom field of a collection by name';

/** Each a command in an asynchronous transaction, so on either engine. */
export function registerCustomFieldRoutes(app: FastifyInstance): void {
  app.put<{ Params: { id: string; name: string }; Querystring: QueryString }>(
    '/collection/:id/custom_field/:name',
    { config: { doc: { summary: setSummary, tag: 'Collection', body: customFieldBody } } },
    async (request, reply) => {
      const body = optionalBody(request.body);
      const shape = shapeOptionsFor(collectionModule, request.query);
      const { name } = request.params;
      const answer = await asCommandOnRecords(request, reply, setSummary, async (tx) => {
        const collection = await findRecord(tx, collectionModule, request.params.id);
        // findRecord answers the broad stored record; custom_fields is a json array column.
        const stored = collection.custom_fields as unknown[];
        // Checked exactly as an inline write of the list with this one item sent
        // (shared/custom-fields.ts); problems are named as the body's own fields.
        const found = stored.findIndex((f) => isPlainObject(f) && f.name === name);
        const index = found >= 0 ? found : stored.length;
        const sent = [...stored];
        sent[index] = { ...body, name };
        const { value, problems } = checkCustomFieldValues(sent, { scope: 'collection', previous: stored });
        const own = `${index}.`;
        const strip = (text: string) => (text.startsWith(own) ? text.slice(own.length) : text);
        if (problems.length > 0)
          throw ApiError.unprocessable(problems.map((p) => ({ field: strip(p.field), description: strip(p.description) })));
        return presentWritten(
          request.ctx,
          tx,
          collectionModule,
          (await tx.update(tables.collection, collection.id, { custom_fields: value }))!,
          shape,
        );
      });
      return answer;
    },
  );
  app.delete<{ Params: { id: string; name: string } }>(
    '/collection/:id/custom_field/:name',
    {
      config: {
        doc: { summary: removeSummary, tag: 'Collection', success: { status: 204, description: 'Removed' } },
      },
    },
    async (request, reply) => {
      await asCommandOnRecords(request, reply, removeSummary, async (tx) => {
        const collection = await findRecord(tx, collectionModule, request.params.id);
        // A stored collection's custom_fields: the values its refine check kept (shared/custom-fields.ts).
        const fields = collection.custom_fields as CustomFieldValue[];
        const named = (f: unknown) => isPlainObject(f) && f.name === request.params.name;
        if (!fields.some(named)) throw ApiError.notFound('The collection has no custom field with that name.');
        await tx.update(tables.collection, collection.id, { custom_fields: fields.filter((f) => !named(f)) });
      });
      return reply.code(204).send();
    },
  );
}
