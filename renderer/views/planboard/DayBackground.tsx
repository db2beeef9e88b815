/**
 * What lies under the cards: a column per rendered day (non-workdays and the company's days off
 * shaded, today marked, week starts drawn stronger) and a line between stage rows.
 */
import { memo } from 'react';
import { dayColumns, type Timeline, type Workdays } from './date-geometry.js';
import type { HolidayDays } from '../../../shared/holiday-days.js';

interface DayBackgroundProps {
  timeline: Timeline;
  first: number;
  last: number;
  workdays: Workdays;
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
