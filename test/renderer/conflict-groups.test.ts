/**
 * A refused action in the conflict list (docs/API.md "Sync", "Actions sync whole"): one entry,
 * said as the planner did it, in the planner's language; a single refused change is still said
 * by its record.
 */
import { describe, expect, it } from 'vitest';
import { translatorFor } from '../../renderer/i18n/index.js';
import { refusedAction } from '../../renderer/views/sync/sync-words.js';
import type { ConflictItem } from '../../shared/operations/sync.js';

const en = translatorFor('en');
const nl = translatorFor('nl');

const item = (n: number): ConflictItem => ({
  mutation: {
    mutation_id: n,
    resource: 'card',
    id: `0190a0a0-0000-7000-8000-00000000000${n}`,
    op: 'update',
    fields: { start_date: '2026-12-15' },
    hlc: 'x',
  },
  error: null,
  server_record: null,
});

describe('a refused action in the conflict list', () => {
  it('says a refused move of 5 cards once, by its description, with how many changes it held', () => {
    const group = { id: 'g', description: 'Move 5 cards', items: [1, 2, 3, 4, 5].map(item) };
    expect(refusedAction({ group }, en)).toBe('Your action “Move 5 cards” was refused: none of its 5 changes reached the server');
    expect(refusedAction({ group }, nl)).toBe('Je actie “Move 5 cards” is geweigerd: geen van de 5 wijzigingen is op de server gekomen');
    expect(refusedAction({ group: { ...group, description: null } }, en)).toContain('“an action”');
  });

  it('leaves a single refused change to be said by its record', () => {
    expect(refusedAction({}, en)).toBeNull();
    expect(refusedAction({ group: { id: 'g', description: 'Edit card', items: [item(1)] } }, en)).toBeNull();
  });
});
