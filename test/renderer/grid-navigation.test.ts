import { describe, expect, it } from 'vitest';
import { moveCell } from '../../renderer/views/orders/grid-navigation.js';

const size = { rows: 3, cols: 10 };

describe('moving the active cell like a spreadsheet', () => {
  it('moves one cell with the arrows and stops at the edges', () => {
    expect(moveCell({ row: 1, col: 1 }, { key: 'ArrowDown' }, size)).toEqual({ row: 2, col: 1 });
    expect(moveCell({ row: 2, col: 1 }, { key: 'ArrowDown' }, size)).toEqual({ row: 2, col: 1 });
    expect(moveCell({ row: 0, col: 0 }, { key: 'ArrowLeft' }, size)).toEqual({ row: 0, col: 0 });
    expect(moveCell({ row: 0, col: 9 }, { key: 'ArrowRight' }, size)).toEqual({ row: 0, col: 9 });
  });

  it('goes down on Enter, which is how an edit is saved', () => {
    expect(moveCell({ row: 0, col: 4 }, { key: 'Enter' }, size)).toEqual({ row: 1, col: 4 });
  });

  it('walks right on Tab, wrapping to the next row, and left on Shift+Tab', () => {
    expect(moveCell({ row: 0, col: 3 }, { key: 'Tab' }, size)).toEqual({ row: 0, col: 4 });
    expect(moveCell({ row: 0, col: 9 }, { key: 'Tab' }, size)).toEqual({ row: 1, col: 0 });
    expect(moveCell({ row: 1, col: 0 }, { key: 'Tab', shift: true }, size)).toEqual({ row: 0, col: 9 });
  });

  it('lets Tab leave the grid after the last cell and Shift+Tab before the first', () => {
    expect(moveCell({ row: 2, col: 9 }, { key: 'Tab' }, size)).toBeNull();
    expect(moveCell({ row: 0, col: 0 }, { key: 'Tab', shift: true }, size)).toBeNull();
  });

  it('goes to the ends of the row with Home and End, and of the grid with Ctrl', () => {
    expect(moveCell({ row: 1, col: 5 }, { key: 'Home' }, size)).toEqual({ row: 1, col: 0 });
    expect(moveCell({ row: 1, col: 5 }, { key: 'End' }, size)).toEqual({ row: 1, col: 9 });
    expect(moveCell({ row: 1, col: 5 }, { key: 'End', ctrl: true }, size)).toEqual({ row: 2, col: 9 });
    expect(moveCell({ row: 1, col: 5 }, { key: 'Home', ctrl: true }, size)).toEqual({ row: 0, col: 0 });
  });
});
