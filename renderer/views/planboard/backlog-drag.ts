/**
 * Dragging a collection from the backlog onto the grid, outside React: a ghost follows the
 * pointer and the grid highlights the day and stage under it; the drop is reported once.
 */
import type { DropCell, GridHandle } from './PlanboardGrid.js';

const dragThreshold = 4;

export interface BacklogDragOptions {
  /** The pointer-down event on the backlog item. */
  event: PointerEvent;
  /** What the ghost says ("Order 1001"). */
  label: string;
  grid: () => GridHandle | null;
  onDrop: (cell: DropCell) => void;
}

/** Starts watching a pointer that went down on a backlog item; it becomes a drag past a few pixels. */
export function watchBacklogDrag({ event, label, grid, onDrop }: BacklogDragOptions): void {
  const pointerId = event.pointerId;
  const start = { x: event.clientX, y: event.clientY };
  let ghost: HTMLElement | null = null;
  let cell: DropCell | null = null;

  const onMove = (move: PointerEvent) => {
    if (move.pointerId !== pointerId) return;
    if (!ghost) {
      if (Math.hypot(move.clientX - start.x, move.clientY - start.y) < dragThreshold) return;
      ghost = document.createElement('div');
      ghost.className = 'pb-ghost';
      ghost.textContent = label;
      ghost.setAttribute('aria-hidden', 'true');
      document.body.append(ghost);
      document.body.classList.add('is-dragging-collection');
    }
    ghost.style.transform = `translate3d(${move.clientX + 10}px, ${move.clientY + 10}px, 0)`;
    cell = grid()?.cellAt(move.clientX, move.clientY) ?? null;
    grid()?.showDrop(cell);
    ghost.classList.toggle('is-over', cell !== null);
  };
  const stop = () => {
    window.removeEventListener('pointermove', onMove);
    window.removeEventListener('pointerup', onUp);
    window.removeEventListener('pointercancel', stop);
    window.removeEventListener('keydown', onEscape, true);
    ghost?.remove();
    document.body.classList.remove('is-dragging-collection');
    grid()?.showDrop(null);
  };
  const onUp = (up: PointerEvent) => {
    if (up.pointerId !== pointerId) return;
    const dropped = ghost ? (grid()?.cellAt(up.clientX, up.clientY) ?? null) : null;
    stop();
    if (dropped) onDrop(dropped);
  };
  const onEscape = (key: KeyboardEvent) => {
    if (key.key !== 'Escape' || !ghost) return;
    key.preventDefault();
    key.stopPropagation();
    stop();
  };
  window.addEventListener('pointermove', onMove);
  window.addEventListener('pointerup', onUp);
  window.addEventListener('pointercancel', stop);
  window.addEventListener('keydown', onEscape, true);
}
