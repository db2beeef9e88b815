/**
 * The date bands over the grid, for the rendered days only: weeks over days (day and week
 * zoom) or months over weeks (month zoom), with today marked and the company's days off named.
 */
import { memo } from 'react';
import { useT } from '../../i18n/index.js';
import { dateAt, headerBands, type DayRange, type Timeline, type Zoom } from './date-geometry.js';
import type { HolidayDays } from '../../../shared/holiday-days.js';

interface DateHeaderProps {
  timeline: Timeline;
  first: number;
  last: number;
  zoom: Zoom;
  today: string;
  holidays: HolidayDays;
}

export const DateHeader = memo(function DateHeader({ timeline, first, last, zoom, today, holidays }: DateHeaderProps) {
  const t = useT();
  const range: DayRange = { first, last };
  const { upper, lower } = headerBands(timeline, range, zoom, t);
  const todayIndex = Math.round((Date.parse(today) - Date.parse(timeline.origin)) / 86_400_000);
  const todayShown = todayIndex >= first && todayIndex <= last;
  return (
    <div className="pb-dates" aria-hidden="true">
      <div className="pb-dates__band pb-dates__band--upper">
        {upper.map((band) => (
          <span key={band.key} className="pb-dates__cell" style={{ left: band.left, width: band.width }}>
            <span className="pb-dates__text">{band.label}</span>
          </span>
        ))}
      </div>
      <div className="pb-dates__band pb-dates__band--lower">
        {lower.map((band) => {
          // A day's band (not a week's, at month zoom) names the holiday on it.
          const holiday = zoom !== 'month' ? holidays.get(band.key) : undefined;
          return (
            <span
              key={band.key}
              className={`pb-dates__cell${zoom !== 'month' && band.key === today ? ' is-today' : ''}${holiday ? ' is-holiday' : ''}`}
              style={{ left: band.left, width: band.width }}
              data-date={band.key}
              title={holiday ? t('planboard.companyHoliday', { name: holiday }) : undefined}
            >
              <span className="pb-dates__text">{band.label}</span>
            </span>
          );
        })}
      </div>
      {todayShown && zoom === 'month' && (
        <span
          className="pb-dates__today"
          style={{ left: todayIndex * timeline.dayWidth, width: timeline.dayWidth }}
          title={dateAt(timeline, todayIndex)}
        />
      )}
    </div>
  );
});
