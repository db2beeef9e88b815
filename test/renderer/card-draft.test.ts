import { describe, expect, it } from 'vitest';
import { translatorFor } from '../../renderer/i18n/index.js';
import { cardChanges, cardDraft } from '../../renderer/views/card/card-draft.js';
import { relationChoices, relationFrom } from '../../renderer/views/card/relation-wording.js';
import { percentShare } from '../../renderer/views/card/split-by.js';

const card = {
  name: 'Frame 1001',
  description: null,
  stage_id: 'welding',
  start_date: '2026-03-02',
  end_date: '2026-03-04',
  start_time: null,
  end_time: '16:30',
};

describe('the card form', () => {
  it('shows missing values as blank inputs', () => {
    expect(cardDraft(card)).toEqual({
      name: 'Frame 1001',
      description: '',
      stage_id: 'welding',
      start_date: '2026-03-02',
      end_date: '2026-03-04',
      start_time: '',
      end_time: '16:30',
    });
  });

  it('sends only what changed, blank as null', () => {
    expect(cardChanges(card, { name: 'Frame 1001', end_date: '2026-03-05', end_time: '', start_time: '07:00' })).toEqual({
      end_date: '2026-03-05',
      end_time: null,
      start_time: '07:00',
    });
    expect(cardChanges(card, {})).toEqual({});
  });

  it('trims a name but keeps a description’s own spacing', () => {
    expect(cardChanges(card, { name: '  Frame 1002 ', description: '  indented\n' })).toEqual({
      name: 'Frame 1002',
      description: '  indented\n',
    });
    expect(cardChanges(card, { name: '   ' })).toEqual({ name: null });
  });
});

describe('the split form', () => {
  it('turns the percentage this card keeps into a share between 0 and 1', () => {
    expect(percentShare('25')).toEqual({ share: 0.25 });
    expect(percentShare(' 50 ')).toEqual({ share: 0.5 });
    for (const text of ['', '0', '100', '-5', 'half']) expect(percentShare(text)).toBeNull();
  });
});

describe('relations as one card reads them', () => {
  const english = translatorFor('en');
  const dutch = translatorFor('nl');

  it('words a relation from either end', () => {
    const relation = { card_id: 'a', related_card_id: 'b', type: 'blocks' as const };
    expect(relationFrom(relation, 'a', english)).toEqual({ otherId: 'b', wording: 'Blocks' });
    expect(relationFrom(relation, 'b', english)).toEqual({ otherId: 'a', wording: 'Blocked by' });
    expect(relationFrom({ ...relation, type: 'depends' }, 'b', english).wording).toBe('Needed by');
    expect(relationFrom({ ...relation, type: 'related' }, 'b', english).wording).toBe('Related to');
  });

  it('words it in the planner’s language, and offers every type to add', () => {
    const relation = { card_id: 'a', related_card_id: 'b', type: 'blocks' as const };
    expect(relationFrom(relation, 'a', dutch).wording).toBe('Blokkeert');
    expect(relationFrom(relation, 'b', dutch).wording).toBe('Geblokkeerd door');
    expect(relationChoices(english)).toEqual([
      { type: 'blocks', text: 'Blocks' },
      { type: 'depends', text: 'Depends on' },
      { type: 'related', text: 'Related to' },
      { type: 'cloned', text: 'Cloned from' },
    ]);
    expect(relationChoices(dutch).map((choice) => choice.text)).toEqual(['Blokkeert', 'Hangt af van', 'Gerelateerd aan', 'Gekloond van']);
  });
});
