/**
 * Custom fields (docs/API.md "Custom fields"): definitions on a board, values
 * on collections and cards. Every way a value is written — inline in a collection's or card's
 * `custom_fields`, `PUT /v1/collection/{id}/custom_field/{name}`, a replica's synced change —
 * goes through `checkCustomFieldValues`, so they accept and store exactly the same things.
 * A board's definitions share the parts they have in common (type, scope, list, options).
 *
 * Rules for values (docs/API.md "Custom fields"):
 *  - items are matched with the stored ones by `name`; an item changes only the keys it sends,
 *    a new name starts from the defaults (type text, the owner's scope, priority 0);
 *  - `id`, `created_at` and `updated_at` are the server's: an id stays with its name for as long
 *    as the name is kept, and `updated_at` moves only when the item's content changes;
 *  - `value` must fit `type`; for list and select it must be one of the item's own `list`
 *    choices when the item has any (the board's definitions are not consulted, so a stored
 *    value stays valid when a board's choices change);
 *  - an item sent back exactly as stored is not checked again, so a record read and written
 *    back whole still saves when an old value would no longer pass;
 *  - keys docs/API.md "Custom fields" does not name are ignored.
 */
import type { FieldProblem } from './errors.js';
import { checkValue, checkWrite, isPlainObject, jsonField, type FieldSpec, type ResourceSpec } from './fields.js';
import { isUuid, nowTimestamp, uuidv7 } from './ids.js';

export const customFieldTypes = [
  'text',
  'number',
  'date',
  'checkbox',
  'email',
  'link',
  'phone',
  'list',
  'select',
  'address',
  'drawing',
  'textarea',
  'users',
] as const;
export type CustomFieldType = (typeof customFieldTypes)[number];

export const customFieldScopes = ['collection', 'card'] as const;
export type CustomFieldScope = (typeof customFieldScopes)[number];

/** One choice of a list or select field; a choice without a value stands for its name. */
export interface CustomFieldChoice {
  name: string;
  value?: string | number;
  color?: string;
}

/** A stored custom field value: the 13 fields of docs/API.md "Custom fields". */
export interface CustomFieldValue {
  id: string;
  name: string;
  type: CustomFieldType;
  scope: CustomFieldScope;
  priority: number;
  value: unknown;
  drawing_id: string | null;
  components: Record<string, unknown> | null;
  list: CustomFieldChoice[] | null;
  selected: CustomFieldChoice | null;
  options: Record<string, unknown> | null;
  created_at: string;
  updated_at: string;
}

// ---------------------------------------------------------------------------------------
// Checks of the structured parts, shared with a board's definitions.

function checkChoiceObject(choice: unknown): string | null {
  if (!isPlainObject(choice)) return 'must be an object {name, value, color}';
  if (typeof choice.name !== 'string' || choice.name.length === 0 || choice.name.length > 100)
    return 'must have a name of 1-100 characters';
  if (
    choice.value !== undefined &&
    choice.value !== null &&
    typeof choice.value !== 'string' &&
    !(typeof choice.value === 'number' && Number.isFinite(choice.value))
  ) {
    return 'must have a value that is a string or a number';
  }
  if (choice.color !== undefined && choice.color !== null && (typeof choice.color !== 'string' || choice.color.length > 50)) {
    return 'must have a color that is a string of at most 50 characters';
  }
  return null;
}

/** `list`: the choices of a list or select field, `[{name, value?, color?}]`. */
export function checkCustomFieldChoices(value: unknown): string | null {
  if (!Array.isArray(value)) return 'must be an array of {name, value, color}';
  for (const [index, choice] of value.entries()) {
    const problem = checkChoiceObject(choice);
    if (problem) return `item ${index} ${problem}`;
  }
  return null;
}

/** `options`: `{unit, align, decimals}` (other keys are kept as sent). */
export function checkCustomFieldOptions(value: unknown): string | null {
  if (!isPlainObject(value)) return 'must be an object {unit, align, decimals}';
  for (const key of ['unit', 'align'] as const) {
    const v = value[key];
    if (v !== undefined && v !== null && (typeof v !== 'string' || v.length > 50))
      return `${key} must be a string of at most 50 characters`;
  }
  const decimals = value.decimals;
  if (
    decimals !== undefined &&
    decimals !== null &&
    (typeof decimals !== 'number' || !Number.isInteger(decimals) || decimals < 0 || decimals > 20)
  ) {
    return 'decimals must be a whole number from 0 to 20';
  }
  return null;
}

/** `components` of an address: coordinates as numbers, the parts of the address as strings. */
function checkComponents(value: unknown): string | null {
  if (!isPlainObject(value)) return 'must be an object';
  for (const [key, limit] of [
    ['latitude', 90],
    ['longitude', 180],
  ] as const) {
    const v = value[key];
    if (v !== undefined && v !== null && (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > limit)) {
      return `${key} must be a number from -${limit} to ${limit}`;
    }
  }
  for (const key of ['country', 'city', 'postal_code', 'street1', 'street2']) {
    const v = value[key];
    if (v !== undefined && v !== null && (typeof v !== 'string' || v.length > 255))
      return `${key} must be a string of at most 255 characters`;
  }
  return null;
}

// ---------------------------------------------------------------------------------------
// The item as a declaration: checkWrite does its fields; `value` depends on `type` (below).

/** What `value` holds for each type (docs/API.md "Custom fields"). */
const valueDescription =
  'Fits the type: text, textarea, email, link, phone, drawing: a string; number: a number; date: YYYY-MM-DD; checkbox: true or false; select: one choice value; list: an array of choice values; users: an array of user ids; address: a string or an object. Null clears it.';

const itemSpec = {
  name: 'custom_field',
  title: 'CustomField',
  fields: {
    name: { type: 'string', required: true, maxLength: 100, description: 'Unique within the list; the key the item is matched by.' },
    type: { type: 'enum', enum: customFieldTypes, default: 'text' },
    scope: { type: 'enum', enum: customFieldScopes, description: 'Defaults to the kind of record it is on.' },
    priority: { type: 'integer', minimum: 0, default: 0 },
    drawing_id: { type: 'uuid', nullable: true },
    components: {
      type: 'json',
      shape: 'object',
      nullable: true,
      check: checkComponents,
      description: 'An address in parts: latitude, longitude, country, city, postal_code, street1, street2.',
    },
    list: {
      type: 'json',
      shape: 'array',
      nullable: true,
      check: checkCustomFieldChoices,
      description: 'Choices [{name, value, color}] of a list or select field.',
    },
    selected: { type: 'json', shape: 'object', nullable: true, check: checkChoiceObject, description: 'The chosen {name, value, color}.' },
    options: { type: 'json', shape: 'object', nullable: true, check: checkCustomFieldOptions, description: '{unit, align, decimals}.' },
  },
} as const satisfies ResourceSpec;

/** The server-owned fields of an item: taken from the body only from a replica (trusted). */
const stampSpec = {
  name: 'custom_field',
  title: 'CustomField',
  fields: {
    id: { type: 'uuid', readOnly: true },
    created_at: { type: 'datetime', readOnly: true },
    updated_at: { type: 'datetime', readOnly: true },
  },
} as const satisfies ResourceSpec;

/** The keys a client writes (all but the server-owned id and timestamps), in the order of docs/API.md "Custom fields". */
const contentKeys = ['name', 'type', 'scope', 'priority', 'value', 'drawing_id', 'components', 'list', 'selected', 'options'] as const;

const emailPattern = '^[^\\s@]+@[^\\s@]+\\.[^\\s@]+$';
const simpleValues: Partial<Record<CustomFieldType, FieldSpec>> = {
  text: { type: 'string', maxLength: 65535 },
  textarea: { type: 'string', maxLength: 65535 },
  date: { type: 'date' },
  checkbox: { type: 'boolean' },
  email: { type: 'string', maxLength: 150, pattern: emailPattern },
  link: { type: 'string', maxLength: 2048, pattern: '^https?://\\S+$' },
  phone: { type: 'string', maxLength: 50, pattern: '^[+0-9 ()./-]*[0-9][+0-9 ()./-]*$' },
  drawing: { type: 'string', maxLength: 2048 },
};

const numberText = /^\s*-?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?\s*$/i;

function isScalar(value: unknown): value is string | number {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

function choiceKeys(list: unknown): Set<string | number> | null {
  if (!Array.isArray(list) || list.length === 0) return null;
  return new Set(list.filter(isPlainObject).map((c) => (c.value ?? c.name) as string | number));
}

/**
 * Checks `value` against the item's type (and its own choices). Null always clears a value.
 * A number may come as text holding a number (the public API types `value` as a string); it is
 * stored as a number.
 */
export function checkCustomFieldValue(
  type: CustomFieldType,
  value: unknown,
  list: unknown,
): { ok: true; value: unknown } | { ok: false; problem: string } {
  if (value === null) return { ok: true, value: null };
  const simple = simpleValues[type];
  if (simple) {
    const result = checkValue(simple, value);
    return result.ok ? result : { ok: false, problem: `${result.problem} for a ${type} field` };
  }
  const choices = choiceKeys(list);
  switch (type) {
    case 'number':
      if (typeof value === 'number' && Number.isFinite(value)) return { ok: true, value };
      if (typeof value === 'string' && numberText.test(value) && Number.isFinite(Number(value))) return { ok: true, value: Number(value) };
      return { ok: false, problem: 'must be a number for a number field' };
    case 'select':
      if (!isScalar(value)) return { ok: false, problem: 'must be one choice (a string or a number) for a select field' };
      if (choices && !choices.has(value)) return { ok: false, problem: "must be the value of one of the item's list choices" };
      return { ok: true, value };
    case 'list':
      if (!Array.isArray(value) || !value.every(isScalar))
        return { ok: false, problem: 'must be an array of choices (strings or numbers) for a list field' };
      if (choices && !value.every((v) => choices.has(v))) return { ok: false, problem: "may only hold values of the item's list choices" };
      return { ok: true, value };
    case 'users':
      if (!Array.isArray(value) || !value.every(isUuid)) return { ok: false, problem: 'must be an array of user ids for a users field' };
      return { ok: true, value: value.map((id) => id.toLowerCase()) };
    case 'address':
      if (typeof value === 'string' ? value.length > 65535 : !isPlainObject(value))
        return { ok: false, problem: 'must be a string or an object for an address field' };
      return { ok: true, value };
    default:
      return { ok: false, problem: `cannot be checked for type ${String(type)}` };
  }
}

// ---------------------------------------------------------------------------------------
// A whole list of values.

/** JSON equality that ignores the order of object keys. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((v, i) => sameJson(v, b[i]));
  }
  if (!isPlainObject(a) || !isPlainObject(b)) return false;
  const keys = Object.keys(a).filter((k) => a[k] !== undefined);
  return keys.length === Object.keys(b).filter((k) => b[k] !== undefined).length && keys.every((k) => sameJson(a[k], b[k]));
}

function defaults(name: string, scope: CustomFieldScope): Record<string, unknown> {
  return {
    name,
    type: 'text',
    scope,
    priority: 0,
    value: null,
    drawing_id: null,
    components: null,
    list: null,
    selected: null,
    options: null,
  };
}

/** The content keys of an item, missing ones at their defaults. */
function content(item: Record<string, unknown>, scope: CustomFieldScope): Record<string, unknown> {
  const out = defaults(item.name as string, scope);
  for (const key of contentKeys) if (item[key] !== undefined) out[key] = item[key];
  return out;
}

export interface CustomFieldWrite {
  /** The kind of record the values are on: the default `scope`. */
  scope: CustomFieldScope;
  /** The values as stored before this write (an update), for ids and timestamps. */
  previous?: unknown;
  /** Take `id`, `created_at` and `updated_at` from the items (a replica's synced change). */
  trusted?: boolean;
  now?: string;
}

/**
 * Checks a list of custom field values and returns what to store. Problems name their place in
 * the list (`0.type`, `2.name`), for the caller to put under its own path.
 */
export function checkCustomFieldValues(
  items: readonly unknown[],
  write: CustomFieldWrite,
): { value: CustomFieldValue[]; problems: FieldProblem[] } {
  const now = write.now ?? nowTimestamp();
  const previous = new Map<string, Record<string, unknown>>();
  if (Array.isArray(write.previous)) {
    for (const item of write.previous) if (isPlainObject(item) && typeof item.name === 'string') previous.set(item.name, item);
  }
  const problems: FieldProblem[] = [];
  const problem = (path: string, description: string) => problems.push({ field: path, description: `${path} ${description}` });
  const seen = new Map<string, number>();
  const value: CustomFieldValue[] = [];

  items.forEach((item, index) => {
    const at = (found: FieldProblem[]) =>
      found.forEach((p) => problems.push({ field: `${index}.${p.field}`, description: `${index}.${p.description}` }));
    if (!isPlainObject(item)) return problem(`${index}`, 'must be an object {name, type, value, …}');
    if (typeof item.name !== 'string' || item.name.trim() === '') {
      return problem(`${index}.name`, item.name === undefined ? 'is required' : 'must be a string that is not empty');
    }
    const name = item.name;
    if (seen.has(name)) return problem(`${index}.name`, `${name} is already the name of item ${seen.get(name)}`);
    seen.set(name, index);

    const prior = previous.get(name);
    const base = prior ? content(prior, write.scope) : defaults(name, write.scope);
    // The keys sent change, the others keep the stored item's (or the defaults).
    const merged = { ...base, ...item, name };
    const stamps = write.trusted ? checkWrite(stampSpec, item, 'update', [], true) : { values: {}, problems: [] };
    at(stamps.problems);
    const unchanged = prior !== undefined && sameJson(content(merged, write.scope), base);

    let fields = base;
    if (!unchanged) {
      // A changed item must be valid as a whole, the keys it did not send included.
      const check = checkWrite(itemSpec, merged, 'create');
      at(check.problems);
      fields = content({ ...merged, ...check.values }, write.scope);
      const bad = new Set(check.problems.map((p) => p.field));
      if (!bad.has('type') && !bad.has('list')) {
        const result = checkCustomFieldValue(fields.type as CustomFieldType, fields.value, fields.list);
        if (result.ok) fields.value = result.value;
        else problem(`${index}.value`, result.problem);
        const choices = choiceKeys(fields.list);
        const selected = fields.selected;
        if (choices && !bad.has('selected') && isPlainObject(selected) && !choices.has((selected.value ?? selected.name) as string)) {
          problem(`${index}.selected`, "must be one of the item's list choices");
        }
      }
    }
    // An id stays with its name; updated_at moves only when the content changes.
    const own = stamps.values as { id?: string; created_at?: string; updated_at?: string };
    const priorAt = (key: 'created_at' | 'updated_at') => (typeof prior?.[key] === 'string' ? (prior[key] as string) : undefined);
    const changed = !prior || !sameJson(fields, base);
    value.push({
      id: own.id ?? (isUuid(prior?.id) ? prior.id.toLowerCase() : uuidv7()),
      ...fields,
      created_at: own.created_at ?? priorAt('created_at') ?? now,
      updated_at: own.updated_at ?? (changed ? now : (priorAt('updated_at') ?? now)),
    } as CustomFieldValue);
  });
  return { value, problems };
}

/** OpenAPI schema of one choice of `list`. */
export const customFieldChoiceSchema = {
  type: 'object',
  required: ['name'],
  properties: { name: { type: 'string', maxLength: 100 }, value: { type: ['string', 'number'] }, color: { type: 'string', maxLength: 50 } },
};

/** OpenAPI schema of one stored value. */
export const customFieldValueSchema = {
  type: 'object',
  required: ['name'],
  properties: {
    id: { type: 'string', format: 'uuid', readOnly: true },
    name: { type: 'string', maxLength: 100 },
    type: { type: 'string', enum: [...customFieldTypes], default: 'text' },
    scope: { type: 'string', enum: [...customFieldScopes] },
    priority: { type: 'integer', minimum: 0, default: 0 },
    value: { description: valueDescription },
    drawing_id: { type: ['string', 'null'], format: 'uuid' },
    components: {
      type: ['object', 'null'],
      properties: {
        latitude: { type: 'number' },
        longitude: { type: 'number' },
        ...Object.fromEntries(['country', 'city', 'postal_code', 'street1', 'street2'].map((k) => [k, { type: 'string' }])),
      },
    },
    list: { type: ['array', 'null'], items: customFieldChoiceSchema },
    selected: { ...customFieldChoiceSchema, type: ['object', 'null'] },
    options: {
      type: ['object', 'null'],
      properties: { unit: { type: 'string' }, align: { type: 'string' }, decimals: { type: 'integer', minimum: 0 } },
    },
    created_at: { type: 'string', format: 'date-time', readOnly: true },
    updated_at: { type: 'string', format: 'date-time', readOnly: true },
  },
};

/** The `custom_fields` of a collection or a card. */
export function customFieldValues(scope: CustomFieldScope) {
  return jsonField<CustomFieldValue[]>()({
    type: 'json',
    shape: 'array',
    default: [],
    items: customFieldValueSchema,
    description: `Values as [{id, name, type, scope, priority, value, …}], matched by name; scope defaults to ${scope}. See docs/API.md "Custom fields".`,
    refine: (value: unknown, context: { previous: unknown; trusted: boolean }) =>
      checkCustomFieldValues(value as unknown[], { scope, previous: context.previous, trusted: context.trusted }),
  });
}
