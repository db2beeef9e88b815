/**
 * What a pointer pressed on a card turns into: nothing (a click), or a drag that moves the
 * card (with the followers, on the stage grid the other selected cards) to another day or row,
 * or drags one of its edges to change its dates. The drag itself is `CardDrag` (transforms
 * only); this follows the pointer on the window, scrolls the grid when the pointer nears its
 * edges, cancels on Esc, and hands the drop (days and rows moved) to the grid, which knows what
 * its rows are: stages on the stage grid, people on the grid by resource.
 */
import { headerHeight, stageColumnWidth } from './grid-metrics.js';
import type { Translate } from '../../i18n/index.js';
import type { PlacedCard } from './board-layout.js';
import { CardDrag, type DragMode, type DragResult } from './card-drag.js';
import { longDate, resizeSpan, shiftSpan, type Timeline } from './date-geometry.js';
import type { CardMove } from './use-planboard-actions.js';
import type { PlanCard } from './plan-card.js';

/** Pixels a pointer moves before a press becomes a drag (below it, it is a click). */
const dragThreshold = 4;
/** How near the grid's edges (px) a dragged card scrolls the grid. */
const edgeZone = 36;

export interface CardPointerOptions {
  event: PointerEvent;
  /** The pressed card's element, and the others that move along (by days and rows, not resized). */
  element: HTMLElement;
  followers: readonly HTMLElement[];
  mode: DragMode;
  /** The pressed card's width on screen. */
  width: number;
  scroller: HTMLElement;
  timeline: Timeline;
  /** Row index at a body y (clamped to the rows), and each row's top. */
  rowAt: (y: number) => number;
  rowTops: readonly number[];
  /** A client point in the grid body's coordinates (scroll included). */
  bodyPoint: (clientX: number, clientY: number) => { x: number; y: number };
  label: HTMLElement | null;
  /** The words of the drag label: where the card would land. */
  describe: (result: DragResult) => string;
  /** The press became a drag: the click that ends it must not select. */
  onDragged: () => void;
  /**
   * `anyDay`: Shift was held at the drop, so a non-workday is meant (non-workdays.ts). Answers
   * false when the drop is refused, and the cards go back to where they were.
   */
  onDrop: (result: DragResult, anyDay: boolean) => boolean;
}

export function watchCardPointer(options: CardPointerOptions): void {
  const { event, element, mode, scroller, timeline, bodyPoint } = options;
  const pointerId = event.pointerId;
  const start = { clientX: event.clientX, clientY: event.clientY };
  const origin = bodyPoint(event.clientX, event.clientY);
  let drag: CardDrag | null = null;
  let last = start;
  let frame = 0;

  const follow = () => {
    if (!drag) return;
    const point = bodyPoint(last.clientX, last.clientY);
    drag.move(point.x, point.y, last.clientX, last.clientY);
  };
  const autoScroll = () => {
    frame = 0;
    if (!drag) return;
    const rect = scroller.getBoundingClientRect();
    const dx = last.clientX < rect.left + stageColumnWidth + edgeZone ? -1 : last.clientX > rect.right - edgeZone ? 1 : 0;
    const dy = last.clientY < rect.top + headerHeight + edgeZone ? -1 : last.clientY > rect.bottom - edgeZone ? 1 : 0;
    if (dx === 0 && dy === 0) return;
    scroller.scrollLeft += dx * Math.max(8, timeline.dayWidth / 3);
    scroller.scrollTop += dy * 12;
    follow();
    frame = requestAnimationFrame(autoScroll);
  };
  const onMove = (move: PointerEvent) => {
    if (move.pointerId !== pointerId) return;
    last = { clientX: move.clientX, clientY: move.clientY };
    if (!drag) {
      if (Math.hypot(move.clientX - start.clientX, move.clientY - start.clientY) < dragThreshold) return;
      try {
        // Keeps the moves coming when the pointer leaves the window mid-drag.
        element.setPointerCapture(pointerId);
      } catch {
        // A pointer the browser does not track (a synthetic event): the window listeners do.
      }
      drag = new CardDrag({
        element,
        followers: options.followers,
        mode,
        dayWidth: timeline.dayWidth,
        width: options.width,
        origin,
        rowAt: options.rowAt,
        rowTops: options.rowTops,
        describe: options.describe,
        label: options.label,
      });
    }
    follow();
    if (!frame) frame = requestAnimationFrame(autoScroll);
  };
  const stop = () => {
    window.removeEventListener('pointermove', onMove);
    window.removeEventListener('pointerup', onUp);
    window.removeEventListener('pointercancel', onCancel);
    window.removeEventListener('keydown', onEscape, true);
    if (frame) cancelAnimationFrame(frame);
  };
  const onUp = (up: PointerEvent) => {
    if (up.pointerId !== pointerId) return;
    stop();
    if (!drag) return;
    options.onDragged();
    const result = drag.finish();
    if (result && !options.onDrop(result, up.shiftKey)) drag.cancel();
  };
  const onCancel = () => {
    stop();
    drag?.cancel();
  };
  const onEscape = (key: KeyboardEvent) => {
    if (key.key !== 'Escape' || !drag) return;
    key.preventDefault();
    key.stopPropagation();
    options.onDragged();
    onCancel();
  };
  window.addEventListener('pointermove', onMove);
  window.addEventListener('pointerup', onUp);
  window.addEventListener('pointercancel', onCancel);
  window.addEventListener('keydown', onEscape, true);
}

/** Where a drop puts one card: its dates shifted by the days dragged, or resized at the edge dragged. */
export function droppedSpan(card: Pick<PlanCard, 'start_date' | 'end_date'>, result: DragResult): { start: string; end: string } {
  return result.mode === 'move'
    ? shiftSpan(card.start_date, card.end_date, result.days)
    : resizeSpan(card.start_date, card.end_date, result.mode, result.days);
}

/** The moves a drop makes: every moving card by the days and rows dragged, or the one card resized. */
export function movesFor(cards: readonly PlacedCard[], result: DragResult, stages: readonly { id: string }[]): CardMove[] {
  return cards.flatMap((p) => {
    const span = droppedSpan(p.card, result);
    const stage = result.mode === 'move' ? stages[p.stage + result.rows] : { id: p.card.stage_id };
    return stage ? [{ card: p.card, start_date: span.start, end_date: span.end, stage_id: stage.id }] : [];
  });
}

/**
 * What the label beside the pointer says: "Mon 23 Nov 2026 – Wed 25 Nov 2026, Painting", the
 * row's name (a stage's, or a person's on the grid by resource) when the drop changes row.
 */
export function describeDrop(
  p: { card: Pick<PlanCard, 'start_date' | 'end_date'>; row: number },
  result: DragResult,
  rows: readonly { name: string }[],
  t: Translate,
): string {
  const span = droppedSpan(p.card, result);
  const row = result.mode === 'move' ? rows[Math.min(rows.length - 1, Math.max(0, p.row + result.rows))] : undefined;
  const when =
    span.start === span.end
      ? longDate(span.start, t)
      : t('planboard.date.range', { start: longDate(span.start, t), end: longDate(span.end, t) });
  return row && result.rows !== 0 ? `${when}, ${row.name}` : when;
}
