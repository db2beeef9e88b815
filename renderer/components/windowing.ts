/**
 * The arithmetic of a windowed list: with a fixed row height, which rows are in view (plus an
 * overscan, so a fast scroll does not show blank space before React catches up), which pages
 * of a paged list those rows need, and where to scroll so a row is in view. Pure, so it can be
 * tested without a DOM.
 */

export interface RowWindow {
  /** First row to render (inclusive). */
  start: number;
  /** Row after the last one to render (exclusive). */
  end: number;
}

export interface WindowInput {
  scrollTop: number;
  viewportHeight: number;
  rowHeight: number;
  count: number;
  overscan: number;
}

export function visibleWindow({ scrollTop, viewportHeight, rowHeight, count, overscan }: WindowInput): RowWindow {
  if (count <= 0 || rowHeight <= 0) return { start: 0, end: 0 };
  const firstInView = Math.floor(Math.max(0, scrollTop) / rowHeight);
  const lastInView = Math.ceil((Math.max(0, scrollTop) + Math.max(0, viewportHeight)) / rowHeight);
  const start = Math.min(count, Math.max(0, firstInView - overscan));
  const end = Math.min(count, Math.max(start, lastInView + overscan));
  return { start, end };
}

/** The page numbers (0-based, `pageSize` rows each) holding rows `start` … `end - 1`. */
export function pagesCovering({ start, end }: RowWindow, pageSize: number): number[] {
  if (end <= start) return [0];
  const pages: number[] = [];
  for (let page = Math.floor(start / pageSize); page <= Math.floor((end - 1) / pageSize); page++) pages.push(page);
  return pages;
}

/** The scroll position that brings row `index` fully into view, moving as little as possible. */
export function scrollTopToShow(index: number, scrollTop: number, viewportHeight: number, rowHeight: number): number {
  const top = index * rowHeight;
  const bottom = top + rowHeight;
  if (top < scrollTop) return top;
  if (bottom > scrollTop + viewportHeight) return Math.max(0, bottom - viewportHeight);
  return scrollTop;
}

/** How many whole rows fit in the viewport: the step of Page Up and Page Down. */
export function rowsPerViewport(viewportHeight: number, rowHeight: number): number {
  return Math.max(1, Math.floor(viewportHeight / rowHeight));
}
