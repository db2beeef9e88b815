/**
 * The sheet both planboard grids draw on, the grid by stage (PlanboardGrid.tsx) and the grid
 * by resource (ResourceGrid.tsx): the scroller, the date header over the day columns, the row
 * headers down the left, and in the body the day background and each row's capacity strip.
 * What sits on top (the cards, and on the stage grid the cursor, arrows and drop target) is
 * the grid's own and comes in as children.
 */
import { useMemo, type ReactNode, type RefObject } from 'react';
import type { CapacityIndex } from './capacity.js';
import { CapacityStrip, stripBlock } from './CapacityStrip.js';
import { totalWidth, type Timeline, type Workdays, type Zoom } from './date-geometry.js';
import type { RowBand } from './non-workdays.js';
import { DateHeader } from './DateHeader.js';
import { DayBackground } from './DayBackground.js';
import type { HolidayDays } from '../../../shared/holiday-days.js';
import { headerHeight, stageColumnWidth } from './grid-metrics.js';
import type { GridWindow } from './use-grid-window.js';

/** A row of the sheet, by its place in the body. */
interface SheetRow {
  top: number;
  height: number;
}

/** Whether any of the row lies in the band of rows the window renders. */
export function rowInView(row: SheetRow, view: GridWindow): boolean {
  return !(row.top + row.height < view.top || row.top > view.bottom);
}

/**
 * A client point in the sheet's body (scroll included), and where it falls: on the date header,
 * on the row names, or outside the scroller altogether.
 */
export function gridBodyPoint(scroller: HTMLElement, clientX: number, clientY: number) {
  const rect = scroller.getBoundingClientRect();
  return {
    x: clientX - rect.left + scroller.scrollLeft - stageColumnWidth,
    y: clientY - rect.top + scroller.scrollTop - headerHeight,
    inHeader: clientY - rect.top < headerHeight,
    inStages: clientX - rect.left < stageColumnWidth,
    outside: clientX < rect.left || clientX > rect.right || clientY < rect.top || clientY > rect.bottom,
  };
}

interface GridSheetProps {
  scroller: RefObject<HTMLDivElement | null>;
  onScroll: () => void;
  timeline: Timeline;
  zoom: Zoom;
  today: string;
  workdays: Workdays;
  /** Rows open on days the board does not work, by date (non-workdays.ts openRows). */
  openRows?: ReadonlyMap<string, readonly RowBand[]>;
  /** Days the whole company is off (holiday-days.ts). */
  holidays: HolidayDays;
  view: GridWindow;
  rows: readonly SheetRow[];
  /** The body's height, all rows together. */
  height: number;
  /** Null while the strip is hidden. */
  capacity: CapacityIndex | null;
  capacityHeight: number;
  /**
   * The stage or resource whose capacity row `index` shows; null: the row has no strip. `noOne`:
   * the row's work has nobody's capacity to fill (CapacityStrip).
   */
  stripOf: (index: number) => { id: string; name: string; noOne?: boolean } | null;
  /** The row names down the left. */
  headers: ReactNode;
  /** What the corner over the row names says, if anything. */
  corner?: ReactNode;
  /** Below the sheet, inside the scroller (the drag label). */
  after?: ReactNode;
  children: ReactNode;
}

export function GridSheet(props: GridSheetProps) {
  const { scroller, onScroll, timeline, zoom, today, workdays, holidays, view, rows, height, capacity, capacityHeight, stripOf } = props;
  const rowLines = useMemo(() => rows.slice(1).map((row) => row.top), [rows]);
  const width = totalWidth(timeline);
  // The capacity strips draw whole blocks of days around the days in view, so a scroll step
  // re-renders them (and lays out their days and week figures again) only when it reaches a
  // new block, not at every day it passes.
  const stripFirst = Math.floor(view.days.first / stripBlock) * stripBlock;
  const stripLast = Math.min(timeline.days - 1, Math.ceil((view.days.last + 1) / stripBlock) * stripBlock - 1);

  return (
    <div
      ref={scroller}
      className={`pb-scroller pb-scroller--${zoom}`}
      onScroll={onScroll}
      style={{ ['--day-width' as string]: `${timeline.dayWidth}px` }}
    >
      <div
        className="pb-sheet"
        style={{
          width: stageColumnWidth + width,
          gridTemplateColumns: `${stageColumnWidth}px ${width}px`,
          gridTemplateRows: `${headerHeight}px ${height}px`,
        }}
      >
        {props.corner ? <div className="pb-corner">{props.corner}</div> : <div className="pb-corner" aria-hidden="true" />}
        <DateHeader timeline={timeline} first={view.days.first} last={view.days.last} zoom={zoom} today={today} holidays={holidays} />
        {props.headers}
        <div className="pb-body" style={{ width, height }}>
          <DayBackground
            timeline={timeline}
            first={view.days.first}
            last={view.days.last}
            workdays={workdays}
            {...(props.openRows ? { openRows: props.openRows } : {})}
            height={height}
            holidays={holidays}
            today={today}
            rowLines={rowLines}
            width={width}
          />
          {capacity &&
            rows.map((row, index) => {
              const strip = rowInView(row, view) ? stripOf(index) : null;
              return strip ? (
                <CapacityStrip
                  key={strip.id}
                  stageId={strip.id}
                  stageName={strip.name}
                  top={row.top}
                  height={capacityHeight}
                  timeline={timeline}
                  first={stripFirst}
                  last={stripLast}
                  capacity={capacity}
                  noOne={strip.noOne ?? false}
                />
              ) : null;
            })}
          {props.children}
        </div>
      </div>
      {props.after}
    </div>
  );
}
