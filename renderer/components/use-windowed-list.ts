/**
 * The DOM side of a windowed list (windowing.ts holds the arithmetic): the viewport's height,
 * followed as the window resizes, its scroll position, and the rows to draw. The order list and
 * the time entries list use it.
 */
import { useEffect, useLayoutEffect, useRef, useState, type RefObject, type UIEvent } from 'react';
import { visibleWindow, type RowWindow } from './windowing.js';

/** The element's inner height, measured before the first paint and again whenever it resizes. */
export function useViewportHeight(viewportRef: RefObject<HTMLElement | null>): number {
  const [height, setHeight] = useState(0);
  useLayoutEffect(() => {
    const viewport = viewportRef.current;
    if (!viewport) return;
    setHeight(viewport.clientHeight);
    const observer = new ResizeObserver(() => setHeight(viewport.clientHeight));
    observer.observe(viewport);
    return () => observer.disconnect();
  }, [viewportRef]);
  return height;
}

interface WindowedListOptions {
  /** Fixed, so a row's place follows from its index. */
  rowHeight: number;
  overscan: number;
  /** Names the list shown (its filter and sort): another key is another list, shown from its top. */
  listKey: string;
}

export function useWindowedList({ rowHeight, overscan, listKey }: WindowedListOptions) {
  const viewportRef = useRef<HTMLDivElement>(null);
  const viewportHeight = useViewportHeight(viewportRef);
  const [scrollTop, setScrollTop] = useState(0);
  // The count comes with the pages, and which pages to fetch follows from the rows in view: the
  // last count known sizes the window until the next one arrives.
  const [knownCount, setKnownCount] = useState(0);
  const inView: RowWindow = visibleWindow({ scrollTop, viewportHeight, rowHeight, count: knownCount, overscan });

  useEffect(() => {
    if (viewportRef.current) viewportRef.current.scrollTop = 0;
  }, [listKey]);

  const shown: number[] = [];
  for (let index = inView.start; index < inView.end; index++) shown.push(index);

  return {
    viewportRef,
    viewportHeight,
    inView,
    /** Indexes of the rows to draw. */
    shown,
    knownCount,
    /** Call during render with the count the pages answered (undefined while none has). */
    learnCount(count: number | undefined) {
      if (count !== undefined && count !== knownCount) setKnownCount(count);
    },
    onScroll: (event: UIEvent<HTMLElement>) => setScrollTop(event.currentTarget.scrollTop),
  };
}
