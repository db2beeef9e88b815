import { describe, expect, it } from 'vitest';
import { translatorFor } from '../../renderer/i18n/index.js';
import { changedBy, fieldLabel, resourceWord, valueText } from '../../renderer/views/sync/overruled-words.js';

const en = translatorFor('en');
const nl = translatorFor('nl');

describe("an overruled change in a planner's words", () => {
  it("names a field by the label its screen gives it, in the planner's language", () => {
    expect(fieldLabel('card', 'name', en)).toBe('Card name');
    expect(fieldLabel('card', 'stage_id', en)).toBe('Stage');
    expect(fieldLabel('card', 'name', nl)).toBe('Naam van de kaart');
    expect(fieldLabel('order', 'promised_date', en)).toBe('Promised date');
    expect(fieldLabel('order_row', 'quantity', en)).toBe('Quantity');
    expect(fieldLabel('project', 'name', nl)).toBe('Naam');
    // No screen labels it: its name in words, never the API's spelling.
    expect(fieldLabel('project', 'hourly_rate', en)).toBe('Hourly rate');
    expect(fieldLabel('project', 'relation_id', en)).toBe('Relation');
  });

  it('names the kind of record', () => {
    expect(resourceWord('order_row', en)).toBe('order row');
    expect(resourceWord('card', nl)).toBe('kaart');
    expect(resourceWord('custom_thing', en)).toBe('custom thing');
  });

  it('shows values as the screens do: a named record by its name, dates as dates, nothing as empty', () => {
    expect(valueText('0190a0a0-0000-7000-8000-000000000000', 'Build', en)).toBe('Build');
    expect(valueText('Weld frame', null, en)).toBe('“Weld frame”');
    expect(valueText('2026-12-07', null, en)).toBe('Mon, 7 Dec 2026');
    expect(valueText(null, null, en)).toBe('(empty)');
    expect(valueText('', null, nl)).toBe('(leeg)');
    expect(valueText(true, null, en)).toBe('Yes');
    expect(valueText(1500, null, en)).toBe('1,500');
  });

  it('says which computer changed it', () => {
    expect(changedBy({ changed_by: '3f9a1c0b2d4e' }, en)).toBe('another computer (3f9a1c)');
  });
});
