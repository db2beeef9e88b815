import { describe, expect, it } from 'vitest';
import { catalogues } from '../../renderer/i18n/catalogues.js';
import { createTranslate } from '../../renderer/i18n/translate.js';
import {
  assignmentText,
  colorInputValue,
  newResourceDraft,
  resourceBody,
  resourceDraftFrom,
  type BoardWithStages,
} from '../../renderer/views/resources/resource-draft.js';
import type { Resource } from '../../shared/resources/resource.js';

const boards = [
  {
    id: 'b1',
    name: 'Kitchen line',
    stages: [
      { id: 's1', name: 'Sawing', priority: 0, default_percentage: 100 },
      { id: 's2', name: 'Painting', priority: 1, default_percentage: 100 },
    ],
  },
  { id: 'b2', name: 'Bathroom line', stages: [{ id: 's3', name: 'Tiling', priority: 0, default_percentage: 100 }] },
] as unknown as BoardWithStages[];

const anna = {
  id: 'r1',
  name: 'Anna',
  type: 'employee',
  color_hex: '#36c',
  workdays: { '1': 8, '2': 8, '3': 8, '4': 8, '5': 8, '6': 4, '7': null },
  start_date: '2026-01-05',
  end_date: null,
  boards: [
    {
      id: 'b1',
      active: true,
      stages: [
        { id: 's1', percentage: 50, active: true },
        { id: 'gone', percentage: 20, active: true },
      ],
    },
    { id: 'deleted-board', active: true, stages: [{ id: 's9', percentage: 100, active: true }] },
  ],
} as unknown as Resource;

describe('resource draft', () => {
  it('saves the stages worked on grouped by board, dropping boards and stages that no longer exist', () => {
    const draft = resourceDraftFrom(anna);
    draft.stages.push({ boardId: 'b1', stageId: 's2', percentage: '50', active: true });
    expect(resourceBody(draft, boards, false).boards).toEqual([
      {
        id: 'b1',
        active: true,
        stages: [
          { id: 's1', percentage: 50, active: true },
          { id: 's2', percentage: 50, active: true },
        ],
      },
    ]);
  });

  it('sends blank hours as null (not working that day) and blank dates as null', () => {
    const draft = { ...newResourceDraft(), name: 'Press 1' };
    draft.hours['1'] = '7.5';
    const body = resourceBody(draft, boards, true);
    expect(body.workdays).toEqual({ '1': 7.5, '2': 8, '3': 8, '4': 8, '5': 8, '6': null, '7': null });
    expect(body.start_date).toBeNull();
    expect(body.boards).toEqual([]);
  });

  it('shows a short stored colour in the long form a colour input needs', () => {
    expect(colorInputValue('#36c')).toBe('#3366cc');
    expect(colorInputValue('#3366cc')).toBe('#3366cc');
    expect(colorInputValue(null)).toMatch(/^#[0-9a-f]{6}$/);
  });

  it('says where a resource works, by board and stage name', () => {
    expect(assignmentText(anna, boards, createTranslate(catalogues, 'en'))).toEqual(['Kitchen line: Sawing 50%']);
    const both = {
      ...anna,
      boards: [
        {
          id: 'b1',
          active: true,
          stages: [
            { id: 's1', percentage: 50, active: true },
            { id: 's2', percentage: 50, active: true },
          ],
        },
      ],
    } as unknown as Resource;
    expect(assignmentText(both, boards, createTranslate(catalogues, 'nl'))).toEqual(['Kitchen line: Sawing 50%, Painting 50%']);
  });
});
