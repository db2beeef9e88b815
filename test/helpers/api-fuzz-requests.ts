/**
 * Requests for the API fuzz test, generated with fast-check from the OpenAPI document a real
 * instance serves (GET /v1/openapi.json): every documented route, with path parameters that
 * name existing records, unknown uuids or garbage; its documented query parameters with valid
 * and broken grammar (filter, sort, show, hide, with, limit, offset, cursors, dates) plus
 * unknown ones; and bodies built from the route's schema with wrong types, missing and extra
 * fields, odd strings (lone surrogates, NUL, huge, right-to-left), huge numbers (also `1e400`,
 * which JSON reads as Infinity), deep nesting, bodies that are not objects or not JSON, and
 * other content types. Generation is pure: the runner (api-fuzz.ts) sends and judges.
 */
import fc from 'fast-check';
import { formatHlc } from '../../shared/hlc.js';
import { nowMs } from '../../shared/clock.js';

// ------------------------------------------------------------------------------ the document

type Schema = Record<string, any>;

export interface FuzzRoute {
  method: string;
  /** The documented path, `/v1/collection/{collection_id}/card/{id}`. */
  template: string;
  params: string[];
  query: string[];
  body?: Schema;
  /** Property names of the records it answers with (for sort, filter, show, hide). */
  fields: string[];
}

export interface FuzzRequest {
  route: string;
  method: string;
  /** Path and query, already encoded (possibly badly, on purpose). */
  url: string;
  headers: Record<string, string>;
  body?: string | Buffer;
}

/** Values known to exist on the instance, found by the runner before generating. */
export interface KnownValues {
  /** Per route template: complete path parameter assignments that name existing records. */
  assignments: Map<string, Record<string, string>[]>;
  /** Every id seen, for `*_id` fields and query parameters. */
  ids: string[];
}

export function routesOf(document: Schema): FuzzRoute[] {
  const routes: FuzzRoute[] = [];
  for (const [template, methods] of Object.entries<Record<string, Schema>>(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = (operation.parameters ?? []) as { name: string; in: string }[];
      const bodySchema = operation.requestBody?.content?.['application/json']?.schema;
      routes.push({
        method: method.toUpperCase(),
        template,
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
        ...(bodySchema ? { body: resolve(document, bodySchema) } : {}),
        fields: recordFields(document, operation),
      });
    }
  }
  return routes;
}

function resolve(document: Schema, schema: Schema | undefined, depth = 0): Schema {
  if (!schema || depth > 6) return {};
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.split('/').pop()!;
    return resolve(document, document.components?.schemas?.[name], depth + 1);
  }
  const out: Schema = { ...schema };
  if (schema.properties)
    out.properties = Object.fromEntries(Object.entries<Schema>(schema.properties).map(([k, v]) => [k, resolve(document, v, depth + 1)]));
  if (schema.items) out.items = resolve(document, schema.items, depth + 1);
  return out;
}

function recordFields(document: Schema, operation: Schema): string[] {
  const answer = resolve(
    document,
    operation.responses?.['200']?.content?.['application/json']?.schema ??
      operation.responses?.['201']?.content?.['application/json']?.schema,
  );
  const record = answer.properties?.data?.items ?? answer;
  const names = Object.keys(record.properties ?? {});
  return names.length > 0 ? names : ['id', 'name', 'created_at'];
}

/** The value in `percent` of the cases, otherwise undefined. */
function sometimes<T>(arbitrary: fc.Arbitrary<T>, percent: number): fc.Arbitrary<T | undefined> {
  return fc.oneof({ weight: 100 - percent, arbitrary: fc.constant(undefined) }, { weight: percent, arbitrary });
}

// ------------------------------------------------------------------------------ odd values

/** JSON text written as is: numbers JSON.stringify cannot produce, deep nesting. */
class RawJson {
  constructor(readonly text: string) {}
}

function jsonText(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(jsonText).join(',')}]`;
  if (value && typeof value === 'object')
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${jsonText(v)}`)
      .join(',')}}`;
  return JSON.stringify(value) ?? 'null';
}

const nested = (depth: number) => new RawJson('{"a":'.repeat(depth) + '[1]' + '}'.repeat(depth));

const oddConstants = [
  '',
  ' ',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udc00y',
  '\ud83d',
  'ok\ud83d\ude00',
  '💥\u202eevil',
  '\ufeff',
  '\r\n',
  'null',
  'undefined',
  'true',
  '0',
  '-0',
  'NaN',
  'Infinity',
  '1e400',
  '__proto__',
  'constructor',
  'toString',
  'hasOwnProperty',
  "' OR 1=1 --",
  '"',
  '\\',
  '%',
  '%00',
  '%E0%A4%A',
  '../../etc/passwd',
  '..\\..\\x',
  '<script>alert(1)</script>',
  '2026-02-30',
  '2024-02-29',
  '0000-00-00',
  '9999-12-31',
  '+275760-09-13T00:00:00Z',
  '2026-03-01T25:61:00Z',
  '24:00',
  '99:99',
  'http://127.0.0.1:9/hook',
  'javascript:alert(1)',
  '01A21685-6085-7000-83A5-76132D2AB36A',
  '00000000-0000-0000-0000-000000000000',
  'Europe/Amsterdam',
  'Mars/Olympus',
];

export const oddString: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...oddConstants) },
  { weight: 3, arbitrary: fc.string({ maxLength: 30, unit: 'binary' }) },
  {
    weight: 2,
    arbitrary: fc.tuple(fc.string({ maxLength: 10 }), fc.constantFrom('\ud800', '\udbff', '\udc00', '\udfff')).map(([s, lone]) => s + lone),
  },
  { weight: 1, arbitrary: fc.constantFrom(150, 151, 256, 5_000, 70_000, 300_000).map((n) => 'x'.repeat(n)) },
);

const oddNumber: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(0, -0, -1, 0.5, 1.5, 2 ** 31, 2 ** 53, 2 ** 53 + 2, -(2 ** 53), 1e308, -1e308, 5e-324, Number.MAX_VALUE),
  fc.constantFrom('1e400', '-1e400', '1E999999', '123456789012345678901234567890', '-0.0', '0.1e-999').map((text) => new RawJson(text)),
  fc.integer(),
  fc.double({ noNaN: true }),
);

const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 4, arbitrary: oddString },
  { weight: 3, arbitrary: oddNumber },
  { weight: 1, arbitrary: fc.boolean() },
  { weight: 2, arbitrary: fc.constantFrom(null, [], {}, [null], { id: null }, ['\ud800'], { '\ud800': 1 }) },
  { weight: 1, arbitrary: fc.constantFrom(5, 63, 70, 1_000, 5_000, 100_000).map(nested) },
);

// ------------------------------------------------------------------------------ bodies

function knownOr(known: KnownValues, fallback: fc.Arbitrary<string>): fc.Arbitrary<string> {
  return known.ids.length > 0 ? fc.oneof(fc.constantFrom(...known.ids), fallback) : fallback;
}

const dates = fc.oneof(
  fc.date({ min: new Date('2000-01-01'), max: new Date('2040-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom('2026-02-30', '0001-01-01', '9999-12-31', '2026-13-01', '26-1-1'),
);

/** A value that fits the schema's type most of the time (so rules past validation run too). */
function plausible(schema: Schema, known: KnownValues, depth: number): fc.Arbitrary<unknown> {
  const types = ([] as string[]).concat(schema.type ?? []);
  const type = types.find((t) => t !== 'null') ?? (schema.properties ? 'object' : undefined);
  const nullable = types.includes('null') ? [fc.constant(null)] : [];
  if (schema.enum) return fc.oneof(fc.constantFrom(...(schema.enum as unknown[])), ...nullable);
  switch (type) {
    case 'string': {
      if (schema.format === 'uuid') return fc.oneof(knownOr(known, fc.uuid()), fc.uuid(), ...nullable);
      if (schema.format === 'date') return fc.oneof(dates, ...nullable);
      if (schema.format === 'date-time')
        return fc.oneof(
          dates.map((d) => `${d}T08:30:00Z`),
          fc.constantFrom('2026-03-01T10:00:00+02:00', '2026-03-01 10:00'),
          ...nullable,
        );
      return fc.oneof(
        fc.string({ maxLength: Math.min(schema.maxLength ?? 40, 40) }),
        fc.constantFrom('Fuzz', 'fuzz@example.com', 'http://127.0.0.1:9/hook', '08:00'),
        ...nullable,
      );
    }
    case 'integer':
      return fc.oneof(fc.integer({ min: schema.minimum ?? -5, max: Math.min(schema.maximum ?? 1000, 1000) }), ...nullable);
    case 'number':
      return fc.oneof(fc.double({ min: schema.minimum ?? -5, max: Math.min(schema.maximum ?? 1000, 1000), noNaN: true }), ...nullable);
    case 'boolean':
      return fc.oneof(fc.boolean(), ...nullable);
    case 'array':
      return depth > 3
        ? fc.constant([])
        : fc.oneof(fc.array(valueFor(schema.items ?? {}, known, depth + 1), { maxLength: 3 }), ...nullable);
    case 'object':
      return depth > 3 ? fc.constant({}) : fc.oneof(objectFor(schema, known, depth + 1), ...nullable);
    default:
      return oddValue;
  }
}

function valueFor(schema: Schema, known: KnownValues, depth: number): fc.Arbitrary<unknown> {
  return fc.oneof({ weight: 4, arbitrary: plausible(schema, known, depth) }, { weight: 1, arbitrary: oddValue });
}

/** Some of the schema's properties (required ones sometimes missing), plus unknown keys. */
function objectFor(schema: Schema, known: KnownValues, depth: number): fc.Arbitrary<Record<string, unknown>> {
  const properties = Object.entries<Schema>(schema.properties ?? {}).filter(([, s]) => !s.readOnly);
  const required = new Set<string>(schema.required ?? []);
  const picked = properties.map(([name, s]) =>
    sometimes(
      valueFor(s, known, depth).map((v) => [name, v] as const),
      required.has(name) ? 90 : 40,
    ),
  );
  const extra = fc.dictionary(
    fc.oneof(fc.constantFrom('id', 'created_at', 'deleted_at', 'constructor', 'toString', '\ud800', ''), fc.string({ maxLength: 8 })),
    oddValue,
    { maxKeys: 2 },
  );
  return fc.tuple(fc.tuple(...picked), sometimes(extra, 25)).map(([pairs, more]) => ({
    ...Object.fromEntries(pairs.filter((p) => p !== undefined)),
    ...(more ?? {}),
  }));
}

const resourceNames = [
  'project',
  'board',
  'stage',
  'activity',
  'resource',
  'collection',
  'card',
  'order',
  'order_row',
  'item',
  'relation',
  'user',
  'time_tracking',
  'webhook',
  'attachment',
  'comment',
  'label',
  'nope',
  '__proto__',
];

/** A sync push: well-formed mostly, with mutations built from odd fields. */
function pushBody(known: KnownValues): fc.Arbitrary<unknown> {
  const now = nowMs();
  const hlc = fc.oneof(
    fc.integer({ min: now - 86_400_000, max: now + 86_400_000 }).map((ms) => formatHlc({ millis: ms, counter: 0, node: 'fuzz-node' })),
    oddString,
  );
  const mutation = fc.record({
    mutation_id: fc.oneof(fc.integer({ min: 1, max: 50 }), oddNumber),
    resource: fc.constantFrom(...resourceNames),
    id: fc.oneof(knownOr(known, fc.uuid()), fc.uuid(), oddString),
    op: fc.constantFrom('create', 'update', 'delete', 'upsert'),
    fields: fc.oneof(
      fc.dictionary(
        fc.constantFrom('name', 'board_id', 'collection_id', 'deleted_at', 'email', 'role', 'start', 'quantity', 'custom_fields', 'x'),
        oddValue,
        { maxKeys: 4 },
      ),
      fc.constant(null),
      oddValue,
    ),
    hlc,
  });
  return fc.record({
    client_id: fc.oneof(fc.constantFrom('fuzz-replica', 'fuzz.2'), oddString),
    mutations: fc.oneof(fc.array(mutation, { maxLength: 4 }), oddValue),
  });
}

function multipartBody(): fc.Arbitrary<{ type: string; body: Buffer }> {
  return fc
    .record({
      fieldName: fc.constantFrom('file', 'file', 'other'),
      filename: fc.oneof(
        fc.constantFrom('note.txt', '../../x.txt', ''),
        oddString.map((s) => s.slice(0, 200)),
      ),
      content: fc.uint8Array({ maxLength: 2000 }),
      extra: fc.option(
        fc.tuple(
          fc.constantFrom('card_id', 'filename', 'x'),
          oddString.map((s) => s.slice(0, 200)),
        ),
        { nil: undefined },
      ),
      broken: fc.boolean(),
    })
    .map(({ fieldName, filename, content, extra, broken }) => {
      const boundary = 'fuzzboundary';
      const parts: Buffer[] = [];
      if (extra) parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${extra[0]}"\r\n\r\n${extra[1]}\r\n`));
      parts.push(
        Buffer.from(
          `--${boundary}\r\nContent-Disposition: form-data; name="${fieldName}"; filename="${filename.replace(/["\r\n]/g, '_')}"\r\nContent-Type: text/plain\r\n\r\n`,
        ),
      );
      parts.push(Buffer.from(content), Buffer.from(broken ? '\r\n--' : `\r\n--${boundary}--\r\n`));
      return { type: `multipart/form-data; boundary=${boundary}`, body: Buffer.concat(parts) };
    });
}

type Body = { type?: string; body?: string | Buffer };

function bodyFor(route: FuzzRoute, known: KnownValues): fc.Arbitrary<Body> {
  const json = (value: fc.Arbitrary<unknown>) => value.map((v): Body => ({ type: 'application/json', body: jsonText(v) }));
  const broken = fc.oneof(
    fc
      .constantFrom(
        'null',
        '[]',
        '"x"',
        '1',
        '{',
        '{"a":}',
        '{"a":1}}',
        '{"__proto__":{"x":1}}',
        '{"constructor":{"prototype":{"x":1}}}',
        '\u0000',
      )
      .map((b): Body => ({ type: 'application/json', body: b })),
    fc
      .constantFrom(
        'text/plain',
        'application/x-www-form-urlencoded',
        'application/xml',
        'application/json; charset=latin1',
        'application/octet-stream',
      )
      .map((type): Body => ({ type, body: 'name=x&a=%ZZ' })),
    fc.constant<Body>({ type: 'application/json', body: '' }),
    fc.constant<Body>({ body: '{"name":"no content type"}' }),
    json(fc.constantFrom(65, 5_000, 100_000).map((d) => ({ name: 'deep', meta: nested(d) }))),
  );
  if (route.template.endsWith('/attachment/upload')) {
    return fc.oneof({ weight: 4, arbitrary: multipartBody().map((m): Body => m) }, { weight: 1, arbitrary: broken });
  }
  const shaped =
    route.template === '/v1/sync/push'
      ? pushBody(known)
      : route.body
        ? objectFor(route.body, known, 0)
        : fc.dictionary(fc.string({ maxLength: 8 }), oddValue, { maxKeys: 3 });
  const withBody = route.method === 'POST' || route.method === 'PUT' || route.method === 'PATCH';
  return fc.oneof(
    { weight: withBody ? 8 : 1, arbitrary: json(shaped) },
    { weight: withBody ? 2 : 6, arbitrary: fc.constant<Body>({}) },
    { weight: 2, arbitrary: broken },
    { weight: 1, arbitrary: multipartBody().map((m): Body => m) },
  );
}

// ------------------------------------------------------------------------------ URLs

/** encodeURIComponent, except that a lone surrogate goes out as its (invalid) UTF-8 bytes. */
export function encodeText(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    const next = text.charCodeAt(i + 1);
    if (c >= 0xd800 && c <= 0xdbff && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      out += `%ED%${(0xa0 | ((c >> 6) & 0x0f)).toString(16).toUpperCase()}%${(0x80 | (c & 0x3f)).toString(16).toUpperCase()}`;
    } else {
      out += encodeURIComponent(text[i]!);
    }
  }
  return out;
}

const rawSegments = [
  '%E0%A4%A',
  '%zz',
  '%',
  '%00',
  '%2e%2e',
  '..',
  '%C0%AF',
  'a'.repeat(201),
  encodeURIComponent('🚀'.repeat(100)),
  'a'.repeat(5000),
];

function paramValue(name: string, known: KnownValues): fc.Arbitrary<string> {
  const special: Record<string, string[]> = {
    year: ['2026', '2025', '1999', '0', '-1', '99999', '20260'],
    month: ['1', '3', '12', '0', '13', '02', '-1'],
    day: ['1', '15', '31', '0', '32', '30'],
    resource: resourceNames,
    name: ['Weight', 'Colour', 'Note', ''],
  };
  return fc.oneof(
    { weight: 3, arbitrary: special[name] ? fc.constantFrom(...special[name]!) : knownOr(known, fc.uuid()) },
    { weight: 2, arbitrary: fc.uuid() },
    { weight: 2, arbitrary: oddString.map((s) => encodeText(s.slice(0, 300))) },
    { weight: 1, arbitrary: fc.constantFrom(...rawSegments) },
  );
}

function pathFor(route: FuzzRoute, known: KnownValues): fc.Arbitrary<string> {
  const fill = (values: Record<string, string>) => route.template.replace(/\{(\w+)\}/g, (_m, name: string) => values[name] ?? 'x');
  if (route.params.length === 0) return fc.constant(route.template);
  const random = fc
    .tuple(...route.params.map((p) => paramValue(p, known)))
    .map((values) => fill(Object.fromEntries(route.params.map((p, i) => [p, values[i]!]))));
  const existing = known.assignments.get(route.template) ?? [];
  if (existing.length === 0) return random;
  // Mostly records that exist, so the handlers behind the lookups run; sometimes one part broken.
  const valid = fc.constantFrom(...existing);
  const oneBroken = fc
    .tuple(valid, fc.constantFrom(...route.params), paramValue('id', known))
    .map(([values, param, value]) => ({ ...values, [param]: value }));
  return fc.oneof(
    { weight: 5, arbitrary: valid.map(fill) },
    { weight: 2, arbitrary: oneBroken.map(fill) },
    { weight: 2, arbitrary: random },
  );
}

const relations = [
  'collection',
  'cards',
  'board',
  'stage',
  'stages',
  'status',
  'order',
  'order_rows',
  'item',
  'labels',
  'resources',
  'activities',
  'user',
  'time',
  'project',
  'checklists',
  'items',
  'comments',
  'attachments',
  'relation',
  'schedules',
  'boards',
  'nope',
  '__proto__',
  'constructor',
];

function fieldList(fields: string[], withRelations: boolean): fc.Arbitrary<string> {
  const one = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fields) },
    {
      weight: withRelations ? 2 : 0,
      arbitrary: fc
        .tuple(fc.constantFrom(...relations), fc.constantFrom('', '*', '0', '12', '999999999999'), fc.constantFrom(...fields))
        .map(([r, m, f]) => [r, m, f].filter(Boolean).join('.')),
    },
    { weight: 1, arbitrary: oddString.map((s) => s.slice(0, 50)) },
    { weight: 1, arbitrary: fc.constantFrom('*', '', '.', 'a..b', '*.*.*', '__proto__.x') },
  );
  return fc.array(one, { minLength: 1, maxLength: 4 }).map((parts) => parts.join(','));
}

function filterFor(fields: string[]): fc.Arbitrary<string> {
  const operator = fc.constantFrom('eq', 'gt', 'gte', 'lt', 'lte', 'has', 'contains', 'starts_with', 'ends_with', 'like', '');
  const value = fc.oneof(
    fc.constantFrom('x', 'null', "'a,b:c)'", "'", '1', '-1.5', '1e400', '2026-03-01', '2026-02-30', 'true', '*', ''),
    fc.uuid(),
    oddString.map((s) => s.slice(0, 40)),
  );
  const field = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...fields) },
    { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...relations), fc.constantFrom(...fields)).map(([r, f]) => `${r}.${f}`) },
    { weight: 1, arbitrary: oddString.map((s) => s.slice(0, 20)) },
  );
  const atom = fc.tuple(field, fc.boolean(), operator, value).map(([f, not, op, v]) => `${f}:${not ? 'not:' : ''}${op}:${v}`);
  const expression: fc.Arbitrary<string> = fc.letrec<{ expr: string }>((tie) => ({
    expr: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      atom,
      fc.tuple(tie('expr'), fc.constantFrom(',and,', ',or,', ',', ',xor,'), tie('expr')).map(([a, j, b]) => a + j + b),
      tie('expr').map((e) => `(${e})`),
    ),
  })).expr;
  return fc.oneof(
    { weight: 6, arbitrary: expression },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        '(name:eq:x',
        'name:eq:x)',
        '((((((((((((((((((((((((((((((((((name:eq:x))))))))))))))))))))))))))))))))))',
        ':::',
        'name',
        Array(700).fill('name:eq:x').join(',or,'),
      ),
    },
  );
}

function queryValue(name: string, route: FuzzRoute, known: KnownValues): fc.Arbitrary<string> {
  const numbers = fc.constantFrom(
    '0',
    '1',
    '2',
    '100',
    '1000',
    '1001',
    '5000',
    '5001',
    '-1',
    '1.5',
    '',
    'abc',
    '9'.repeat(30),
    '1e3',
    ' 5',
    '0x10',
    '9007199254740991',
    '9007199254740992',
  );
  const cursor = fc.oneof(
    fc
      .constantFrom(
        { resource: -5, after: '', seq: 1 },
        { resource: 1e9, after: '', seq: 1 },
        { resource: 0, after: '', seq: -1 },
        { resource: 0, after: 5, seq: 1 },
        null,
        [1],
        { resource: 2, after: 'zz', seq: 2 ** 60 },
      )
      .map((v) => Buffer.from(JSON.stringify(v)).toString('base64url')),
    oddString.map((s) => s.slice(0, 60)),
  );
  const byName: Record<string, fc.Arbitrary<string>> = {
    limit: numbers,
    offset: numbers,
    since: numbers,
    cursor,
    sort: fc
      .array(
        fc
          .tuple(
            fc.oneof(
              fc.constantFrom(...route.fields),
              oddString.map((s) => s.slice(0, 20)),
            ),
            fc.constantFrom('', ':asc', ':desc', ':DESC', ':up', ':'),
          )
          .map(([f, d]) => f + d),
        { minLength: 1, maxLength: 3 },
      )
      .map((p) => p.join(',')),
    filter: filterFor(route.fields),
    show: fieldList(route.fields, true),
    hide: fieldList(route.fields, true),
    with: fc
      .array(
        fc.array(fc.constantFrom(...relations), { minLength: 1, maxLength: 7 }).map((p) => p.join('.')),
        { minLength: 1, maxLength: 3 },
      )
      .map((p) => p.join(',')),
    archived: fc.constantFrom('true', 'false', '1', 'yes', ''),
    update_without_delete_nested: fc.constantFrom('true', 'false', '1', ''),
    bom: fc.constantFrom('true', 'false', 'x'),
    date_range_start: dates,
    date_range_end: dates,
    start: dates,
    end: dates,
    time_frame: fc.constantFrom('day', 'week', 'month', 'year', 'hour', ''),
    format: fc.constantFrom('json', 'csv', 'xlsx', 'pdf', 'exe', ''),
    duration_format: fc.constantFrom('decimal', 'hh:mm', 'minutes', 'x'),
    group_by: fc.constantFrom('user', 'card', 'collection', 'day', 'board', 'user,card', 'x'),
    separator: fc.constantFrom(',', ';', '\t', 'tab', 'xx', ''),
    timezone: fc.constantFrom('UTC', 'Europe/Amsterdam', 'Mars/Olympus', '../../etc/passwd', '+02:00'),
    stage_id: knownOr(known, fc.uuid()),
    user_id: knownOr(known, fc.uuid()),
  };
  return fc.oneof({ weight: 4, arbitrary: byName[name] ?? oddString.map((s) => s.slice(0, 60)) }, { weight: 1, arbitrary: oddString });
}

function queryFor(route: FuzzRoute, known: KnownValues): fc.Arbitrary<string> {
  const documented = route.query.map((name) =>
    sometimes(
      queryValue(name, route, known).map((v) => `${name}=${encodeText(v)}`),
      ['show', 'hide', 'with'].includes(name) ? 12 : 25,
    ),
  );
  const extra = sometimes(
    fc.oneof(
      fc
        .tuple(fc.constantFrom('include', 'count', 'x', '__proto__', 'limit', 'filter'), oddString)
        .map(([k, v]) => `${k}=${encodeText(v.slice(0, 200))}`),
      fc.constantFrom('%', 'a=%ZZ', '&&&=', '=x', 'limit=1&limit=2', 'filter[]=x', `a=${'b'.repeat(17_000)}`),
    ),
    15,
  );
  const generated = fc.tuple(fc.tuple(...documented), extra).map(([parts, more]) => {
    const all = [...parts, more].filter((p): p is string => p !== undefined);
    return all.length > 0 ? `?${all.join('&')}` : '';
  });
  // A third without a query, so handlers past the query checks run often enough too.
  return fc.oneof({ weight: 1, arbitrary: fc.constant('') }, { weight: 2, arbitrary: generated });
}

// ------------------------------------------------------------------------------ requests

export function requestFor(route: FuzzRoute, known: KnownValues, credentials: Record<string, string>): fc.Arbitrary<FuzzRequest> {
  return fc
    .record({
      path: pathFor(route, known),
      query: queryFor(route, known),
      body: bodyFor(route, known),
      method: fc.oneof(
        { weight: 20, arbitrary: fc.constant(route.method) },
        { weight: 1, arbitrary: fc.constantFrom('PATCH', 'OPTIONS', 'HEAD', 'DELETE') },
      ),
    })
    .map(({ path, query, body, method }) => ({
      route: `${route.method} ${route.template}`,
      method,
      url: path + query,
      headers: { ...credentials, ...(body.type ? { 'content-type': body.type } : {}) },
      ...(body.body !== undefined && method !== 'HEAD' ? { body: body.body } : {}),
    }));
}
