import { describe, expect, it } from 'vitest';
import {
  conflictRows,
  editableFields,
  parseEdit,
  plannerField,
  retryBody,
  sameValue,
  valueText,
} from '../../renderer/views/sync/conflict-diff.js';

describe('a refused change beside the server record', () => {
  it('lists the fields you sent first, then the server’s others, without bookkeeping', () => {
    const rows = conflictRows(
      { name: 'Alpha', external_ref: 'X', id: 'p1', updated_at: '2026-11-20T10:00:00Z' },
      { id: 'p1', name: 'Alpha', external_ref: 'Y', code: 'A-1', created_at: '2026-11-01T00:00:00Z' },
    );
    expect(rows.map((row) => row.field)).toEqual(['name', 'external_ref', 'code']);
    expect(rows.map((row) => [row.field, row.sent, row.differs])).toEqual([
      ['name', true, false],
      ['external_ref', true, true],
      ['code', false, false],
    ]);
    expect(rows[2]!.mine).toBeUndefined();
    expect(rows[2]!.theirs).toBe('A-1');
  });

  it('leaves out what the app keeps for itself: which planning made a card, its rank, image signatures', () => {
    const rows = conflictRows(
      { stage_id: 's2', rank: 'aaaaab', plan_id: 'p9' },
      { stage_id: 's1', rank: 'aaaaaa', plan_id: 'p1', batch_id: 'b1', cover_image_signature: 'x', start_date: '2026-12-07' },
    );
    expect(rows.map((row) => row.field)).toEqual(['stage_id', 'start_date']);
    expect(['plan_id', 'batch_id', 'card_visibility', 'cover_image_signature'].some(plannerField)).toBe(false);
    expect(plannerField('name')).toBe(true);
  });

  it('marks every field you sent as different when the server has no such record', () => {
    const rows = conflictRows({ name: 'Alpha', external_ref: 'X' }, null);
    expect(rows.every((row) => row.differs && row.theirs === undefined)).toBe(true);
  });

  it('compares values as data, whatever the key order', () => {
    expect(sameValue({ a: 1, b: [1, { c: 2, d: 3 }] }, { b: [1, { d: 3, c: 2 }], a: 1 })).toBe(true);
    expect(sameValue([1, 2], [2, 1])).toBe(false);
    expect(sameValue(null, undefined)).toBe(true);
    expect(conflictRows({ workdays: { 1: true, 2: false } }, { workdays: { 2: false, 1: true } })[0]!.differs).toBe(false);
  });

  it('shows values as text: strings as they are, the rest as JSON, nothing for null', () => {
    expect(valueText('X')).toBe('X');
    expect(valueText(12)).toBe('12');
    expect(valueText({ a: 1 })).toBe('{"a":1}');
    expect(valueText(null)).toBe('');
    expect(valueText(undefined)).toBe('');
  });
});

describe('retrying after an edit', () => {
  const fields = { name: 'Alpha', external_ref: 'X', quantity: 3, billable: true, notes: null, labels: [{ id: 'l1' }], id: 'p1' };

  it('lets you edit the single-value fields you sent, not lists, bookkeeping or references to other records', () => {
    expect(editableFields(fields)).toEqual(['name', 'external_ref', 'quantity', 'billable', 'notes']);
    expect(editableFields({ name: 'Alpha', stage_id: 's2', rank: 'aaaaab' })).toEqual(['name']);
    expect(editableFields(null)).toEqual([]);
  });

  it('types the text back into the field’s kind of value', () => {
    expect(parseEdit(3, '4')).toBe(4);
    expect(parseEdit(3, '4,5')).toBe(4.5);
    expect(parseEdit(3, 'four')).toBe('four');
    expect(parseEdit(true, 'false')).toBe(false);
    expect(parseEdit(null, '')).toBeNull();
    expect(parseEdit(null, 'note')).toBe('note');
    expect(parseEdit('X', '')).toBeNull();
  });

  it('sends only the fields whose value changed', () => {
    expect(retryBody(fields, { name: 'Alpha', external_ref: 'Y', quantity: '3', billable: 'true', notes: '' })).toEqual({
      external_ref: 'Y',
    });
    expect(retryBody(fields, { quantity: '5', notes: 'late' })).toEqual({ quantity: 5, notes: 'late' });
  });
});
