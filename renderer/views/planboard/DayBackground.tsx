/**
 * What lies under the cards: a column per rendered day (non-workdays and the company's days off
 * shaded, today marked, week starts drawn stronger) and a line between stage rows. A day the
 * board does not work but a stage does (docs/API.md "A stage's workdays") is shaded around that
 * stage's rows only.
 */
import { memo } from 'react';
import { dayColumns, type Timeline, type Workdays } from './date-geometry.js';
import type { RowBand } from './non-workdays.js';
import type { HolidayDays } from '../../../shared/holiday-days.js';

interface DayBackgroundProps {
  timeline: Timeline;
  first: number;
  last: number;
  workdays: Workdays;
  /** Rows open on days the board does not work, by date, top to bottom (non-workdays.ts openRows). */
  openRows?: ReadonlyMap<string, readonly RowBand[]>;
  /** The body's height, all rows together. */
  height: number;
  /** Days the whole company is off (holiday-days.ts). */
  holidays: HolidayDays;
  today: string;
  /** Tops of the stage rows after the first, for the row lines. */
  rowLines: readonly number[];
  width: number;
}

export const DayBackground = memo(function DayBackground({
  timeline,
  first,
  last,
  workdays,
  openRows,
  height,
  holidays,
  today,
  rowLines,
  width,
}: DayBackgroundProps) {
  const columns = dayColumns(timeline, { first, last }, workdays, today);
  const w = timeline.dayWidth;
  return (
    <div className="pb-days" aria-hidden="true">
      {columns.map((column) => {
        const holiday = holidays.has(column.date);
        const open = column.workday || holiday ? undefined : openRows?.get(column.date);
        if (open) return <OpenColumn key={column.index} left={column.left} width={w} date={column.date} open={open} height={height} />;
        return column.workday && !holiday && !column.today && !column.weekStart ? null : (
          <span
            key={column.index}
            className={`pb-day${column.workday && !holiday ? '' : ' is-off'}${holiday ? ' is-holiday' : ''}${column.today ? ' is-today' : ''}${column.weekStart ? ' is-week-start' : ''}`}
            style={{ left: column.left, width: w }}
          />
        );
      })}
      {rowLines.map((top) => (
        <span key={top} className="pb-row-line" style={{ top, width }} />
      ))}
    </div>
  );
});

/** A non-workday some stages work: shaded above, between and below their rows, which are marked open. */
function OpenColumn({
  left,
  width,
  date,
  open,
  height,
}: {
  left: number;
  width: number;
  date: string;
  open: readonly RowBand[];
  height: number;
}) {
  const shaded: RowBand[] = [];
  let from = 0;
  for (const band of open) {
    if (band.top > from) shaded.push({ top: from, height: band.top - from });
    from = Math.max(from, band.top + band.height);
  }
  if (from < height) shaded.push({ top: from, height: height - from });
  return (
    <>
      {shaded.map((band) => (
        <span
          key={`off-${band.top}`}
          className="pb-day is-off"
          style={{ left, width, top: band.top, bottom: 'auto', height: band.height }}
        />
      ))}
      {open.map((band) => (
        <span
          key={`open-${band.top}`}
          className="pb-day is-stage-workday"
          data-stage-workday={date}
          style={{ left, width, top: band.top, bottom: 'auto', height: band.height }}
        />
      ))}
    </>
  );
}
