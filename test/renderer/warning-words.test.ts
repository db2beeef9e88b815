/**
 * A collection's warnings in the planner's language, dates as the screen shows them
 * (renderer/components/warning-words.ts): from the warnings the real API writes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { warningText } from '../../renderer/components/warning-words.js';
import { translatorFor } from '../../renderer/i18n/index.js';
import { startTestApi, type TestApi } from '../helpers/api.js';

const en = translatorFor('en');
const nl = translatorFor('nl');

let api: TestApi;
beforeAll(async () => {
  api = await startTestApi();
});
afterAll(async () => {
  await api.close();
});

describe('collection warnings', () => {
  it('writes the due-date warning of a real planned collection with the screen’s dates, in English and Dutch', async () => {
    const board = (
      await api.http('POST', '/v1/board?with=stages', {
        name: 'Shop',
        statuses: [{ name: 'Ready', priority: 0, entry: true, exit: false }],
        stages: [{ name: 'Saw', priority: 0 }],
      })
    ).body;
    const collection = (await api.http('POST', '/v1/collection', { name: 'SO-1', board_id: board.id, due_date: '2026-11-30' })).body;
    const card = await api.http('POST', `/v1/collection/${collection.id}/card`, {
      stage_id: board.stages[0].id,
      start_date: '2026-12-01',
      end_date: '2026-12-02',
    });
    expect(card.status, JSON.stringify(card.body)).toBe(201);
    const warnings = (await api.http('GET', `/v1/collection/${collection.id}`)).body.warnings;
    expect(warnings).toEqual(['Planned to end on 2026-12-02, after the due date 2026-11-30']);
    expect(warningText(warnings[0], en)).toBe('Planned to end on Wed 2 Dec, after the due date Mon 30 Nov');
    expect(warningText(warnings[0], nl)).toBe('Gepland tot wo 2 dec, na de uiterste datum ma 30 nov');
  });

  it('writes a stage that starts too early with both dates as the screen’s', () => {
    const warning = 'Stage Weld starts on 2026-12-01, before stage Saw is done (earliest 2026-12-03)';
    expect(warningText(warning, en)).toBe('Stage Weld starts on Tue 1 Dec, before stage Saw is done (earliest Thu 3 Dec)');
  });

  it('shows a warning of another form as the API wrote it', () => {
    expect(warningText('Something new', en)).toBe('Something new');
  });
});
