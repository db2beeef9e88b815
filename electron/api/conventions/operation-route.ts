/**
 * A route of an operation declared in shared/operations (docs/architecture.md "Operations"):
 * its path, method and OpenAPI entry come from the declaration, and its body is checked
 * against it before the handler runs — every problem one 422 item with its path, nothing
 * written — so the handler gets a typed input and never parses a body by hand.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { FieldProblem } from '../../../shared/errors.js';
import { checkBody, jsonSchemaOf, type BodyOf, type Operation, type Shape } from '../../../shared/operation.js';
import { ApiError } from '../errors.js';
import type { QueryString } from './list-query.js';
import { optionalBody, requiredBody } from './request-body.js';

type ObjectShape = Extract<Shape, { kind: 'object' }>;

/** A body's problems, one item each: 422, or 400 where the operation's protocol says so (the sync push). */
function refusal(operation: Operation, problems: FieldProblem[]): ApiError {
  const refused = ApiError.unprocessable(problems);
  return operation.malformedStatus === 400 ? new ApiError('badRequest', refused.items) : refused;
}
type Request = FastifyRequest<{ Params: Record<string, string>; Querystring: QueryString }>;

/** A body as far as it passed its shape: a field or list item with a problem is left undefined. */
export type Partly<T> = T extends readonly (infer E)[]
  ? (Partly<E> | undefined)[]
  : T extends object
    ? { [K in keyof T]?: Partly<T[K]> }
    : T;

export function operationRoute<O extends Operation<ObjectShape | undefined>>(
  app: FastifyInstance,
  operation: O,
  handler: (request: Request, reply: FastifyReply, input: BodyOf<O>) => unknown,
  /** Runs before the body is read: a refusal that does not depend on the body (a role, a 404) comes first. */
  guard?: (request: Request) => unknown,
  /**
   * The checks that need the store (an id of this board's stages), run on the body as far as it
   * passed its shape, so one 422 names every problem of the request at once.
   */
  check?: (request: Request, input: Partly<BodyOf<O>>) => FieldProblem[] | Promise<FieldProblem[]>,
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
      const guarded = guard?.(request);
      const proceed = () => {
        if (operation.status) reply.code(operation.status);
        // An operation without a body declares none: its BodyOf is undefined.
        if (!body) return handler(request, reply, undefined as BodyOf<O>);
        const { value, problems } = checkBody(body, readBody(request.body));
        const decide = (found: FieldProblem[]) => {
          problems.push(...found);
          if (problems.length > 0) throw refusal(operation, problems);
          // checkBody answers the value of the operation's own body shape, which is BodyOf<O>.
          return handler(request, reply, value as BodyOf<O>);
        };
        // The checked value is the body's shape with its faulty parts left out: Partly of it.
        const found = check ? check(request, value as Partly<BodyOf<O>>) : [];
        return found instanceof Promise ? found.then(decide) : decide(found);
      };
      return guarded instanceof Promise ? guarded.then(proceed) : proceed();
    },
  });
}
