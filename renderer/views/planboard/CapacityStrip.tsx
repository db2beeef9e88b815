/**
 * A stage's capacity for the rendered days, on top of its row: planned against available
 * minutes per day, over-capacity in red. Wide columns (day zoom) print the hours; narrower
 * ones show a bar that fills as the day fills.
 */
import { memo } from 'react';
import { capacityLevel, capacityOn, capacityShare, hours, type CapacityIndex } from './capacity.js';
import { dateAt, longDate, type Timeline } from './date-geometry.js';

interface CapacityStripProps {
  stageId: string;
  stageName: string;
  top: number;
  height: number;
  timeline: Timeline;
  first: number;
  last: number;
  capacity: CapacityIndex;
}

export const CapacityStrip = memo(function CapacityStrip({ stageId, stageName, top, height, timeline, first, last, capacity }: CapacityStripProps) {
  const w = timeline.dayWidth;
  const showText = w >= 64;
  const cells = [];
  for (let index = first; index <= last; index++) {
    const date = dateAt(timeline, index);
    const day = capacityOn(capacity, stageId, date);
    if (!day) continue;
    const level = capacityLevel(day);
    if (level === 'none') continue;
    cells.push(
      <span
        key={index}
        className={`pb-capacity__day is-${level}`}
        style={{ left: index * w, width: w }}
        title={`${stageName}, ${longDate(date)}: ${day.planned} of ${day.available} minutes planned${level === 'over' ? ' (over capacity)' : ''}`}
      >
        <span className="pb-capacity__fill" style={{ width: `${Math.round(capacityShare(day) * 100)}%` }} />
        {showText && (
          <span className="pb-capacity__text">
            {hours(day.planned)} / {hours(day.available)}
          </span>
        )}
      </span>,
    );
  }
  return (
    <div className="pb-capacity" style={{ top, height }} data-stage-id={stageId}>
      {cells}
    </div>
  );
});
