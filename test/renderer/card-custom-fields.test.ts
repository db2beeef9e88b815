import { describe, expect, it } from 'vitest';
import {
  cardCustomFields,
  choicesOf,
  toInputValue,
  toStoredValue,
  withCustomFieldValue,
  type CustomFieldDefinition,
} from '../../renderer/views/card/custom-field-values.js';

const definition = (
  name: string,
  type: CustomFieldDefinition['type'],
  extra: Partial<CustomFieldDefinition> = {},
): CustomFieldDefinition => ({
  name,
  type,
  priority: 0,
  scope: 'card',
  list: null,
  ...extra,
});

const sizes = definition('Size', 'select', { list: [{ name: 'Small', value: 's' }, { name: 'Large', value: 'l' }, { name: 'Huge' }] });
const finishes = definition('Finish', 'list', {
  list: [
    { name: 'Matt', value: 1 },
    { name: 'Gloss', value: 2 },
  ],
});

describe('custom field values: stored value → input', () => {
  it('shows numbers, dates and text as text, and nothing as blank', () => {
    expect(toInputValue(definition('Weight', 'number'), 12.5)).toBe('12.5');
    expect(toInputValue(definition('Weight', 'number'), ' 7 ')).toBe('7');
    expect(toInputValue(definition('Weight', 'number'), 'heavy')).toBe('');
    expect(toInputValue(definition('Due', 'date'), '2026-03-02')).toBe('2026-03-02');
    expect(toInputValue(definition('Due', 'date'), '2026-03-02T10:00:00Z')).toBe('2026-03-02');
    expect(toInputValue(definition('Due', 'date'), 'soon')).toBe('');
    expect(toInputValue(definition('Note', 'text'), null)).toBe('');
    expect(toInputValue(definition('Phone', 'phone'), 31612345678)).toBe('31612345678');
  });

  it('reads a checkbox from true, 1 and their text forms', () => {
    const box = definition('Urgent', 'checkbox');
    expect([true, 1, 'true', '1'].map((value) => toInputValue(box, value))).toEqual([true, true, true, true]);
    expect([false, 0, null, 'no'].map((value) => toInputValue(box, value))).toEqual([false, false, false, false]);
  });

  it('shows a select by its choice, also from the public record’s {name, value} form', () => {
    expect(toInputValue(sizes, 'l')).toBe('l');
    expect(toInputValue(sizes, { name: 'Large', value: 'l' })).toBe('l');
    expect(toInputValue(sizes, null)).toBe('');
  });

  it('shows a list as the keys of its ticked choices, one value or many', () => {
    expect(toInputValue(finishes, [1, 2])).toEqual(['1', '2']);
    expect(toInputValue(finishes, 2)).toEqual(['2']);
    expect(toInputValue(finishes, null)).toEqual([]);
  });
});

describe('custom field values: input → stored value', () => {
  it('stores numbers as numbers and clears a blank or unreadable one', () => {
    const weight = definition('Weight', 'number');
    expect(toStoredValue(weight, '12.5')).toBe(12.5);
    expect(toStoredValue(weight, ' ')).toBeNull();
    expect(toStoredValue(weight, 'abc')).toBeNull();
  });

  it('stores a tick as true or false, never null', () => {
    expect(toStoredValue(definition('Urgent', 'checkbox'), true)).toBe(true);
    expect(toStoredValue(definition('Urgent', 'checkbox'), false)).toBe(false);
  });

  it('stores text trimmed, and blank as null; long text keeps its own spacing', () => {
    expect(toStoredValue(definition('Email', 'email'), ' a@b.nl ')).toBe('a@b.nl');
    expect(toStoredValue(definition('Note', 'text'), '   ')).toBeNull();
    expect(toStoredValue(definition('Notes', 'textarea'), '  line 1\nline 2 ')).toBe('  line 1\nline 2 ');
    expect(toStoredValue(definition('Notes', 'textarea'), '\n')).toBeNull();
  });

  it('stores a select as its choice’s own value (a choice without one stands for its name)', () => {
    expect(toStoredValue(sizes, 's')).toBe('s');
    expect(toStoredValue(sizes, 'Huge')).toBe('Huge');
    expect(toStoredValue(sizes, '')).toBeNull();
    expect(choicesOf(sizes).map((choice) => choice.value)).toEqual(['s', 'l', 'Huge']);
  });

  it('stores a list as the values of its ticked choices, typed as the board defines them', () => {
    expect(toStoredValue(finishes, ['2', '1'])).toEqual([1, 2]);
    expect(toStoredValue(finishes, [])).toBeNull();
  });

  it('round-trips every editable type', () => {
    const cases: [CustomFieldDefinition, unknown][] = [
      [definition('Weight', 'number'), 3],
      [definition('Due', 'date'), '2026-03-02'],
      [definition('Urgent', 'checkbox'), true],
      [definition('Site', 'link'), 'https://example.com'],
      [sizes, 'l'],
      [finishes, [2]],
      [definition('Notes', 'textarea'), 'two\nlines'],
    ];
    for (const [field, value] of cases) expect(toStoredValue(field, toInputValue(field, value))).toEqual(value);
  });
});

describe('the list a PUT sends', () => {
  it('replaces one value in place and keeps the others, extra keys and all', () => {
    const values = [
      { name: 'Weight', type: 'number', value: 3, priority: 1, unit: 'kg' },
      { name: 'Colour', type: 'text', value: 'red' },
    ];
    expect(withCustomFieldValue(values, definition('Weight', 'number', { priority: 1 }), 4)).toEqual([
      { name: 'Weight', type: 'number', value: 4, priority: 1, unit: 'kg' },
      { name: 'Colour', type: 'text', value: 'red' },
    ]);
    expect(values[0]!.value).toBe(3);
  });

  it('adds a value the card did not have yet with the definition’s type and priority', () => {
    expect(withCustomFieldValue([], definition('Due', 'date', { priority: 2 }), '2026-03-02')).toEqual([
      { name: 'Due', type: 'date', value: '2026-03-02', priority: 2 },
    ]);
  });
});

describe('the fields a card shows', () => {
  it('shows the board’s card fields in priority order, then values without a definition as read-only', () => {
    const fields = cardCustomFields(
      [
        definition('B', 'text', { priority: 2 }),
        definition('A', 'number', { priority: 1 }),
        definition('Collection only', 'text', { scope: 'collection' }),
      ],
      [
        { name: 'A', value: 5 },
        { name: 'Legacy', type: 'text', value: 'kept' },
      ],
    );
    expect(fields.map((field) => [field.definition.name, field.value, field.orphan])).toEqual([
      ['A', 5, false],
      ['B', null, false],
      ['Legacy', 'kept', true],
    ]);
  });
});
