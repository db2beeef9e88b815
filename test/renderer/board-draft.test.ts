import { describe, expect, it } from 'vitest';
import {
  boardBody,
  boardDraftFrom,
  boardFormInputs,
  moveItem,
  newBoardDraft,
  newLabel,
  newStage,
  newStatus,
  sameRows,
  withoutDeletedActivities,
  type BoardDraft,
} from '../../renderer/views/boards/board-draft.js';
import type { BoardWithParts } from '../../renderer/views/boards/board-with-parts.js';

function savedBoard(): BoardWithParts {
  const stage = (id: string, name: string, priority: number, activities: { id: string; priority: number }[] = []) =>
    ({
      id,
      name,
      priority,
      delay_day: 0,
      independent: false,
      efficiency: 100,
      setup_minutes: 30,
      activities,
    }) as unknown as BoardWithParts['stages'][number];
  return {
    id: 'b1',
    name: 'Kitchen line',
    color: 'teal',
    workdays: { '1': true, '2': true, '3': true, '4': true, '5': true, '6': true, '7': false },
    dependency_behavior: 'push',
    capacity_method: 'none',
    split_cards_by_activity: true,
    own_backlog: true,
    // Deliberately out of order: the draft follows priority, not the order received.
    stages: [
      stage('s2', 'Painting', 1, [
        { id: 'a2', priority: 1 },
        { id: 'a1', priority: 0 },
      ]),
      stage('s1', 'Cutting', 0),
    ],
    statuses: [{ id: 't1', name: 'To do', color: 'grey', priority: 0, entry: true, exit: false }],
    labels: [{ id: 'l1', name: 'Rush', color: 'red', priority: 0 }],
  } as unknown as BoardWithParts;
}

describe('board draft', () => {
  it('starts a new board with the defaults the API declares', () => {
    const draft = newBoardDraft();
    expect(draft).toMatchObject({
      id: null,
      color: 'transparent',
      dependency_behavior: 'notify',
      capacity_method: 'individual',
      own_backlog: false,
      workdays: { '1': true, '5': true, '6': false, '7': false },
    });
    expect(newStage()).toMatchObject({ delay_day: '0', efficiency: '100', setup_minutes: '0', independent: false, activityIds: [] });
  });

  it('reads a saved board with stages, statuses and labels in priority order', () => {
    const draft = boardDraftFrom(savedBoard());
    expect(draft.stages.map((s) => s.name)).toEqual(['Cutting', 'Painting']);
    expect(draft.stages[1]!.activityIds).toEqual(['a1', 'a2']);
    expect(draft.workdays['6']).toBe(true);
    expect(draft.statuses[0]).toMatchObject({ id: 't1', entry: true });
    expect(draft.own_backlog).toBe(true);
    expect(boardBody({ ...draft, own_backlog: false }).own_backlog).toBe(false);
  });

  it('saves priority as the order on screen, keeping ids so the API updates instead of recreating', () => {
    const draft = boardDraftFrom(savedBoard());
    const added = { ...newStage(), name: 'Drying', delay_day: '2', setup_minutes: '15' };
    const body = boardBody({ ...draft, stages: moveItem([...draft.stages, added], 2, 0) });
    expect(body.stages).toEqual([
      { name: 'Drying', priority: 0, delay_day: 2, independent: false, efficiency: 100, setup_minutes: 15, activities: [] },
      { id: 's1', name: 'Cutting', priority: 1, delay_day: 0, independent: false, efficiency: 100, setup_minutes: 30, activities: [] },
      {
        id: 's2',
        name: 'Painting',
        priority: 2,
        delay_day: 0,
        independent: false,
        efficiency: 100,
        setup_minutes: 30,
        activities: [
          { id: 'a1', priority: 0 },
          { id: 'a2', priority: 1 },
        ],
      },
    ]);
  });

  it('leaves a blank name out of a create and sends null in an update, so the API says it is required', () => {
    const fresh: BoardDraft = { ...newBoardDraft(), name: '  ', stages: [newStage()], labels: [newLabel()], statuses: [newStatus()] };
    const created = boardBody(fresh);
    expect(created.name).toBeUndefined();
    expect((created.stages as { name?: unknown }[])[0]!.name).toBeUndefined();

    const saved = boardDraftFrom(savedBoard());
    const updated = boardBody({ ...saved, name: '', stages: saved.stages.map((s) => ({ ...s, name: '' })) });
    expect(updated.name).toBeNull();
    expect((updated.stages as { name?: unknown }[])[0]!.name).toBeNull();
  });

  it('leaves a blank number out, so the API keeps its default or the stored value', () => {
    const body = boardBody({ ...newBoardDraft(), name: 'B', stages: [{ ...newStage(), name: 'S', efficiency: '' }] });
    expect((body.stages as { efficiency?: unknown }[])[0]!.efficiency).toBeUndefined();
  });

  it('names an input for every field path of its body', () => {
    const draft = boardDraftFrom(savedBoard());
    const inputs = boardFormInputs(draft);
    expect(inputs).toContain('stages.1.delay_day');
    expect(inputs).toContain('stages.1.activities');
    expect(inputs).toContain('statuses.0.entry');
    expect(inputs).toContain('labels.0.color');
    expect(inputs).not.toContain('stages.2.name');
  });

  it('tells a moved or removed row from an edited one, so stale errors are not shown beside the wrong row', () => {
    const draft = boardDraftFrom(savedBoard());
    expect(sameRows(draft, { ...draft, stages: draft.stages.map((s) => ({ ...s, name: 'x' })) })).toBe(true);
    expect(sameRows(draft, { ...draft, stages: moveItem(draft.stages, 0, 1) })).toBe(false);
    expect(sameRows(draft, { ...draft, labels: [] })).toBe(false);
  });

  it('moves an item and ignores moves off either end', () => {
    expect(moveItem(['a', 'b', 'c'], 2, 0)).toEqual(['c', 'a', 'b']);
    expect(moveItem(['a', 'b', 'c'], 0, -1)).toEqual(['a', 'b', 'c']);
    expect(moveItem(['a', 'b', 'c'], 2, 3)).toEqual(['a', 'b', 'c']);
  });
});

describe('activities deleted while the form is open', () => {
  it('are left out of the save, since the API refuses them and the form cannot show them', () => {
    const draft = boardDraftFrom(savedBoard());
    const kept = withoutDeletedActivities(draft, new Set(['a2']));
    expect(kept.stages.map((s) => s.activityIds)).toEqual([[], ['a2']]);
  });
});
