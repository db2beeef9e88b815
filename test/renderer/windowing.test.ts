import { describe, expect, it } from 'vitest';
import { pagesCovering, rowsPerViewport, scrollTopToShow, visibleWindow } from '../../renderer/components/windowing.js';

describe('windowed list arithmetic', () => {
  const base = { rowHeight: 34, viewportHeight: 340, overscan: 5, count: 10_000 };

  it('renders the rows in view plus the overscan, not the whole list', () => {
    expect(visibleWindow({ ...base, scrollTop: 0 })).toEqual({ start: 0, end: 15 });
    expect(visibleWindow({ ...base, scrollTop: 34 * 5000 })).toEqual({ start: 4995, end: 5015 });
  });

  it('stops at the end of the list and renders nothing for an empty one', () => {
    expect(visibleWindow({ ...base, scrollTop: 34 * 9995 })).toEqual({ start: 9990, end: 10_000 });
    expect(visibleWindow({ ...base, count: 0, scrollTop: 0 })).toEqual({ start: 0, end: 0 });
  });

  it('asks only for the pages of 500 the rendered rows are on', () => {
    expect(pagesCovering({ start: 0, end: 15 }, 500)).toEqual([0]);
    expect(pagesCovering({ start: 495, end: 515 }, 500)).toEqual([0, 1]);
    expect(pagesCovering({ start: 9990, end: 10_000 }, 500)).toEqual([19]);
    // Before the count is known, the first page is what tells it.
    expect(pagesCovering({ start: 0, end: 0 }, 500)).toEqual([0]);
  });

  it('scrolls as little as possible to bring a row into view', () => {
    expect(scrollTopToShow(3, 0, 340, 34)).toBe(0);
    expect(scrollTopToShow(10, 0, 340, 34)).toBe(34);
    expect(scrollTopToShow(2, 340, 340, 34)).toBe(68);
    expect(rowsPerViewport(340, 34)).toBe(10);
  });
});
