/**
 * Dragging cards with the pointer, outside React: while the pointer moves only the dragged
 * elements' transform (or, for a resize, the one card's width) changes, snapped to whole days
 * and stage rows, so no component renders during a drag. The drop is reported once, as days
 * and rows moved; the grid turns it into one API write per card.
 */
import { snapDays } from './date-geometry.js';

export type DragMode = 'move' | 'start' | 'end';

export interface DragResult {
  mode: DragMode;
  days: number;
  /** Rows (stages) moved down; negative is up. Always 0 for a resize. */
  rows: number;
}

export interface CardDragOptions {
  /** The card the pointer took. */
  element: HTMLElement;
  /** Other selected cards that move along (by days and rows, not resized). */
  followers: readonly HTMLElement[];
  mode: DragMode;
  dayWidth: number;
  /** Width of the dragged card before the drag. */
  width: number;
  /** The body point (x, y including scroll) where the pointer went down. */
  origin: { x: number; y: number };
  /** Row index at a body y (clamped to the rows), and each row's top. */
  rowAt: (y: number) => number;
  rowTops: readonly number[];
  /** Tells the planner where the card would land ("Mon 23 Nov – Wed 25 Nov, Painting"). */
  describe: (result: DragResult) => string;
  /** An element that shows `describe`'s text next to the pointer. */
  label: HTMLElement | null;
}

export class CardDrag {
  private result: DragResult;
  /** The elements show `result` (false until the first move). */
  private placed = false;
  private readonly startRow: number;

  constructor(private readonly options: CardDragOptions) {
    this.startRow = options.rowAt(options.origin.y);
    this.result = { mode: options.mode, days: 0, rows: 0 };
    options.element.classList.add('is-dragging');
    for (const follower of options.followers) follower.classList.add('is-dragging');
  }

  /**
   * The pointer is at body point (x, y). The DOM is written only when the snapped place
   * changes: most pointer moves stay within a day, and then only the label follows the pointer.
   */
  move(x: number, y: number, clientX: number, clientY: number): void {
    const { mode, dayWidth, element, followers, origin, rowTops, width } = this.options;
    const days = snapDays(x - origin.x, dayWidth);
    const row = mode === 'move' ? this.options.rowAt(y) : this.startRow;
    let next: DragResult;
    if (mode === 'move') {
      next = { mode, days, rows: row - this.startRow };
    } else {
      // An edge stops one day before the other edge: a card is at least a day long.
      const widthDays = Math.round(width / dayWidth);
      next = { mode, days: mode === 'end' ? Math.max(days, 1 - widthDays) : Math.min(days, widthDays - 1), rows: 0 };
    }
    const changed = !this.placed || next.days !== this.result.days || next.rows !== this.result.rows;
    this.result = next;
    this.placed = true;
    if (changed) {
      if (mode === 'move') {
        const dy = (rowTops[row] ?? 0) - (rowTops[this.startRow] ?? 0);
        const transform = `translate3d(${next.days * dayWidth}px, ${dy}px, 0)`;
        element.style.transform = transform;
        for (const follower of followers) follower.style.transform = transform;
      } else {
        const newWidth = width + (mode === 'end' ? next.days : -next.days) * dayWidth;
        element.style.width = `${newWidth - 2}px`;
        element.style.transform = mode === 'start' ? `translate3d(${next.days * dayWidth}px, 0, 0)` : 'translate3d(0, 0, 0)';
      }
    }
    const label = this.options.label;
    if (label) {
      if (changed) label.textContent = this.options.describe(next);
      label.style.transform = `translate3d(${clientX + 14}px, ${clientY + 16}px, 0)`;
      label.hidden = false;
    }
  }

  /** The drop: what moved, or null when nothing did (the card is back as it was). */
  finish(): DragResult | null {
    this.hideLabel();
    const { days, rows } = this.result;
    if (days === 0 && rows === 0) {
      this.cancel();
      return null;
    }
    return this.result;
  }

  /** Puts everything back as it was before the drag (Escape, or a drop that changes nothing). */
  cancel(): void {
    const { element, followers, width } = this.options;
    this.hideLabel();
    for (const el of [element, ...followers]) {
      el.style.transform = '';
      el.classList.remove('is-dragging');
    }
    element.style.width = `${width - 2}px`;
  }

  private hideLabel(): void {
    if (this.options.label) this.options.label.hidden = true;
  }
}
