/**
 * Operations: the API's routes that take a hand-written body (batch commands, planning, time
 * tracking), each declared once here in shared/ (docs/architecture.md "Operations"). One
 * declaration serves three readers:
 *  - the server checks a request's body against it (`checkBody`): every problem is one 422 item
 *    named by its path (`cards.3.id`), and the handler gets a typed input;
 *  - the OpenAPI document shows it (`jsonSchemaOf`);
 *  - the renderer's client sends a body of its type (`BodyOf`) and reads an answer of its type.
 *
 * Records of resources are declared in shared/resources; a body here names what one call
 * does, not a stored record, so it has its own small set of shapes: lists and objects nest.
 */
import type { FieldProblem } from './errors.js';
import { isPlainObject, isValidDate } from './fields.js';
import { isUuid } from './ids.js';
import type { HttpMethod } from './ipc.js';

interface Described {
  /** Shown in the OpenAPI document. */
  description?: string;
  /** May be left out (or sent as null): the input then lacks it. */
  optional?: boolean;
  /** May be sent as null, which the input keeps (e.g. "clear the note"), unlike left out. */
  nullable?: boolean;
}

export type Shape =
  | ({ kind: 'uuid' } & Described)
  | ({ kind: 'date' } & Described)
  | ({ kind: 'boolean' } & Described)
  /** With `pattern`, the whole text must match it (an id of a peer's own making, a clock). */
  | ({ kind: 'text'; min: number; max: number; pattern?: RegExp } & Described)
  | ({ kind: 'integer'; min: number; max: number } & Described)
  /** Any finite number, fractions too (a quantity), from min to max. */
  | ({ kind: 'number'; min: number; max: number } & Described)
  | ({ kind: 'choice'; of: readonly string[] } & Described)
  | ({ kind: 'list'; of: Shape; min: number; max: number } & Described)
  | ({ kind: 'object'; fields: Readonly<Record<string, Shape>>; others?: Others } & Described)
  /** Any JSON value: a value the handler hands on to a resource's own checks. */
  | ({ kind: 'any' } & Described);

/**
 * Keys an object takes beside its declared fields, with any value (the handler checks them,
 * e.g. against a resource's declaration), and whether at least one must be there.
 */
export interface Others {
  names: readonly string[] | 'any';
  required: boolean;
  /**
   * Let through unchecked but not handed on: keys a newer peer may add that this version does
   * not read (the sync protocol's, docs/API.md "Sync"), so the input keeps to the declaration.
   */
  ignored?: boolean;
}

/** The value a shape lets through, as the handler gets it. */
export type ValueOf<S> = S extends { kind: 'uuid' | 'date' | 'text' }
  ? string
  : S extends { kind: 'boolean' }
    ? boolean
    : S extends { kind: 'integer' | 'number' }
      ? number
      : S extends { kind: 'choice'; of: readonly (infer C)[] }
        ? C
        : S extends { kind: 'list'; of: infer E }
          ? ValueOf<E>[]
          : S extends { kind: 'object'; fields: infer F; others: { ignored: true } }
            ? FieldsOf<F>
            : S extends { kind: 'object'; fields: infer F; others: Others }
              ? FieldsOf<F> & Record<string, unknown>
              : S extends { kind: 'object'; fields: infer F }
                ? FieldsOf<F>
                : unknown;

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type FieldValue<S> = S extends { nullable: true } ? ValueOf<S> | null : ValueOf<S>;
type FieldsOf<F> = Simplify<
  { -readonly [K in keyof F as F[K] extends { optional: true } ? never : K]: FieldValue<F[K]> } & {
    -readonly [K in keyof F as F[K] extends { optional: true } ? K : never]?: FieldValue<F[K]>;
  }
>;

/** The declarations' building blocks, so a body reads like its documentation. */
export const shape = {
  uuid: (description?: string) => ({ kind: 'uuid', ...(description ? { description } : {}) }) as const,
  date: (description?: string) => ({ kind: 'date', ...(description ? { description } : {}) }) as const,
  boolean: (description?: string) => ({ kind: 'boolean', ...(description ? { description } : {}) }) as const,
  text: (max: number, options: { min?: number; pattern?: RegExp; description?: string } = {}) =>
    ({ kind: 'text', min: options.min ?? 0, max, ...options }) as const,
  integer: (min: number, max: number, description?: string) =>
    ({ kind: 'integer', min, max, ...(description ? { description } : {}) }) as const,
  number: (min: number, max: number, description?: string) =>
    ({ kind: 'number', min, max, ...(description ? { description } : {}) }) as const,
  choice: <const C extends readonly string[]>(of: C, description?: string) =>
    ({ kind: 'choice', of, ...(description ? { description } : {}) }) as const,
  list: <const E extends Shape>(of: E, size: { min?: number; max: number }, description?: string) =>
    ({ kind: 'list', of, min: size.min ?? 0, max: size.max, ...(description ? { description } : {}) }) as const,
  object: <const F extends Record<string, Shape>, const O extends Others | undefined = undefined>(fields: F, others?: O) =>
    ({ kind: 'object', fields, others: others as O }) as const,
  any: (description?: string) => ({ kind: 'any', ...(description ? { description } : {}) }) as const,
  optional: <const S extends Shape>(of: S) => ({ ...of, optional: true }) as const,
  nullable: <const S extends Shape>(of: S) => ({ ...of, nullable: true }) as const,
};

/** One route: where it is, what it takes, and (only as a type) what it answers. */
export interface Operation<B extends Shape | undefined = Shape | undefined, A = unknown> {
  method: HttpMethod;
  /** Under /v1, with `:name` for path parameters (Fastify's syntax). */
  path: string;
  summary: string;
  tag: string;
  body: B;
  /** Described in the OpenAPI document; its type is `A`. */
  answer: string;
  /** The success status (default 200). */
  status?: number;
  /**
   * The status of a body that does not fit the shape: 422 unless a protocol says 400 (the sync
   * push, docs/API.md "Sync": a malformed push is refused as a whole with 400).
   */
  malformedStatus?: 400 | 422;
  /** Query parameters the route reads (name → description), for the OpenAPI document. */
  query?: Readonly<Record<string, string>>;
  /** Never set: carries the answer's type to the renderer's client. */
  readonly answerType?: A;
}

export type BodyOf<O> = O extends Operation<infer B, unknown> ? (B extends Shape ? ValueOf<B> : undefined) : never;
export type AnswerOf<O> = O extends Operation<Shape | undefined, infer A> ? A : never;

/**
 * Declares an operation answering `A`: `defineOperation<CommandResult>()({ method, path, … })`.
 * Two calls, so that the body's shape is inferred while the answer's type is named.
 */
export function defineOperation<A>() {
  return <const B extends Shape | undefined>(operation: Omit<Operation<B, A>, 'answerType'>): Operation<B, A> => operation;
}

/** A path's `:name` parameters filled in (each encoded), for a client. */
export function operationPath(operation: Pick<Operation, 'path'>, params: Readonly<Record<string, string>> = {}): string {
  return `/v1${operation.path.replace(/:([a-z_]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${operation.path} needs ${name}`);
    return encodeURIComponent(value);
  })}`;
}

const plural = (n: number, one: string) => `${n} ${one}${n === 1 ? '' : 's'}`;

/**
 * Checks `value` against `of`; every problem is pushed with its path. Answers the value as the
 * handler gets it: ids in lower case, left-out optional fields absent.
 */
export function checkShape(of: Shape, value: unknown, at: string, problems: FieldProblem[]): unknown {
  return checkValue(of, value, at, '', problems);
}

/** A problem at `parent` + `key`: the path is made only now, so a value that passes costs no text. */
function refuse(problems: FieldProblem[], parent: string, key: string | number, description: string): undefined {
  const at = `${parent}${key}`;
  problems.push({ field: at, description: `${at} ${description}` });
  return undefined;
}

// The path is `parent` + `key`, joined only for a problem or to enter a list or object: a sync
// push checks up to 20,000 mutations this way (docs/API.md "Sync").
function checkValue(of: Shape, value: unknown, parent: string, key: string | number, problems: FieldProblem[]): unknown {
  switch (of.kind) {
    case 'uuid':
      return isUuid(value) ? value.toLowerCase() : refuse(problems, parent, key, 'must be a UUID');
    case 'date':
      return typeof value === 'string' && isValidDate(value) ? value : refuse(problems, parent, key, 'must be a date (YYYY-MM-DD)');
    case 'boolean':
      return typeof value === 'boolean' ? value : refuse(problems, parent, key, 'must be true or false');
    case 'text':
      return typeof value === 'string' &&
        value.length >= of.min &&
        value.length <= of.max &&
        (of.min === 0 || value.trim() !== '') &&
        (!of.pattern || of.pattern.test(value))
        ? value
        : refuse(
            problems,
            parent,
            key,
            `must be text of ${of.min} to ${of.max} characters${of.pattern ? ` matching ${of.pattern.source}` : ''}`,
          );
    case 'integer':
      return Number.isSafeInteger(value) && (value as number) >= of.min && (value as number) <= of.max
        ? value
        : refuse(problems, parent, key, `must be a whole number from ${of.min} to ${of.max}`);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) && value >= of.min && value <= of.max
        ? value
        : refuse(problems, parent, key, `must be a number from ${of.min} to ${of.max}`);
    case 'choice':
      return typeof value === 'string' && of.of.includes(value)
        ? value
        : refuse(problems, parent, key, `must be one of ${of.of.join(', ')}`);
    case 'list': {
      if (!Array.isArray(value) || value.length < of.min || value.length > of.max)
        return refuse(problems, parent, key, `must be a list of ${of.min} to ${plural(of.max, 'item')}`);
      const at = `${parent}${key}.`;
      return value.map((item, index) => checkValue(of.of, item, at, index, problems));
    }
    case 'object':
      if (!isPlainObject(value)) return refuse(problems, parent, key, 'must be an object');
      return takenAsIs(of) ? value : checkFields(of, value, `${parent}${key}.`, problems);
    case 'any':
      return value;
  }
}

/** An object of any keys with none declared (a synced record's fields): nothing to check, so nothing to copy. */
function takenAsIs(of: Extract<Shape, { kind: 'object' }>): boolean {
  if (of.others?.names !== 'any' || of.others.required || of.others.ignored) return false;
  for (const _ in of.fields) return false;
  return true;
}

// One pass over the declared fields and one over the given keys, with no lists made.
function checkFields(of: Extract<Shape, { kind: 'object' }>, value: Record<string, unknown>, prefix: string, problems: FieldProblem[]) {
  const others = of.others;
  const allowed = others?.names;
  const out: Record<string, unknown> = {};
  for (const name in of.fields) {
    const field = of.fields[name]!;
    const given = value[name];
    if (given === null && field.nullable) {
      out[name] = null;
      continue;
    }
    if (given === undefined || given === null) {
      if (!field.optional) problems.push({ field: `${prefix}${name}`, description: `${prefix}${name} is required` });
      continue;
    }
    out[name] = checkValue(field, given, prefix, name, problems);
  }
  let otherCount = 0;
  for (const name in value) {
    if (Object.hasOwn(of.fields, name)) continue;
    otherCount++;
    if (allowed === 'any' || allowed?.includes(name)) {
      if (!others!.ignored) out[name] = value[name];
    } else
      problems.push({
        field: `${prefix}${name}`,
        description: allowed
          ? `${prefix}${name} is not something this sets (it sets ${allowed.join(', ')})`
          : `${prefix}${name} is not something this takes`,
      });
  }
  if (others?.required && otherCount === 0) {
    const at = prefix.slice(0, -1);
    problems.push({ field: at, description: `${at} changes nothing` });
  }
  return out;
}

/** A request body checked against an operation's object shape; the problems as FieldProblems. */
export function checkBody<S extends Extract<Shape, { kind: 'object' }>>(
  of: S,
  body: Record<string, unknown>,
): { value: ValueOf<S>; problems: FieldProblem[] } {
  const problems: FieldProblem[] = [];
  // The object's checked value is the shape's value (checkShape keeps to the declaration).
  const value = checkFields(of, body, '', problems) as ValueOf<S>;
  return { value, problems };
}

/** The shape as JSON Schema, for the OpenAPI document (3.1: a nullable shape's type lists 'null'). */
export function jsonSchemaOf(of: Shape): Record<string, unknown> {
  const schema = schemaOfKind(of);
  if (of.nullable && typeof schema.type === 'string') schema.type = [schema.type, 'null'];
  return schema;
}

function schemaOfKind(of: Shape): Record<string, unknown> {
  const described = of.description ? { description: of.description } : {};
  switch (of.kind) {
    case 'uuid':
      return { type: 'string', format: 'uuid', ...described };
    case 'date':
      return { type: 'string', format: 'date', ...described };
    case 'boolean':
      return { type: 'boolean', ...described };
    case 'text':
      return { type: 'string', minLength: of.min, maxLength: of.max, ...(of.pattern ? { pattern: of.pattern.source } : {}), ...described };
    case 'integer':
      return { type: 'integer', minimum: of.min, maximum: of.max, ...described };
    case 'number':
      return { type: 'number', minimum: of.min, maximum: of.max, ...described };
    case 'choice':
      return { type: 'string', enum: [...of.of], ...described };
    case 'list':
      return { type: 'array', items: jsonSchemaOf(of.of), minItems: of.min, maxItems: of.max, ...described };
    case 'object': {
      const required = Object.entries(of.fields).flatMap(([name, field]) => (field.optional ? [] : [name]));
      const others = of.others;
      const properties = Object.fromEntries(Object.entries(of.fields).map(([name, field]) => [name, jsonSchemaOf(field)]));
      if (others && others.names !== 'any') for (const name of others.names) properties[name] ??= {};
      return {
        type: 'object',
        ...(required.length > 0 ? { required } : {}),
        properties,
        ...(others?.names === 'any' ? {} : { additionalProperties: false }),
        ...described,
      };
    }
    case 'any':
      return { ...described };
  }
}
