/**
 * A route of an operation declared in shared/operations (docs/architecture.md "Operations"):
 * its path, method and OpenAPI entry come from the declaration, and its body is checked
 * against it before the handler runs — every problem one 422 item with its path, nothing
 * written — so the handler gets a typed input and never parses a body by hand.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkBody, jsonSchemaOf, type BodyOf, type Operation, type Shape } from '../../../shared/operation.js';
import { ApiError } from '../errors.js';
import type { QueryString } from './list-query.js';
import { optionalBody, requiredBody } from './request-body.js';

type ObjectShape = Extract<Shape, { kind: 'object' }>;

export function operationRoute<O extends Operation<ObjectShape | undefined>>(
  app: FastifyInstance,
  operation: O,
  handler: (
    request: FastifyRequest<{ Params: Record<string, string>; Querystring: QueryString }>,
    reply: FastifyReply,
    input: BodyOf<O>,
  ) => unknown,
  /** Runs before the body is read: a refusal that does not depend on the body (a role) comes first. */
  guard?: (request: FastifyRequest) => void,
): void {
  const body = operation.body;
  // A body whose every field may be left out may itself be left out.
  const readBody = body && Object.values(body.fields).every((field) => field.optional) ? optionalBody : requiredBody;
  app.route<{ Params: Record<string, string>; Querystring: QueryString }>({
    method: operation.method,
    url: operation.path,
    config: {
      doc: {
        summary: operation.summary,
        tag: operation.tag,
        ...(body ? { body: jsonSchemaOf(body) } : {}),
        ...(operation.query ? { query: { ...operation.query } } : {}),
        success: { status: operation.status ?? 200, description: operation.answer },
      },
    },
    handler: (request, reply) => {
      guard?.(request);
      if (operation.status) reply.code(operation.status);
      if (!body) return handler(request, reply, undefined as BodyOf<O>);
      const { value, problems } = checkBody(body, readBody(request.body));
      if (problems.length > 0) throw ApiError.unprocessable(problems);
      // checkBody answers the value of the operation's own body shape, which is BodyOf<O>.
      return handler(request, reply, value as BodyOf<O>);
    },
  });
}
