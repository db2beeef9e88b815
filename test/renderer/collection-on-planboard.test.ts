import { describe, expect, it } from 'vitest';
import { collectionOnPlanboard } from '../../renderer/views/orders/collection-on-planboard.js';

const alpha = { id: 'a', name: 'Alpha', own_backlog: false };
const beta = { id: 'b', name: 'Beta', own_backlog: false };
const keeper = { id: 'k', name: 'Keeper', own_backlog: true };

describe('where the planboard shows an order’s collection', () => {
  it('on its own board once it has one: its cards when planned, that board’s backlog when not', () => {
    expect(collectionOnPlanboard({ status: 'planned', board_id: 'k' }, [alpha, keeper], 'a')).toEqual({
      kind: 'board',
      boardId: 'k',
      boardName: 'Keeper',
      planned: true,
    });
    expect(collectionOnPlanboard({ status: 'not_planned', board_id: 'k' }, [alpha, keeper], 'a')).toEqual({
      kind: 'board',
      boardId: 'k',
      boardName: 'Keeper',
      planned: false,
    });
  });

  it('on no board: in the picked board’s backlog when it shares the backlog, else in the first board that does', () => {
    expect(collectionOnPlanboard({ status: 'not_planned', board_id: null }, [alpha, beta, keeper], 'b')).toMatchObject({
      kind: 'board',
      boardId: 'b',
      planned: false,
    });
    expect(collectionOnPlanboard({ status: 'not_planned', board_id: null }, [keeper, beta, alpha], 'k')).toMatchObject({
      kind: 'board',
      boardId: 'b',
    });
    expect(collectionOnPlanboard({ status: 'not_planned', board_id: null }, [alpha, beta], null)).toMatchObject({
      kind: 'board',
      boardId: 'a',
    });
  });

  it('says why there is nowhere to show it', () => {
    expect(collectionOnPlanboard({ status: 'not_planned', board_id: null }, [], null)).toEqual({ kind: 'no-board' });
    expect(collectionOnPlanboard({ status: 'not_planned', board_id: null }, [keeper], 'k')).toEqual({ kind: 'no-shared-backlog' });
    expect(collectionOnPlanboard({ status: 'planned', board_id: 'gone' }, [alpha], 'a')).toEqual({ kind: 'board-gone' });
    expect(collectionOnPlanboard({ status: 'ignored', board_id: null }, [alpha], 'a')).toEqual({ kind: 'ignored' });
  });
});
