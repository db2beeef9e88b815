/**
 * The OpenAPI 3.1 document served at /v1/openapi.json, built from the routes that were
 * actually registered and the resource declarations in shared/. Nothing is written twice.
 */
import type { FieldSpec, ResourceSpec } from '../../shared/fields.js';
import { defaultLimit, maxLimit } from '../../shared/list.js';
import type { ResourceModule } from './resource.js';
import { moduleNamed } from './registry.js';
import type { CollectedRoute, RouteDoc } from './route-doc.js';

type Schema = Record<string, unknown>;

export function fieldSchema(field: FieldSpec): Schema {
  const base: Schema = {};
  switch (field.type) {
    case 'uuid':
      Object.assign(base, { type: 'string', format: 'uuid' });
      break;
    case 'date':
      Object.assign(base, { type: 'string', format: 'date' });
      break;
    case 'datetime':
      Object.assign(base, { type: 'string', format: 'date-time' });
      break;
    case 'time':
      Object.assign(base, { type: 'string', pattern: '^\\d{2}:\\d{2}$' });
      break;
    case 'enum':
      Object.assign(base, { type: 'string', enum: field.enum });
      break;
    case 'json':
      Object.assign(base, { type: field.shape === 'array' ? 'array' : 'object' });
      if (field.items) base.items = field.items;
      break;
    default:
      base.type = field.type;
  }
  if (field.maxLength !== undefined) base.maxLength = field.maxLength;
  if (field.pattern) base.pattern = field.pattern;
  if (field.minimum !== undefined) base.minimum = field.minimum;
  if (field.maximum !== undefined) base.maximum = field.maximum;
  if (field.readOnly) base.readOnly = true;
  if (field.writeOnly) base.writeOnly = true;
  if (field.default !== undefined) base.default = field.default;
  if (field.description) base.description = field.description;
  // base.type was set above from the field's type, a string.
  if (field.nullable) base.type = [base.type as string, 'null'];
  return base;
}

/** To-one references a body may send as `{id}` instead of their writable key (write-plan.ts). */
function referenceInputs(module: ResourceModule): [string, Schema][] {
  const out: [string, Schema][] = [];
  for (const [name, relation] of Object.entries(module.relations ?? {})) {
    if (relation.kind !== 'belongsTo') continue;
    const key = module.spec.fields[relation.foreignKey];
    if (!key || key.readOnly) continue;
    out.push([
      name,
      {
        type: key.nullable ? ['object', 'null'] : 'object',
        properties: { id: { type: 'string', format: 'uuid' } },
        required: ['id'],
        description: `The ${moduleNamed(relation.target).spec.title} it names, as ${relation.foreignKey} does (only id is read).`,
      },
    ]);
  }
  return out;
}

/** Every record carries `deleted_at` (records.ts present): not declared, since nobody writes it. */
const deletedAtSchema: Schema = {
  type: ['string', 'null'],
  format: 'date-time',
  readOnly: true,
  description: 'When it was deleted; null on every live record (deleted ones are listed by the trash).',
};

export function recordSchema(spec: ResourceSpec): Schema {
  return {
    type: 'object',
    properties: {
      ...Object.fromEntries(Object.entries(spec.fields).map(([name, f]) => [name, fieldSchema(f)])),
      deleted_at: deletedAtSchema,
    },
    required: Object.entries(spec.fields)
      .filter(([, f]) => f.required)
      .map(([name]) => name),
  };
}

const errorBody: Schema = {
  type: 'object',
  required: ['reference', 'errors'],
  properties: {
    reference: { type: 'string', format: 'uuid' },
    errors: {
      type: 'array',
      items: {
        type: 'object',
        required: ['code', 'message', 'description'],
        properties: {
          code: { type: 'integer' },
          message: { type: 'string' },
          description: { type: 'string' },
          field: { type: 'string' },
        },
      },
    },
  },
};

const queryDocs: Record<string, string> = {
  limit: `Page size, 0-${maxLimit} (default ${defaultLimit}).`,
  offset: 'Records to skip (default 0). Past the end gives an empty page.',
  sort: "field[:asc|desc] separated by commas, on the resource's own fields or a field of a record it belongs to (collection.end).",
  filter:
    "field:[not:]op:value joined by ,and, / ,or, with parentheses; op is eq gt gte lt lte has contains starts_with ends_with; quote values with '.",
  show: 'Properties to return: a,b, relation.prop, relation.*.prop, relation.N.prop, *.',
  hide: 'Properties to leave out, same forms as show.',
  with: 'Relations to embed, comma separated, dotted for nesting (order.order_rows.item).',
};

function queryParameters(names: string[], extra: Record<string, string> = {}) {
  return [
    ...names.map((name) => ({ name, in: 'query', required: false, description: queryDocs[name], schema: { type: 'string' } })),
    ...Object.entries(extra).map(([name, description]) => ({
      name,
      in: 'query',
      required: false,
      description,
      schema: { type: 'string' },
    })),
  ];
}

function errorResponses(codes: number[]) {
  const text: Record<number, string> = {
    400: 'Malformed request or query',
    401: 'Not Logged In',
    404: 'Not Found',
    409: 'Conflict',
    413: 'Payload Too Large',
    422: 'Unprocessable Content (one error per field)',
    429: 'Too Many Requests',
  };
  return Object.fromEntries(
    codes.map((code) => [
      String(code),
      { description: text[code] ?? 'Error', content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } } },
    ]),
  );
}

function operationFor(route: CollectedRoute, path: string) {
  const doc: RouteDoc = route.doc;
  const pathParams = [...path.matchAll(/\{(\w+)\}/g)].map((m) => ({
    name: m[1],
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const op: Schema = { summary: doc.summary, tags: [doc.tag], parameters: [...pathParams] };
  // Set to an array on the line above.
  const params = op.parameters as unknown[];
  const success = doc.success ?? { status: 200, description: 'OK' };
  if (doc.resource) {
    const ref = { $ref: `#/components/schemas/${doc.resource.module.spec.title}` };
    const input = { $ref: `#/components/schemas/${doc.resource.module.spec.title}Input` };
    switch (doc.resource.operation) {
      case 'list':
        params.push(...queryParameters(['limit', 'offset', 'sort', 'filter', 'show', 'hide', 'with'], doc.query));
        op.responses = {
          200: {
            description: 'A page of records',
            content: {
              'application/json': {
                schema: {
                  type: 'object',
                  required: ['count', 'limit', 'offset', 'data'],
                  properties: {
                    count: { type: 'integer', minimum: 0 },
                    limit: { type: 'integer', minimum: 0, maximum: maxLimit },
                    offset: { type: 'integer', minimum: 0 },
                    data: { type: 'array', items: ref },
                  },
                },
              },
            },
          },
          ...errorResponses([400, 401, 404]),
        };
        break;
      case 'get':
        params.push(...queryParameters(['show', 'hide', 'with'], doc.query));
        op.responses = {
          200: { description: 'The record', content: { 'application/json': { schema: ref } } },
          ...errorResponses([400, 401, 404]),
        };
        break;
      case 'create':
      case 'update':
        params.push(...queryParameters(['show', 'hide', 'with'], doc.query));
        op.requestBody = { required: doc.resource.operation === 'create', content: { 'application/json': { schema: input } } };
        op.responses = {
          [success.status]: { description: success.description, content: { 'application/json': { schema: ref } } },
          ...errorResponses([400, 401, 404, 422]),
        };
        break;
      case 'delete':
        op.responses = { 204: { description: success.description }, ...errorResponses([401, 404]) };
        break;
    }
  } else {
    if (doc.query) params.push(...queryParameters([], doc.query));
    if (doc.body) op.requestBody = { required: true, content: { 'application/json': { schema: doc.body } } };
    op.responses = { [success.status]: { description: success.description }, ...errorResponses([400, 401, 422]) };
  }
  return op;
}

export function buildOpenApi(routes: readonly CollectedRoute[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  const schemas: Record<string, Schema> = { Error: errorBody };
  for (const route of routes) {
    const path = route.url.replace(/:(\w+)/g, '{$1}');
    (paths[path] ??= {})[route.method.toLowerCase()] = operationFor(route, path);
    const module = route.doc.resource?.module;
    const spec = module?.spec;
    if (module && spec && !schemas[spec.title]) {
      schemas[spec.title] = recordSchema(spec);
      const inputFields = Object.entries(spec.fields).filter(([, f]) => !f.readOnly);
      schemas[`${spec.title}Input`] = {
        type: 'object',
        properties: Object.fromEntries([
          ...inputFields.map(([name, f]): [string, Schema] => [name, fieldSchema(f)]),
          ...referenceInputs(module),
        ]),
        required: inputFields.filter(([, f]) => f.required).map(([name]) => name),
      };
    }
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Planning API',
      version,
      description:
        'JSON-over-HTTP API for boards, stages, activities, resources, collections, cards, order data, time tracking and webhooks. See docs/API.md for the conventions.',
    },
    servers: [{ url: '/' }],
    security: [{ apiKey: [], apiEnv: [] }, { bearer: [] }],
    paths,
    components: {
      schemas,
      securitySchemes: {
        apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key' },
        apiEnv: { type: 'apiKey', in: 'header', name: 'x-api-env' },
        bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      },
    },
  };
}
