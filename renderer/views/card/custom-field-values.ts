/**
 * A card's custom fields: the board's definitions (name, type, choices) and the card's values
 * (`custom_fields: [{name, type, value, …}]`, matched by name). Inputs hold text, a tick or a
 * set of ticks; the API stores typed JSON. These functions turn one into the other, and make
 * the whole list a PUT sends (a sent list replaces the card's values, so the others go along
 * unchanged, extra keys and all).
 *
 * `select` is one choice, `list` any number of them (an array of the choices' values). Types
 * this panel has no input for (address, drawing, users) are shown as text and never written.
 */
import type { BoardCustomField } from '../../../shared/resources/board.js';

export type CustomFieldDefinition = Pick<BoardCustomField, 'name' | 'type' | 'priority' | 'scope' | 'list'>;

export interface CustomFieldValue {
  name: string;
  type?: string;
  value?: unknown;
  priority?: number;
  [other: string]: unknown;
}

export interface Choice {
  name: string;
  value: unknown;
}

/** What an input holds: text for most types, a tick for checkbox, ticked choices for list. */
export type InputValue = string | boolean | string[];

export const editableTypes = ['text', 'number', 'date', 'checkbox', 'email', 'link', 'phone', 'list', 'select', 'textarea'] as const;
export type EditableType = (typeof editableTypes)[number];

export function isEditableType(type: string): type is EditableType {
  return (editableTypes as readonly string[]).includes(type);
}

/** The choices of a list or select field; a choice without a value stands for its name. */
export function choicesOf(definition: Pick<CustomFieldDefinition, 'list'>): Choice[] {
  return (definition.list ?? []).flatMap((item) => {
    if (typeof item !== 'object' || item === null) return [];
    const { name, value } = item as { name?: unknown; value?: unknown };
    if (typeof name !== 'string') return [];
    return [{ name, value: value ?? name }];
  });
}

/** A choice's value as an `<option value>` or checkbox key. */
export function choiceKey(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value ?? null);
}

/** What the input for `definition` shows for a stored value. */
export function toInputValue(definition: Pick<CustomFieldDefinition, 'type'>, value: unknown): InputValue {
  switch (definition.type) {
    case 'checkbox':
      return value === true || value === 1 || value === 'true' || value === '1';
    case 'list':
      if (Array.isArray(value)) return value.map(choiceKey);
      return value === null || value === undefined || value === '' ? [] : [choiceKey(value)];
    case 'select':
      if (value === null || value === undefined) return '';
      // The public record also knows `selected: {name, value}` objects.
      if (typeof value === 'object' && !Array.isArray(value) && 'value' in value) return choiceKey((value as { value: unknown }).value);
      return choiceKey(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value)
        ? String(value)
        : typeof value === 'string' && isNumberText(value)
          ? value.trim()
          : '';
    case 'date':
      return typeof value === 'string' && /^\d{4}-\d{2}-\d{2}/.test(value) ? value.slice(0, 10) : '';
    default:
      if (value === null || value === undefined) return '';
      return typeof value === 'object' ? JSON.stringify(value) : String(value);
  }
}

/**
 * What is stored for what the input holds. Blank clears the value (null); a number input
 * whose text is not a number also clears it, as the browser hands such a field over blank.
 */
export function toStoredValue(definition: Pick<CustomFieldDefinition, 'type' | 'list'>, input: InputValue): unknown {
  switch (definition.type) {
    case 'checkbox':
      return input === true;
    case 'list': {
      const ticked = new Set(Array.isArray(input) ? input : []);
      const values = choicesOf(definition)
        .filter((choice) => ticked.has(choiceKey(choice.value)))
        .map((choice) => choice.value);
      return values.length > 0 ? values : null;
    }
    case 'select': {
      if (typeof input !== 'string' || input === '') return null;
      const choice = choicesOf(definition).find((candidate) => choiceKey(candidate.value) === input);
      return choice ? choice.value : input;
    }
    case 'number': {
      const text = typeof input === 'string' ? input.trim() : '';
      return isNumberText(text) ? Number(text) : null;
    }
    case 'textarea':
      return typeof input === 'string' && input.trim() !== '' ? input : null;
    default: {
      const text = typeof input === 'string' ? input.trim() : '';
      return text === '' ? null : text;
    }
  }
}

function isNumberText(text: string): boolean {
  return text.trim() !== '' && Number.isFinite(Number(text));
}

/**
 * The card's whole list with one field set to `value`: the value is replaced in place (its
 * other keys kept), or added with the definition's type and priority.
 */
export function withCustomFieldValue(
  values: readonly CustomFieldValue[],
  definition: CustomFieldDefinition,
  value: unknown,
): CustomFieldValue[] {
  let found = false;
  const next = values.map((item) => {
    if (item.name !== definition.name) return item;
    found = true;
    return { ...item, type: definition.type, value };
  });
  if (!found) next.push({ name: definition.name, type: definition.type, value, priority: definition.priority });
  return next;
}

export interface CardCustomField {
  definition: CustomFieldDefinition;
  value: unknown;
  /** A value the card has without a definition on the board: shown, never edited. */
  orphan: boolean;
}

/**
 * What the panel shows: the board's card fields in priority order with the card's values,
 * then values the card holds for fields the board does not define (any more).
 */
export function cardCustomFields(definitions: readonly CustomFieldDefinition[], values: readonly CustomFieldValue[]): CardCustomField[] {
  const byName = new Map(values.map((item) => [item.name, item]));
  const shown = definitions
    .filter((definition) => definition.scope === 'card')
    .map((definition, order) => ({ definition, order }))
    .sort((a, b) => a.definition.priority - b.definition.priority || a.order - b.order)
    .map(({ definition }) => ({ definition, value: byName.get(definition.name)?.value ?? null, orphan: false }));
  const named = new Set(shown.map((field) => field.definition.name));
  const orphans = values
    .filter((item) => !named.has(item.name))
    .map((item) => ({
      definition: {
        name: item.name,
        type: (item.type ?? 'text') as CustomFieldDefinition['type'],
        priority: item.priority ?? 0,
        scope: 'card' as const,
        list: null,
      },
      value: item.value ?? null,
      orphan: true,
    }));
  return [...shown, ...orphans];
}
