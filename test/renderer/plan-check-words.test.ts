import { describe, expect, it } from 'vitest';
import { translatorFor } from '../../renderer/i18n/index.js';
import { changeText, findingText } from '../../renderer/views/sync/plan-check-words.js';

const en = translatorFor('en');
const nl = translatorFor('nl');
const laser = { resource: 'stage' as const, id: '0190a0a0-0000-7000-8000-000000000001', name: 'Laser' };

describe("a plan check finding in the planner's words", () => {
  it('says what the merge made wrong, from its kind and figures, in English and Dutch', () => {
    const overload = {
      kind: 'over_capacity' as const,
      record: laser,
      date: '2026-12-10',
      details: { planned_minutes: 600, available_minutes: 480 },
    };
    expect(findingText(overload, en)).toBe('Stage Laser is over capacity on Thu 10 Dec: 10 h planned, 8 h available.');
    expect(findingText(overload, nl)).toBe('Fase Laser zit op do 10 dec boven de capaciteit: 10 h gepland, 8 h beschikbaar.');
    const anna = { resource: 'resource' as const, id: '0190a0a0-0000-7000-8000-000000000002', name: 'Anna' };
    const twoCards = {
      kind: 'double_booking' as const,
      record: anna,
      date: '2026-12-08',
      details: { card: 'SO-X · Laser', other_card: 'SO-Y · Laser', start: '2026-12-08', end: '2026-12-09' },
    };
    expect(findingText(twoCards, en)).toBe('Anna is on SO-X · Laser and SO-Y · Laser at once, from Tue 8 Dec to Wed 9 Dec.');
    const late = {
      kind: 'late_collection' as const,
      record: { resource: 'collection' as const, id: laser.id, name: 'SO-L' },
      date: null,
      details: { end: '2026-12-11', due_date: '2026-12-10', promised: 1 },
    };
    expect(findingText(late, en)).toBe('SO-L is planned to end on Fri 11 Dec, after the date promised to the customer Thu 10 Dec.');
  });

  it('names the change that made it and the computer', () => {
    const base = { record_id: laser.id, changed_by: '3f9a1c0b2d4e', changed_at: '2026-12-07T09:00:01.000Z', record_name: 'SO-A' };
    expect(changeText({ ...base, resource: 'card', fields: [], created: true }, en)).toMatch(
      /^card “SO-A” made on another computer \(3f9a1c\) on .+$/,
    );
    expect(changeText({ ...base, resource: 'card', fields: ['end_date'], created: false }, nl)).toMatch(
      /^Einddatum van kaart “SO-A” gewijzigd op een andere computer \(3f9a1c\) op .+$/,
    );
  });
});
