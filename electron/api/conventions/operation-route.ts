/**
 * A route of an operation declared in shared/operations (docs/architecture.md "Operations"):
 * its path, method and OpenAPI entry come from the declaration, and its body is checked
 * against it before the handler runs — every problem one 422 item with its path, nothing
 * written — so the handler gets a typed input and never parses a body by hand.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { checkBody, jsonSchemaOf, type BodyOf, type Operation, type Shape } from '../../../shared/operation.js';
import { ApiError } from '../errors.js';
import { requiredBody } from './request-body.js';

type ObjectShape = Extract<Shape, { kind: 'object' }>;

export function operationRoute<O extends Operation<ObjectShape | undefined>>(
  app: FastifyInstance,
  operation: O,
  handler: (request: FastifyRequest<{ Params: Record<string, string> }>, reply: FastifyReply, input: BodyOf<O>) => unknown,
): void {
  const body = operation.body;
  app.route<{ Params: Record<string, string> }>({
    method: operation.method,
    url: operation.path,
    config: {
      doc: {
        summary: operation.summary,
        tag: operation.tag,
        ...(body ? { body: jsonSchemaOf(body) } : {}),
        success: { status: 200, description: operation.answer },
      },
    },
    handler: (request, reply) => {
      if (!body) return handler(request, reply, undefined as BodyOf<O>);
      const { value, problems } = checkBody(body, requiredBody(request.body));
      if (problems.length > 0) throw ApiError.unprocessable(problems);
      // checkBody answers the value of the operation's own body shape, which is BodyOf<O>.
      return handler(request, reply, value as BodyOf<O>);
    },
  });
}
