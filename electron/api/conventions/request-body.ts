/**
 * Request bodies: JSON only, read the same way by every route.
 *
 *  - `Content-Type: application/json` with an empty body is "no body" (the public API's
 *    clients send that header on every request, DELETE and bodiless POSTs included);
 *  - any other content type is 415, except the few routes that add their own parser (the
 *    OAuth token form, attachment uploads);
 *  - a body that is JSON but not an object (`null`, `[]`, `"x"`) is 400 where an object is
 *    expected — never read as "empty";
 *  - objects and arrays nested deeper than `maxJsonDepth` are 400, wherever they sit (an
 *    ignored field too): storing or copying such a value overflows the stack;
 *  - a string (or key) holding an unpaired UTF-16 surrogate is 422 naming the field: it has
 *    no UTF-8 form and would be stored as bytes that read back as U+FFFD. A sync push is the
 *    exception: there the one mutation is refused, not the batch (apply-mutation.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { isPlainObject, loneSurrogatePath, loneSurrogateProblem } from '../../../shared/fields.js';
import { ApiError } from '../errors.js';

/** Deepest nesting of objects and arrays a JSON body may have (docs/API.md "Errors"). */
export const maxJsonDepth = 64;

/** Routes that answer lone surrogates item by item themselves. */
const checksOwnStrings = new Set(['/v1/sync/push']);

export function installJsonBodies(app: FastifyInstance): void {
  // Fastify's default parser, kept for its prototype-poisoning protection; the empty body and
  // the depth are answered before it, the surrogates after.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    const tooDeep = depthProblem(text);
    if (tooDeep) return done(tooDeep, undefined);
    // Fastify's parser answers through the callback (its type also allows a promise, which it never returns).
    void parseJson(request, text, (error, parsed) => {
      if (error) return done(error, undefined);
      done(surrogateEscape.test(text) ? (surrogateProblem(request, parsed) ?? null) : null, parsed);
    });
  });
}

/**
 * Fastify's JSON parser behind the depth check only, for a host that keeps Fastify's other body
 * rules and passes bodies on to the API, which checks their text (the browser host's bridge).
 */
export function installDepthCheckedJson(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    const tooDeep = depthProblem(text);
    if (tooDeep) return done(tooDeep, undefined);
    void parseJson(request, text, done);
  });
}

/**
 * 400 for JSON text nested deeper than `maxJsonDepth`. Read as text, so any depth is safe to
 * measure; strings are skipped with indexOf, so a body of long texts costs little.
 */
export function depthProblem(text: string): ApiError | undefined {
  const structural = /[{}[\]"]/g;
  let depth = 0;
  for (let match = structural.exec(text); match !== null; match = structural.exec(text)) {
    const c = text.charCodeAt(match.index);
    if (c === 0x22 /* " */) {
      // The string ends at the next quote not escaped by an odd run of backslashes.
      let end = match.index;
      for (;;) {
        end = text.indexOf('"', end + 1);
        if (end < 0) return undefined; // unterminated: the JSON parser refuses it
        let backslashes = 0;
        while (text.charCodeAt(end - 1 - backslashes) === 0x5c /* \ */) backslashes++;
        if (backslashes % 2 === 0) break;
      }
      structural.lastIndex = end + 1;
    } else if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      if (++depth > maxJsonDepth)
        return ApiError.badRequest(`The request body nests objects and arrays more than ${maxJsonDepth} levels deep.`);
    } else {
      depth--;
    }
  }
  return undefined;
}

// Text decoded from UTF-8 holds no lone surrogate: one can only come from a `\uD800`-style
// escape, so bodies without such an escape need no walk.
const surrogateEscape = /\\u[dD][89a-fA-F]/;

function surrogateProblem(request: FastifyRequest, parsed: unknown): ApiError | undefined {
  if (checksOwnStrings.has(request.routeOptions.url ?? '')) return undefined;
  const field = loneSurrogatePath(parsed);
  if (field === undefined) return undefined;
  return ApiError.rule(field || 'body', `${field || 'The body'} ${loneSurrogateProblem}`);
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
