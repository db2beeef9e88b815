/**
 * The part of a planboard sheet to render for its scroll position, shared by the grid by stage
 * (PlanboardGrid.tsx) and the grid by resource (ResourceGrid.tsx): which days and which band
 * of rows are near the viewport, kept as the sheet scrolls, resizes and changes zoom. On first
 * show today sits a fifth into the view; a new zoom keeps the date at the centre.
 */
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { renderedDays, rezoomScrollLeft, scrollLeftFor, type DayRange, type Timeline, type Zoom } from './date-geometry.js';
import { stageColumnWidth } from './grid-metrics.js';

export interface GridWindow {
  days: DayRange;
  /** The days in the viewport itself, without those rendered ahead. */
  shown: DayRange;
  /** Body y range to render (quantized). */
  top: number;
  bottom: number;
}

/** The rows are rendered in bands of this many pixels, so a vertical scroll mounts a band at a time. */
const verticalStep = 120;

/**
 * The window to render, and `measure` for the sheet's scroll events. `onDaysChange` hears of
 * each new range of days (to load their cards and capacity).
 */
export function useGridWindow(
  scroller: RefObject<HTMLDivElement | null>,
  timeline: Timeline,
  zoom: Zoom,
  today: string,
  onDaysChange: (range: DayRange) => void,
): { view: GridWindow; measure: () => void } {
  const [view, setView] = useState<GridWindow>(() => ({ days: { first: 0, last: -1 }, shown: { first: 0, last: -1 }, top: 0, bottom: 0 }));
  /**
   * The scroll position as last seen. A zoom out narrows the sheet before the layout effect
   * below runs, and the browser clamps scrollLeft to the narrower sheet: the centre date must
   * come from the position before that.
   */
  const lastScrollLeft = useRef(0);

  const measure = useCallback(() => {
    const el = scroller.current;
    if (!el) return;
    lastScrollLeft.current = el.scrollLeft;
    const next = windowOf(el, timeline, zoom);
    setView((current) =>
      current.days.first === next.days.first &&
      current.days.last === next.days.last &&
      current.shown.first === next.shown.first &&
      current.shown.last === next.shown.last &&
      current.top === next.top &&
      current.bottom === next.bottom
        ? current
        : next,
    );
  }, [scroller, timeline, zoom]);

  const shownTimeline = useRef<Timeline | null>(null);
  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const before = shownTimeline.current;
    if (!before) el.scrollLeft = scrollLeftFor(timeline, today, leadIn(el));
    else if (before !== timeline)
      el.scrollLeft = rezoomScrollLeft(before, timeline, lastScrollLeft.current, el.clientWidth - stageColumnWidth);
    shownTimeline.current = timeline;
    measure();
  }, [scroller, timeline, today, measure]);

  useEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => measure());
    observer.observe(el);
    return () => observer.disconnect();
  }, [scroller, measure]);

  useEffect(() => {
    if (view.days.last >= view.days.first) onDaysChange(view.days);
  }, [view.days, onDaysChange]);

  return { view, measure };
}

/**
 * The part of the board to render for the scroll position. A quarter of a viewport on each
 * side is rendered ahead; the window moves a day (two at month zoom) at a time, so each step of
 * a scroll mounts a thin slice of cards instead of a week's worth in one frame.
 */
function windowOf(el: HTMLElement, timeline: Timeline, zoom: Zoom): GridWindow {
  const viewport = Math.max(0, el.clientWidth - stageColumnWidth);
  const daysInView = Math.ceil(viewport / timeline.dayWidth);
  const days = renderedDays(timeline, el.scrollLeft, viewport, Math.max(3, Math.ceil(daysInView / 4)), zoom === 'month' ? 2 : 1);
  const shown = renderedDays(timeline, el.scrollLeft, Math.max(0, viewport - 1), 0, 1);
  const top = Math.max(0, Math.floor((el.scrollTop - verticalStep) / verticalStep) * verticalStep);
  const bottom = Math.ceil((el.scrollTop + el.clientHeight + verticalStep) / verticalStep) * verticalStep;
  return { days, shown, top, bottom };
}

/** Where a date shown "now" sits: a fifth into the days in view, so the days before it show too. */
export function leadIn(el: HTMLElement): number {
  return Math.round((el.clientWidth - stageColumnWidth) / 5);
}
