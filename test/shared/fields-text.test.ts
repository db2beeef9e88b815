/**
 * Field validation refuses text with an unpaired UTF-16 surrogate (shared/fields.ts), so every
 * caller of the declarations gets the same 422 problem: the API, sync applies and the renderer's
 * own form checks. Pairs (emoji) are ordinary text.
 */
import { describe, expect, it } from 'vitest';
import { checkValue, checkWrite, defineResource, loneSurrogatePath } from '../../shared/fields.js';

const note = defineResource({
  name: 'note',
  title: 'Note',
  fields: {
    title: { type: 'string', required: true, maxLength: 50 },
    kind: { type: 'enum', enum: ['a', '\ud800'] },
    extra: { type: 'json', nullable: true },
  },
});

describe('text fields', () => {
  it('refuse an unpaired surrogate in strings, enums and inside JSON values, naming the field', () => {
    for (const value of ['\ud800', 'x\udc00', '\udbff\ud800', '\ude00\ud83d']) {
      const result = checkValue({ type: 'string' }, value);
      expect(result.ok, JSON.stringify(value)).toBe(false);
    }
    // Even a value the declaration lists is no text SQLite can store.
    expect(checkValue({ type: 'enum', enum: ['\ud800'] }, '\ud800').ok).toBe(false);

    const { problems } = checkWrite(note, { title: 'x\ud800', extra: { list: ['fine', { deep: '\udfff' }] } }, 'create');
    expect(problems.map((p) => p.field).sort()).toEqual(['extra', 'title']);
    expect(problems.find((p) => p.field === 'extra')!.description).toContain('list.1.deep');
    expect(problems.every((p) => p.description.includes('unpaired UTF-16 surrogate'))).toBe(true);
  });

  it('take surrogate pairs, NUL and other unicode as text', () => {
    expect(checkWrite(note, { title: 'Launch 🚀 \u0000 \u202e', extra: { 'k😀': ['😀'] } }, 'create').problems).toEqual([]);
    expect(loneSurrogatePath({ a: ['😀', { b: 'ok' }] })).toBeUndefined();
    expect(loneSurrogatePath({ a: ['😀', { '\ud800': 'ok' }] })).toBe('a.1.\ud800');
  });
});
