/**
 * Where the active cell of a spreadsheet-like grid goes on a key, as a pure function: arrows
 * move one cell and stop at the edges, Home/End go to the ends of the row (with Ctrl, of the
 * grid), Tab walks right and wraps to the next row, Enter after an edit goes down. Tab past
 * the last cell (Shift+Tab before the first) answers null: focus leaves the grid, so a
 * keyboard user is never trapped in it.
 */

export interface CellPosition {
  row: number;
  col: number;
}

export interface GridSize {
  rows: number;
  cols: number;
}

export interface KeyMove {
  key: string;
  shift?: boolean;
  ctrl?: boolean;
}

/** The new position, the same one when the key does not move, or null to leave the grid. */
export function moveCell(cell: CellPosition, { key, shift = false, ctrl = false }: KeyMove, size: GridSize): CellPosition | null {
  const lastRow = Math.max(0, size.rows - 1);
  const lastCol = Math.max(0, size.cols - 1);
  const at = (row: number, col: number) => ({
    row: Math.min(lastRow, Math.max(0, row)),
    col: Math.min(lastCol, Math.max(0, col)),
  });
  switch (key) {
    case 'ArrowUp':
      return at(cell.row - 1, cell.col);
    case 'ArrowDown':
    case 'Enter':
      return at(cell.row + 1, cell.col);
    case 'ArrowLeft':
      return at(cell.row, cell.col - 1);
    case 'ArrowRight':
      return at(cell.row, cell.col + 1);
    case 'Home':
      return ctrl ? at(0, 0) : at(cell.row, 0);
    case 'End':
      return ctrl ? at(lastRow, lastCol) : at(cell.row, lastCol);
    case 'Tab':
      if (shift) {
        if (cell.col > 0) return at(cell.row, cell.col - 1);
        return cell.row > 0 ? at(cell.row - 1, lastCol) : null;
      }
      if (cell.col < lastCol) return at(cell.row, cell.col + 1);
      return cell.row < lastRow ? at(cell.row + 1, 0) : null;
    default:
      return cell;
  }
}

/** Keys that move the active cell when no cell is being edited. */
export const navigationKeys: ReadonlySet<string> = new Set(['ArrowUp', 'ArrowDown', 'ArrowLeft', 'ArrowRight', 'Home', 'End', 'Tab']);
