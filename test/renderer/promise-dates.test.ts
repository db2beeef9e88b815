import { describe, expect, it } from 'vitest';
import { ApiRequestError } from '../../renderer/api/request-error.js';
import {
  lateCollections,
  nothingFits,
  planRequest,
  promiseEnds,
  stageDates,
  type PlanChoice,
} from '../../renderer/views/planboard/promise-dates.js';

const choice: PlanChoice = { direction: 'forward', finite: false, start: '2026-12-14', end: '', stageId: '' };

describe('what a plan choice sends', () => {
  it('plans forward from the start date, against no capacity, by default', () => {
    expect(planRequest(choice)).toEqual({ start: '2026-12-14' });
  });

  it('plans backward to the end date, finite, on one stage', () => {
    expect(planRequest({ ...choice, direction: 'backward', finite: true, end: '2026-12-18', stageId: 's1' })).toEqual({
      reverse: true,
      end: '2026-12-18',
      capacity: 'finite',
      stage_id: 's1',
    });
  });

  it('plans backward to the due date when no end date is chosen', () => {
    expect(planRequest({ ...choice, direction: 'backward' })).toEqual({ reverse: true });
  });
});

describe('per stage, its first and last day', () => {
  it('spans every card of a stage and keeps the board’s stage order', () => {
    const cards = [
      { stage_id: 'paint', start_date: '2026-12-16', end_date: '2026-12-17' },
      { stage_id: 'saw', start_date: '2026-12-15', end_date: '2026-12-15' },
      { stage_id: 'saw', start_date: '2026-12-14', end_date: '2026-12-14' },
      { stage_id: 'pack', start_date: '2026-12-18', end_date: null },
    ];
    expect(stageDates(cards, ['saw', 'paint'])).toEqual([
      { stageId: 'saw', start: '2026-12-14', end: '2026-12-15' },
      { stageId: 'paint', start: '2026-12-16', end: '2026-12-17' },
      { stageId: 'pack', start: '2026-12-18', end: '2026-12-18' },
    ]);
  });
});

describe('the earliest end a refusal names', () => {
  it('reads earliest_end from the 422 on end', () => {
    const error = new ApiRequestError(422, {
      reference: 'r',
      errors: [
        {
          code: 10422,
          message: 'Unprocessable Content',
          field: 'end',
          description: 'nothing fits before 2026-12-17',
          earliest_end: '2026-12-21',
        } as never,
      ],
    });
    expect(nothingFits(error)).toEqual({ earliestEnd: '2026-12-21', description: 'nothing fits before 2026-12-17' });
  });

  it('finds none in another refusal', () => {
    const other = new ApiRequestError(422, {
      reference: 'r',
      errors: [{ code: 10422, message: 'Unprocessable Content', field: 'end', description: 'reverse planning needs an end date' }],
    });
    expect(nothingFits(other)).toBeNull();
    expect(nothingFits(new ApiRequestError(404, null))).toBeNull();
    expect(nothingFits(new Error('gone'))).toBeNull();
  });
});

describe('promise dates by collection', () => {
  it('maps each collection to its end, or null when it has no capacity', () => {
    const ends = promiseEnds([
      { collection_id: 'a', start: '2026-12-14', end: '2026-12-17' },
      { collection_id: 'b', error: { description: 'no capacity' } },
    ]);
    expect([...ends]).toEqual([
      ['a', '2026-12-17'],
      ['b', null],
    ]);
  });
});

describe('late collections', () => {
  it('lists those that end after their due date, the most overdue first', () => {
    const collections = [
      { id: 'on-time', name: 'A', due_date: '2026-12-18', end: '2026-12-18' },
      { id: 'one-day', name: 'B', due_date: '2026-12-17', end: '2026-12-18' },
      { id: 'undated', name: 'C', due_date: null, end: '2026-12-30' },
      { id: 'unplanned', name: 'D', due_date: '2026-12-01', end: null },
      { id: 'a-week', name: 'E', due_date: '2026-12-10', end: '2026-12-17' },
    ];
    expect(lateCollections(collections).map((collection) => collection.id)).toEqual(['a-week', 'one-day']);
  });
});
