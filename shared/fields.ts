/**
 * Field declarations: one definition per resource gives its TypeScript type, the validation
 * of writes and the OpenAPI schema (docs/API.md). Pure TypeScript, shared by the
 * API, the store and the renderer.
 *
 * Documented write rules (docs/API.md "Writing records"), the same for every resource:
 *  - fields the server owns (`readOnly`) and fields the resource does not have are ignored,
 *    because integrations commonly GET a record, change it and PUT it back whole;
 *  - PUT is a partial update: only the fields sent change;
 *  - an empty string is null for a nullable field that is not required (free text aside);
 *  - every offending field gets its own 422 error item.
 */
import type { FieldProblem, FieldRule } from './errors.js';
import { isUuid, nowTimestamp } from './ids.js';

export type FieldType = 'uuid' | 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'time' | 'enum' | 'json';

export interface FieldSpec {
  type: FieldType;
  /** `null` is an accepted value. */
  nullable?: boolean;
  /** Must be present (and not null) on create. */
  required?: boolean;
  /** Set by the server; ignored in request bodies. */
  readOnly?: boolean;
  /** Accepted in request bodies, never returned. */
  writeOnly?: boolean;
  /** Not a column: the resource module computes or loads it (relations, derived figures). */
  virtual?: boolean;
  enum?: readonly string[];
  /** Regular expression source the whole value must match. */
  pattern?: string;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  /** Value given on create when the field is absent. */
  default?: unknown;
  /**
   * For a nullable free-text string: `""` means no value (null), as it does for every other
   * nullable field (see checkWrite). Set where an empty text would be a value of its own that
   * a client did not mean, like an external_ref, which must be unique.
   */
  blankIsNull?: boolean;
  /** For `json` fields: what shape the value has, for validation and OpenAPI. */
  shape?: 'object' | 'array';
  /**
   * Extra check for structured values; returns a problem description (with the rule it broke
   * and its bound, when it has them, so a client can word it: docs/API.md "Field rules and
   * limits") or null.
   */
  check?: (value: unknown) => string | CheckedProblem | null;
  /**
   * For `json` values whose items have fields of their own (custom field values): checks them
   * after `check` and returns what to store, each problem named by its path under the field
   * (`0.type`, reported as `custom_fields.0.type`). `previous` is the stored value on update;
   * `trusted` as for checkWrite.
   */
  refine?: (value: unknown, context: { previous: unknown; trusted: boolean }) => { value: unknown; problems: FieldProblem[] };
  /** For `json` arrays: the OpenAPI schema of one item. */
  items?: Record<string, unknown>;
  /**
   * For `json` arrays of `{id, …}` items that are written like inline records (a resource's
   * `boards`): with `update_without_delete_nested=true` a sent list merges into the stored one
   * by id instead of replacing it (see mergeStoredLists).
   */
  mergeById?: MergeById;
  /** A uuid field that points at a record of this resource (checked by the API). */
  references?: string;
  /**
   * For a `references` field: `cascade` deletes this record (soft, through the same path as a
   * record's owned parts, so the change log, sync and webhooks see it) when the record it names
   * is deleted, instead of leaving it pointing at a record that is gone (a card relation).
   */
  onDelete?: 'cascade';
  /**
   * Shown to admins only (API keys and users with role `admin`): a credential such as a user's
   * invitation id. Left out of other callers' answers, sync pages and trash (filtering or
   * sorting on it is a 400 for them), and out of every webhook payload.
   */
  adminOnly?: boolean;
  description?: string;
}

/** How a json list merges by id; `inner` names the lists inside each item that merge alike. */
export interface MergeById {
  inner?: Readonly<Record<string, MergeById>>;
}

export interface ResourceSpec {
  /** Singular name used in paths, change events and sync: `project`, `order_row`. */
  name: string;
  /** Human title for docs: `Project`, `OrderRow`. */
  title: string;
  fields: Record<string, FieldSpec>;
  /**
   * Sets of columns that must be unique together when none is null. Left out, a resource
   * with an `external_ref` is unique by it alone (docs/API.md "external_ref").
   */
  unique?: readonly (readonly string[])[];
}

// ---------------------------------------------------------------------------------------
// Types derived from a declaration.

type BaseValue<F extends FieldSpec> = F extends { type: 'enum'; enum: readonly (infer E)[] }
  ? E
  : F['type'] extends 'integer' | 'number'
    ? number
    : F['type'] extends 'boolean'
      ? boolean
      : F['type'] extends 'json'
        ? F extends { shape: 'array' }
          ? unknown[]
          : Record<string, unknown>
        : string;

export type FieldValue<F extends FieldSpec> = F extends { nullable: true } ? BaseValue<F> | null : BaseValue<F>;

/** The record a resource returns. */
export type RecordOf<R extends ResourceSpec> = {
  -readonly [K in keyof R['fields'] as R['fields'][K] extends { writeOnly: true } ? never : K]: FieldValue<R['fields'][K]>;
};

/** The body a client may send to create or update a record. */
export type InputOf<R extends ResourceSpec> = {
  -readonly [K in keyof R['fields'] as R['fields'][K] extends { readOnly: true } ? never : K]?: FieldValue<R['fields'][K]>;
};

// ---------------------------------------------------------------------------------------
// Records as the store keeps them, and the declared shapes of JSON values.

declare const jsonValue: unique symbol;

/**
 * What a `json` field's value is, carried by its declaration for the types only (nothing at
 * run time): the field's `check` or `refine` makes sure a stored value has this shape.
 */
export interface JsonOf<T> {
  readonly [jsonValue]?: T;
}

/**
 * A `json` field declared with the TypeScript type of its value, once, beside the check that
 * keeps it so: `boards: jsonField<ResourceBoard[]>()({ type: 'json', shape: 'array', … })`.
 */
export function jsonField<T>() {
  return <const F extends FieldSpec & { type: 'json' }>(spec: F): F & JsonOf<T> => spec;
}

/** A stored field's value: a `json` field's declared type where it has one. */
type StoredBase<F extends FieldSpec> = F extends JsonOf<infer T> ? (unknown extends T ? BaseValue<F> : T) : BaseValue<F>;

type StoredValue<F extends FieldSpec> = F extends { nullable: true } ? StoredBase<F> | null : StoredBase<F>;

/** Any stored record, of a table not known until run time. */
export type StoredRecord = Record<string, unknown> & { id: string };

/**
 * The record as the store keeps it (docs/API.md "Writing records"): every column, write-only
 * fields too, no virtual ones; `json` columns as declared (see `jsonField`). For the broad
 * `ResourceSpec` (a table named at run time) it is a `StoredRecord`.
 */
export type StoredOf<S extends ResourceSpec> = ResourceSpec extends S
  ? StoredRecord
  : {
      -readonly [K in keyof S['fields'] as S['fields'][K] extends { virtual: true } ? never : K]: StoredValue<S['fields'][K]>;
    } & { id: string };

export function defineResource<const R extends ResourceSpec>(spec: R): R {
  return spec;
}

// Fields every stored resource has.
export const idField = { type: 'uuid', readOnly: true } as const satisfies FieldSpec;
export const timestampField = { type: 'datetime', readOnly: true } as const satisfies FieldSpec;
export const externalRefField = {
  type: 'string',
  nullable: true,
  blankIsNull: true,
  maxLength: 255,
  description: 'Reference to the record in an outside system; unique per resource type.',
} as const satisfies FieldSpec;

/** An inline list of related records (deep insertion, `with`): not a column. */
export function nestedList(description: string) {
  return { type: 'json', shape: 'array', virtual: true, description } as const satisfies FieldSpec;
}

/**
 * Bounds of the figures a planner types (docs/API.md "Field rules and limits"). Nothing a planner means is
 * larger, and a slip of a dozen extra digits is refused instead of planning centuries of work.
 */
export const limits = {
  /** A duration in minutes: one year (365 × 24 × 60). */
  minutes: 525_600,
  /** Minutes in one day: the most a card can take of an activity per day. */
  dayMinutes: 1440,
  /** An order's or order row's quantity, either way (a return may be negative): a billion. */
  quantity: 1_000_000_000,
  /** An hourly rate, in the currency's units: a million. */
  hourlyRate: 1_000_000,
  /** A stage's capacity notification bound: a million. */
  capacity: 1_000_000,
} as const;

/** Quantities and other open numbers of order data. */
export const quantityField = {
  type: 'number',
  nullable: true,
  minimum: -limits.quantity,
  maximum: limits.quantity,
} as const satisfies FieldSpec;

// ---------------------------------------------------------------------------------------
// Validation of writes.

const datePattern = /^(\d{4})-(\d{2})-(\d{2})$/;
const timePattern = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;
const datetimePattern = /^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
/** A date-time exactly as nowTimestamp writes it, with a real time of day. */
export const canonicalDatetime = /^\d{4}-\d{2}-\d{2}T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\dZ$/;

export function isValidDate(value: string): boolean {
  const m = datePattern.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

// A high surrogate not followed by a low one, or a low one without a high one before it. Such
// text has no UTF-8 form: SQLite would store it as invalid bytes that read back as U+FFFD.
export const loneSurrogate = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const loneSurrogateProblem = 'contains an unpaired UTF-16 surrogate (not valid Unicode text)';

/**
 * The path (`a.0.b`, or the key's own path when the key is at fault) of the first string in
 * `value`, key or value, that holds an unpaired surrogate; undefined when there is none. Walks
 * objects and arrays recursively, so callers bound the depth first (request bodies are at most
 * 64 levels deep).
 */
export function loneSurrogatePath(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return loneSurrogate.test(value) ? path : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const found = loneSurrogatePath(value[i], path ? `${path}.${i}` : String(i));
      if (found !== undefined) return found;
    }
    return undefined;
  }
  for (const [key, item] of Object.entries(value)) {
    const at = path ? `${path}.${key}` : key;
    if (loneSurrogate.test(key)) return at;
    const found = loneSurrogatePath(item, at);
    if (found !== undefined) return found;
  }
  return undefined;
}

const patternCache = new Map<string, RegExp>();
function compiledPattern(source: string): RegExp {
  let re = patternCache.get(source);
  if (!re) {
    re = new RegExp(source);
    patternCache.set(source, re);
  }
  return re;
}

function typeLabel(spec: FieldSpec): string {
  switch (spec.type) {
    case 'uuid':
      return 'a uuid string';
    case 'date':
      return 'a date (YYYY-MM-DD)';
    case 'datetime':
      return 'an ISO 8601 date-time with a time zone (e.g. 2024-04-11T10:22:15Z)';
    case 'time':
      return 'a time (HH:MM)';
    case 'integer':
      return 'an integer';
    case 'number':
      return 'a number';
    case 'boolean':
      return 'true or false';
    case 'json':
      return spec.shape === 'array' ? 'an array' : 'an object';
    default:
      return 'a string';
  }
}

/**
 * Checks one value against its declaration. Returns the normalised value (times as HH:MM,
 * date-times in UTC with `Z`) or a problem description.
 */
/** Made only when a value fails: a snapshot checks hundreds of thousands that pass. */
function wrongType(spec: FieldSpec): ValueProblem {
  return { ok: false, problem: `must be ${typeLabel(spec)}`, rule: 'type' };
}

/** A value that fails its declaration: what is wrong, and which rule it broke (docs/API.md "Errors"). */
/** What a field's `check` finds wrong, with the rule and bound a client words it by. */
export interface CheckedProblem {
  problem: string;
  rule?: FieldRule;
  limit?: number;
}

/** A check's answer as a value problem: a bare description has no rule. */
function checked(found: string | CheckedProblem): ValueProblem {
  return typeof found === 'string' ? { ok: false, problem: found } : { ok: false, ...found };
}

export interface ValueProblem {
  ok: false;
  problem: string;
  rule?: FieldRule;
  limit?: number;
}

export function checkValue(spec: FieldSpec, value: unknown): { ok: true; value: unknown } | ValueProblem {
  if (value === null) {
    return spec.nullable ? { ok: true, value: null } : { ok: false, problem: 'may not be null', rule: 'required' };
  }
  switch (spec.type) {
    case 'string':
    case 'enum':
    case 'uuid':
    case 'date':
    case 'datetime':
    case 'time': {
      if (typeof value !== 'string') return wrongType(spec);
      if (loneSurrogate.test(value)) return { ok: false, problem: loneSurrogateProblem };
      if (spec.type === 'uuid' && !isUuid(value)) return wrongType(spec);
      if (spec.type === 'date' && !isValidDate(value)) return wrongType(spec);
      if (spec.type === 'time') {
        const m = timePattern.exec(value);
        if (!m) return wrongType(spec);
        return { ok: true, value: `${m[1]}:${m[2]}` };
      }
      if (spec.type === 'datetime') {
        // Already as this API writes it (UTC, whole seconds): it stays as it is.
        if (canonicalDatetime.test(value) && isValidDate(value.slice(0, 10))) return { ok: true, value };
        const ms = Date.parse(value);
        // Date.parse rolls 2026-02-30 over into March; the calendar date must exist.
        if (!datetimePattern.test(value) || Number.isNaN(ms) || !isValidDate(value.slice(0, 10))) return wrongType(spec);
        return { ok: true, value: nowTimestamp(new Date(ms)) };
      }
      if (spec.enum && !spec.enum.includes(value)) {
        return { ok: false, problem: `must be one of: ${spec.enum.join(', ')}`, rule: 'enum' };
      }
      // Characters are never more than UTF-16 units: count them only when the units are too many.
      if (spec.maxLength !== undefined && value.length > spec.maxLength && [...value].length > spec.maxLength) {
        return { ok: false, problem: `may be at most ${spec.maxLength} characters long`, rule: 'maxLength', limit: spec.maxLength };
      }
      if (spec.pattern && !compiledPattern(spec.pattern).test(value)) {
        return { ok: false, problem: `must match the pattern ${spec.pattern}`, rule: 'pattern' };
      }
      const problem = spec.check?.(value) ?? null;
      if (problem) return checked(problem);
      return { ok: true, value: spec.type === 'uuid' ? value.toLowerCase() : value };
    }
    case 'integer':
    case 'number': {
      if (typeof value !== 'number' || !Number.isFinite(value)) return wrongType(spec);
      if (spec.type === 'integer' && !Number.isSafeInteger(value)) return wrongType(spec);
      if (spec.minimum !== undefined && value < spec.minimum) {
        return { ok: false, problem: `must be at least ${spec.minimum}`, rule: 'minimum', limit: spec.minimum };
      }
      if (spec.maximum !== undefined && value > spec.maximum) {
        return { ok: false, problem: `must be at most ${spec.maximum}`, rule: 'maximum', limit: spec.maximum };
      }
      return { ok: true, value };
    }
    case 'boolean':
      return typeof value === 'boolean' ? { ok: true, value } : wrongType(spec);
    case 'json': {
      const isArray = Array.isArray(value);
      const isObject = typeof value === 'object' && !isArray;
      if (spec.shape === 'array' ? !isArray : !isObject) return wrongType(spec);
      const inner = loneSurrogatePath(value);
      if (inner !== undefined) return { ok: false, problem: `${inner ? `(at ${inner}) ` : ''}${loneSurrogateProblem}` };
      const problem = spec.check?.(value) ?? null;
      return problem ? checked(problem) : { ok: true, value };
    }
  }
}

/**
 * Whether `""` is read as null: for a nullable field that is not required, as the frameworks
 * behind the public API read input and its clients send it for an empty date, number or
 * reference (docs/API.md "Compatibility"). A free-text string keeps `""` (an empty text is a
 * text) unless its value has a form `""` cannot have (a pattern, a check) or it says so
 * (`blankIsNull`). A required field refuses `""`.
 */
export function readsBlankAsNull(field: FieldSpec): boolean {
  if (!field.nullable || field.required) return false;
  return field.type !== 'string' || field.pattern !== undefined || field.check !== undefined || field.blankIsNull === true;
}

/** The rule and bound of a failed check, when it has them, to spread into a problem. */
export function ruleOf(result: ValueProblem): Pick<FieldProblem, 'rule' | 'limit'> {
  return { ...(result.rule && { rule: result.rule }), ...(result.limit !== undefined && { limit: result.limit }) };
}

export interface WriteCheck {
  values: Record<string, unknown>;
  problems: FieldProblem[];
}

/**
 * Validates a create (`mode: 'create'`) or partial update body against a declaration.
 * Read-only and unknown fields are ignored (see the file head); defaults fill absent
 * fields on create.
 */
export function checkWrite(
  spec: ResourceSpec,
  body: Record<string, unknown>,
  mode: 'create' | 'update',
  /** Fields the caller sets itself (a nested record's parent id); not read from the body. */
  skip: readonly string[] = [],
  /**
   * Also take server-owned fields from the body (checked like the others). Sync uses it: a
   * replica's change carries the fields its own domain rules computed.
   */
  trusted = false,
  /** The record as stored, for fields whose check depends on what they held (`refine`). */
  current?: Record<string, unknown>,
): WriteCheck {
  const values: Record<string, unknown> = {};
  const problems: FieldProblem[] = [];
  for (const [name, field] of Object.entries(spec.fields)) {
    if (field.readOnly && !trusted) {
      // Server-owned fields start at their default (a new user is "invited").
      if (mode === 'create' && field.default !== undefined) values[name] = structuredClone(field.default);
      continue;
    }
    if (skip.includes(name)) continue;
    const present = Object.prototype.hasOwnProperty.call(body, name) && body[name] !== undefined;
    if (!present) {
      if (mode === 'create') {
        if (field.required) problems.push({ field: name, description: `${name} is required`, rule: 'required' });
        else if (field.default !== undefined) values[name] = structuredClone(field.default);
      }
      continue;
    }
    const raw = body[name] === '' && readsBlankAsNull(field) ? null : body[name];
    if (raw === null && field.required && !(trusted && field.nullable)) {
      problems.push({ field: name, description: `${name} is required and may not be null`, rule: 'required' });
      continue;
    }
    if (field.required && typeof raw === 'string' && raw.trim() === '' && field.type === 'string') {
      problems.push({ field: name, description: `${name} is required and may not be empty`, rule: 'required' });
      continue;
    }
    const result = checkValue(field, raw);
    if (!result.ok) {
      problems.push({ field: name, description: `${name} ${result.problem}`, ...ruleOf(result) });
    } else if (field.refine && result.value !== null) {
      const refined = field.refine(result.value, { previous: current?.[name], trusted });
      for (const p of refined.problems) problems.push({ ...p, field: `${name}.${p.field}`, description: `${name}.${p.description}` });
      values[name] = refined.value;
    } else {
      values[name] = result.value;
    }
  }
  return { values, problems };
}

/**
 * `sent` merged into `stored` by id (compared without case), like an inline write with
 * `update_without_delete_nested=true`: an item with a stored id changes the keys it sends and
 * keeps the others, a new one is added, stored items left out stay. Lists `rule` names inside
 * an item merge the same way. The sent items come first, in their order, so a problem's path
 * (`boards.0.stages.1.id`) points into the body as sent; the kept ones follow. Anything that is
 * not a list is left as sent, for the field's check to judge.
 */
function mergeById(stored: unknown, sent: unknown, rule: MergeById): unknown {
  if (!Array.isArray(stored) || !Array.isArray(sent)) return sent;
  const idOf = (item: unknown) => (isPlainObject(item) && typeof item.id === 'string' ? item.id.toLowerCase() : undefined);
  const byId = new Map<string, Record<string, unknown>>();
  for (const item of stored) {
    const id = idOf(item);
    if (id !== undefined) byId.set(id, item as Record<string, unknown>);
  }
  const mentioned = new Set<string>();
  const out = sent.map((item) => {
    const id = idOf(item);
    const previous = id === undefined ? undefined : byId.get(id);
    if (id !== undefined) mentioned.add(id);
    if (!previous || !isPlainObject(item)) return item;
    const merged: Record<string, unknown> = { ...previous, ...item };
    for (const [name, inner] of Object.entries(rule.inner ?? {})) {
      if (Object.prototype.hasOwnProperty.call(item, name)) merged[name] = mergeById(previous[name], item[name], inner);
    }
    return merged;
  });
  return [...out, ...stored.filter((item) => !mentioned.has(idOf(item) ?? ''))];
}

/** The body with each `mergeById` list it sends merged into the stored value. */
export function mergeStoredLists(
  spec: ResourceSpec,
  body: Record<string, unknown>,
  stored: Record<string, unknown>,
): Record<string, unknown> {
  let out = body;
  for (const [name, field] of Object.entries(spec.fields)) {
    if (!field.mergeById || !Object.prototype.hasOwnProperty.call(body, name)) continue;
    out = { ...out, [name]: mergeById(stored[name], body[name], field.mergeById) };
  }
  return out;
}

/** True for an IANA time zone name this runtime knows (`Europe/Amsterdam`). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/**
 * A declared entry by a name that came from a request. Plain `map[name]` would find
 * `constructor` or `__proto__` on every object's prototype.
 */
export function own<T>(map: Readonly<Record<string, T>> | undefined, name: string): T | undefined {
  return map !== undefined && Object.prototype.hasOwnProperty.call(map, name) ? map[name] : undefined;
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
