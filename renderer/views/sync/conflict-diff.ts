/**
 * A refused change set beside the server's record, field by field, for the conflict list:
 * which fields you sent, what the server has, and where they differ. And the fields of a
 * retry: prefilled with what you sent, typed back into the value's own kind. Pure
 * (test/renderer/conflict-diff.test.ts).
 */

/**
 * What the app keeps for itself: the bookkeeping every record has, and what planning and the
 * screens keep on a record (which planning made a card and in which batch, its order in its
 * stage, a user's card settings, an image's signature). A planner never typed any of it, so it
 * is never the point of a conflict and never edited by hand.
 */
const bookkeepingFields: ReadonlySet<string> = new Set([
  'id',
  'created_at',
  'updated_at',
  'deleted_at',
  'plan_id',
  'batch_id',
  'split_from_id',
  'rank',
  // Always null on a card: cards are ordered by rank.
  'position',
  'card_visibility',
  'cover_image_signature',
]);

/** Whether a field is one a planner knows from a screen, not one the app keeps for itself. */
export function plannerField(field: string): boolean {
  return !bookkeepingFields.has(field);
}

/** A field that names another record (a card's stage): chosen on a screen, never typed. */
function referenceField(field: string): boolean {
  return field.endsWith('_id');
}

export interface FieldRow {
  field: string;
  /** What the refused change sent (undefined: it did not touch the field). */
  mine: unknown;
  theirs: unknown;
  /** Whether the change sent this field. */
  sent: boolean;
  differs: boolean;
}

/** Equal as data: same JSON, whatever the key order of objects. */
export function sameValue(a: unknown, b: unknown): boolean {
  return stableJson(a ?? null) === stableJson(b ?? null);
}

function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => a.localeCompare(b));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${stableJson(item)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/**
 * The fields you sent first (in their order), then the server's other fields. A field differs
 * when you sent it and the server's value is not the same — also when the server has no such
 * record at all.
 */
export function conflictRows(mine: Record<string, unknown> | null, theirs: Record<string, unknown> | null): FieldRow[] {
  const sent = Object.keys(mine ?? {});
  const others = Object.keys(theirs ?? {}).filter((field) => !sent.includes(field));
  return [...sent, ...others].filter(plannerField).map((field) => {
    const wasSent = sent.includes(field);
    const theirValue = theirs ? theirs[field] : undefined;
    return {
      field,
      mine: wasSent ? mine![field] : undefined,
      theirs: theirValue,
      sent: wasSent,
      differs: wasSent && (theirs === null || !sameValue(mine![field], theirValue)),
    };
  });
}

/** A value as one line of text; `null` and absent values are empty. */
export function valueText(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return value;
  return JSON.stringify(value);
}

function isScalar(value: unknown): value is string | number | boolean | null {
  return value === null || ['string', 'number', 'boolean'].includes(typeof value);
}

/** The fields a retry lets you edit: the ones you sent that hold a single value a planner types. */
export function editableFields(fields: Record<string, unknown> | null): string[] {
  return Object.entries(fields ?? {})
    .filter(([field, value]) => plannerField(field) && !referenceField(field) && isScalar(value))
    .map(([field]) => field);
}

/** Typed text back into the kind of value the field held: a number stays a number. */
export function parseEdit(original: unknown, text: string): unknown {
  if (typeof original === 'number') {
    const number = Number(text.trim().replace(',', '.'));
    return text.trim() !== '' && Number.isFinite(number) ? number : text;
  }
  if (typeof original === 'boolean') return text === 'true';
  if (text === '' && (original === null || original === undefined)) return null;
  return text === '' ? null : text;
}

/** The body of a retry: only the fields whose text changed, as values. */
export function retryBody(fields: Record<string, unknown> | null, edits: Readonly<Record<string, string>>): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const [field, text] of Object.entries(edits)) {
    const original = fields?.[field];
    const value = parseEdit(original, text);
    if (!sameValue(value, original)) body[field] = value;
  }
  return body;
}
