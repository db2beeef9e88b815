/**
 * The one check of custom field values (shared/custom-fields.ts) that inline writes, the
 * by-name route and synced changes share: values against their type, the server's id and
 * timestamps, matching by name, and the parts a board's definitions reuse. The API tests
 * (test/api/custom-fields.test.ts) show the same rules over HTTP.
 */
import { describe, expect, it } from 'vitest';
import {
  checkCustomFieldChoices,
  checkCustomFieldOptions,
  checkCustomFieldValue,
  checkCustomFieldValues,
  customFieldTypes,
} from '../../shared/custom-fields.js';

const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const t0 = '2026-01-05T08:00:00Z';
const t1 = '2026-01-06T09:30:00Z';

const check = (items: unknown[], previous?: unknown, trusted = false, now = t1) =>
  checkCustomFieldValues(items, { scope: 'collection', previous, trusted, now });
const fields = (result: { problems: { field: string }[] }) => result.problems.map((p) => p.field).sort();

describe('values by type', () => {
  const good: [string, unknown, unknown][] = [
    ['text', 'RAL 9010', 'RAL 9010'],
    ['textarea', 'line 1\nline 2', 'line 1\nline 2'],
    ['number', 12.5, 12.5],
    ['number', ' -3 ', -3],
    ['number', '1e3', 1000],
    ['date', '2026-02-28', '2026-02-28'],
    ['checkbox', false, false],
    ['email', 'buyer@example.com', 'buyer@example.com'],
    ['link', 'https://example.com/drawing.pdf', 'https://example.com/drawing.pdf'],
    ['phone', '+31 (0)20 123-4567', '+31 (0)20 123-4567'],
    ['select', 'matt', 'matt'],
    ['select', 2, 2],
    ['list', ['a', 1], ['a', 1]],
    ['address', 'Damrak 1, Amsterdam', 'Damrak 1, Amsterdam'],
    ['address', { city: 'Amsterdam' }, { city: 'Amsterdam' }],
    ['drawing', 'sketch-7', 'sketch-7'],
    ['users', ['0190F3A0-0000-7000-8000-000000000001'], ['0190f3a0-0000-7000-8000-000000000001']],
  ];
  it.each(good)('%s accepts %j (stored as %j)', (type, value, stored) => {
    expect(checkCustomFieldValue(type as never, value, null)).toEqual({ ok: true, value: stored });
  });

  it.each(customFieldTypes)('%s accepts null (no value)', (type) => {
    expect(checkCustomFieldValue(type, null, null)).toEqual({ ok: true, value: null });
  });

  const bad: [string, unknown][] = [
    ['text', 12],
    ['textarea', { a: 1 }],
    ['number', 'twelve'],
    ['number', ''],
    ['number', true],
    ['date', '2026-02-30'],
    ['date', '28-02-2026'],
    ['checkbox', 'true'],
    ['checkbox', 1],
    ['email', 'not-an-address'],
    ['link', 'ftp://example.com/x'],
    ['phone', 'call me'],
    ['select', ['a']],
    ['select', { value: 'a' }],
    ['list', 'a'],
    ['list', [{ value: 'a' }]],
    ['address', 12],
    ['drawing', 7],
    ['users', ['not-a-uuid']],
    ['users', 'some user'],
  ];
  it.each(bad)('%s refuses %j', (type, value) => {
    const result = checkCustomFieldValue(type as never, value, null);
    expect(result.ok).toBe(false);
  });

  it('select and list values must be among the choices the item carries, when it carries any', () => {
    const list = [{ name: 'Matt', value: 'matt' }, { name: 'Gloss' }, { name: 'Two', value: 2 }];
    expect(checkCustomFieldValue('select', 'matt', list).ok).toBe(true);
    expect(checkCustomFieldValue('select', 'Gloss', list).ok).toBe(true); // a choice without a value stands for its name
    expect(checkCustomFieldValue('select', 'satin', list).ok).toBe(false);
    expect(checkCustomFieldValue('list', ['matt', 2], list).ok).toBe(true);
    expect(checkCustomFieldValue('list', ['matt', 3], list).ok).toBe(false);
    expect(checkCustomFieldValue('select', 'anything', []).ok).toBe(true);
  });
});

describe('a list of values', () => {
  it("fills the 13 fields of a custom field value: defaults, the owner's scope, an id and the time of the write", () => {
    const { value, problems } = check([{ name: 'Colour', value: 'red', extra: 'dropped' }]);
    expect(problems).toEqual([]);
    expect(value).toEqual([
      {
        id: expect.stringMatching(uuid),
        name: 'Colour',
        type: 'text',
        scope: 'collection',
        priority: 0,
        value: 'red',
        drawing_id: null,
        components: null,
        list: null,
        selected: null,
        options: null,
        created_at: t1,
        updated_at: t1,
      },
    ]);
    expect(Object.keys(value[0]!)).toHaveLength(13);
    expect(checkCustomFieldValues([{ name: 'Colour' }], { scope: 'card' }).value[0]!.scope).toBe('card');
  });

  it('keeps the id and created_at of a name; updated_at moves only when its content changes', () => {
    const stored = check(
      [
        { name: 'Weight', type: 'number', value: 12 },
        { name: 'Colour', value: 'red' },
      ],
      undefined,
      false,
      t0,
    ).value;
    const next = check(
      [
        { name: 'Colour', value: 'red' },
        { name: 'Weight', value: 13 },
      ],
      stored,
    ).value;
    const weight = next.find((v) => v.name === 'Weight')!;
    const colour = next.find((v) => v.name === 'Colour')!;
    expect(weight).toMatchObject({ id: stored[0]!.id, type: 'number', value: 13, created_at: t0, updated_at: t1 });
    expect(colour).toEqual(stored[1]);
  });

  it('ignores an id and timestamps a client sends; takes them from a replica (trusted)', () => {
    const sent = {
      name: 'A',
      id: '0190f3a0-0000-7000-8000-0000000000aa',
      created_at: '2020-01-01T00:00:00Z',
      updated_at: '2020-01-02T00:00:00Z',
    };
    const client = check([sent]).value[0]!;
    expect(client.id).not.toBe(sent.id);
    expect([client.created_at, client.updated_at]).toEqual([t1, t1]);
    const replica = check([sent], undefined, true).value[0]!;
    expect(replica).toMatchObject({ id: sent.id, created_at: sent.created_at, updated_at: sent.updated_at });
    expect(fields(check([{ ...sent, id: 'nope' }], undefined, true))).toEqual(['0.id']);
  });

  it('a name dropped and sent again is a new value with a new id', () => {
    const stored = check([{ name: 'A' }], undefined, false, t0).value;
    const gone = check([], stored).value;
    expect(check([{ name: 'A' }], gone).value[0]!.id).not.toBe(stored[0]!.id);
  });

  it('merges an item onto the stored one of its name: keys not sent keep their value', () => {
    const stored = check(
      [{ name: 'Finish', type: 'select', list: [{ name: 'Matt', value: 'matt' }], value: 'matt', priority: 4 }],
      undefined,
      false,
      t0,
    ).value;
    const next = check([{ name: 'Finish', value: null }], stored);
    expect(next.problems).toEqual([]);
    expect(next.value[0]).toMatchObject({ type: 'select', list: [{ name: 'Matt', value: 'matt' }], value: null, priority: 4 });
    expect(fields(check([{ name: 'Finish', value: 'satin' }], stored))).toEqual(['0.value']);
  });

  it('reports every problem with its path in the list', () => {
    const result = check([
      { name: 'A', type: 'nonsense', scope: 'zzz', value: { deep: [1] } },
      { name: 'B', type: 'number', value: 'x', priority: -1 },
      'C',
      { name: 'A' },
      { type: 'text' },
      { name: 'D', type: 'select', list: [{ name: 'x' }], selected: { name: 'y' } },
      { name: 'E', list: { not: 'an array' }, options: { decimals: 1.5 }, components: { latitude: 'north' }, drawing_id: 'x' },
    ]);
    expect(fields(result)).toEqual(
      [
        '0.type',
        '0.scope',
        '1.value',
        '1.priority',
        '2',
        '3.name',
        '4.name',
        '5.selected',
        '6.list',
        '6.options',
        '6.components',
        '6.drawing_id',
      ].sort(),
    );
    for (const p of result.problems) expect(p.description.startsWith(`${p.field} `)).toBe(true);
  });

  it('does not check again an item sent back exactly as stored, even one that would no longer pass', () => {
    const legacy = [{ id: '0190f3a0-0000-7000-8000-0000000000bb', name: 'Old', type: 'text', value: 42, created_at: t0, updated_at: t0 }];
    const again = check([{ name: 'Old', type: 'text', value: 42 }], legacy);
    expect(again.problems).toEqual([]);
    expect(again.value[0]).toMatchObject({ id: legacy[0]!.id, value: 42, updated_at: t0 });
    // Changed, it must pass as a whole.
    expect(fields(check([{ name: 'Old', priority: 2 }], legacy))).toEqual(['0.value']);
  });
});

describe('parts shared with board definitions', () => {
  it('checks choices and options', () => {
    expect(
      checkCustomFieldChoices([{ name: 'Matt', value: 'matt', color: 'grey' }, { name: 'Two', value: 2 }, { name: 'Bare' }]),
    ).toBeNull();
    for (const bad of [{ name: 'x' }, [{ value: 'x' }], [{ name: '' }], [{ name: 'x', value: {} }], [{ name: 'x', color: 3 }], ['x']]) {
      expect(checkCustomFieldChoices(bad), JSON.stringify(bad)).not.toBeNull();
    }
    expect(checkCustomFieldOptions({ unit: 'kg', align: 'right', decimals: 2, other: true })).toBeNull();
    for (const bad of [[], { unit: 5 }, { decimals: -1 }, { decimals: 1.5 }, { align: 'x'.repeat(51) }]) {
      expect(checkCustomFieldOptions(bad), JSON.stringify(bad)).not.toBeNull();
    }
  });
});
