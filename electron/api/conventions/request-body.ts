/**
 * Request bodies: JSON only, read the same way by every route.
 *
 *  - `Content-Type: application/json` with an empty body is "no body" (the public API's
 *    clients send that header on every request, DELETE and bodiless POSTs included);
 *  - any other content type is 415, except the few routes that add their own parser (the
 *    OAuth token form, attachment uploads);
 *  - a body that is JSON but not an object (`null`, `[]`, `"x"`) is 400 where an object is
 *    expected — never read as "empty".
 */
import type { FastifyInstance } from 'fastify';
import { isPlainObject } from '../../../shared/fields.js';
import { ApiError } from '../errors.js';

export function installJsonBodies(app: FastifyInstance): void {
  // Fastify's default parser, kept for its prototype-poisoning protection; only the empty
  // body is answered before it.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    parseJson(request, text, done);
  });
}

/** A body that may be left out (an empty object then); present, it must be a JSON object. */
export function optionalBody(raw: unknown): Record<string, unknown> {
  if (raw === undefined) return {};
  return requiredBody(raw);
}

/** A body that must be a JSON object. */
export function requiredBody(raw: unknown): Record<string, unknown> {
  if (!isPlainObject(raw)) throw ApiError.badRequest('The request body must be a JSON object.');
  return raw;
}
