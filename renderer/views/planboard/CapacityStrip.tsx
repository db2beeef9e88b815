/**
 * A stage's capacity for the rendered days, on top of its row: planned against available
 * minutes per day, over-capacity in red. Wide columns (day zoom) print the hours; narrower
 * ones show a bar that fills as the day fills. Each day is memoized, so a scroll step renders
 * only the days it brings into view.
 */
import { memo } from 'react';
import { useT, type Translate } from '../../i18n/index.js';
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

export const CapacityStrip = memo(function CapacityStrip({
  stageId,
  stageName,
  top,
  height,
  timeline,
  first,
  last,
  capacity,
}: CapacityStripProps) {
  const t = useT();
  const w = timeline.dayWidth;
  const showText = w >= 64;
  const cells = [];
  for (let index = first; index <= last; index++) {
    const date = dateAt(timeline, index);
    const day = capacityOn(capacity, stageId, date);
    if (!day || capacityLevel(day) === 'none') continue;
    cells.push(
      <CapacityDay
        key={index}
        date={date}
        stageName={stageName}
        left={index * w + 1}
        width={w - 2}
        planned={day.planned}
        available={day.available}
        showText={showText}
        t={t}
      />,
    );
  }
  return (
    <div className="pb-capacity" style={{ top, height }} data-stage-id={stageId}>
      {cells}
    </div>
  );
});

interface CapacityDayProps {
  date: string;
  stageName: string;
  left: number;
  width: number;
  planned: number;
  available: number;
  showText: boolean;
  /** From the strip, so the days do not each listen for the language. */
  t: Translate;
}

const CapacityDay = memo(function CapacityDay({ date, stageName, left, width, planned, available, showText, t }: CapacityDayProps) {
  const day = { planned, available };
  const level = capacityLevel(day);
  if (level === 'none') return null;
  return (
    <span
      className={`pb-capacity__day is-${level}`}
      style={{ left, width, backgroundImage: fill(level, capacityShare(day)) }}
      title={t(level === 'over' ? 'planboard.capacity.dayOver' : 'planboard.capacity.day', {
        stage: stageName,
        date: longDate(date, t),
        planned,
        available,
      })}
    >
      {showText && `${hours(planned, t.locale)} / ${hours(available, t.locale)}`}
    </span>
  );
});

const fillColors = { free: 'rgb(58 157 93 / 35%)', full: 'rgb(233 197 59 / 55%)', over: 'rgb(194 59 50 / 45%)' } as const;

/** The day's bar: its level's colour up to the planned share. */
function fill(level: 'free' | 'full' | 'over', share: number): string {
  const percent = `${Math.round(share * 100)}%`;
  return `linear-gradient(to right, ${fillColors[level]} ${percent}, transparent ${percent})`;
}
