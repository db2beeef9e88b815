/**
 * A stage's capacity for the rendered days, on top of its row: planned against available
 * minutes per day, over-capacity in red. Each day shows a bar that fills as the day fills;
 * wide columns (day zoom) print each day's hours in it, narrower ones (week and month zoom)
 * print each week's hours ("38 / 40 h") over its days. The strip is drawn in memoized blocks of
 * two weeks, so a scroll step renders only a block it brings into view, and a block's week
 * figures are summed once per change of its own figures.
 */
import { memo } from 'react';
import { useT, type Translate } from '../../i18n/index.js';
import { durationText } from '../activities/activity-draft.js';
import {
  capacityLevel,
  capacityOn,
  capacityShare,
  hourFigures,
  hours,
  weekCapacities,
  weekLevel,
  type CapacityIndex,
  type WeekCapacity,
} from './capacity.js';
import { dateAt, longDate, shortDate, type Timeline } from './date-geometry.js';

interface CapacityStripProps {
  stageId: string;
  stageName: string;
  top: number;
  height: number;
  timeline: Timeline;
  first: number;
  last: number;
  capacity: CapacityIndex;
  /**
   * The work of a row that has no capacity of its own (the planboard by resource's "No
   * resource"): its hours only, never "over", since nobody's time is being used up.
   */
  noOne?: boolean;
}

/**
 * Days a strip draws as one piece: two weeks from the axis origin (a Monday), so each piece
 * holds whole weeks and a week's figures are summed in one piece only. GridSheet.tsx renders
 * the strips over whole pieces.
 */
export const stripBlock = 14;

export const CapacityStrip = memo(function CapacityStrip({
  stageId,
  stageName,
  top,
  height,
  timeline,
  first,
  last,
  capacity,
  noOne = false,
}: CapacityStripProps) {
  const t = useT();
  // One memoized piece per block of days: a scroll that reaches a new block draws that block
  // alone, and the blocks already drawn (their days' bars and week figures) are not computed
  // again unless their own figures change.
  const blocks = [];
  for (let block = Math.floor(first / stripBlock) * stripBlock; block <= last; block += stripBlock) {
    blocks.push(
      <CapacityBlock
        key={block}
        stageId={stageId}
        stageName={stageName}
        timeline={timeline}
        first={Math.max(first, block)}
        last={Math.min(last, block + stripBlock - 1)}
        capacity={capacity}
        noOne={noOne}
        t={t}
      />,
    );
  }
  return (
    <div className="pb-capacity" style={{ top, height }} data-stage-id={stageId}>
      {blocks}
    </div>
  );
});

interface CapacityBlockProps {
  stageId: string;
  stageName: string;
  timeline: Timeline;
  first: number;
  last: number;
  capacity: CapacityIndex;
  noOne: boolean;
  t: Translate;
}

/**
 * A block of a strip's days: each day's bar and, where days are too narrow for their figures
 * (week and month zoom), each week's hours over them. Weeks and days share one list, so their
 * keys say which they are: a week keyed by its Monday's index alone would collide with that
 * Monday's day, and React would then remount both at every render of the block.
 */
const CapacityBlock = memo(function CapacityBlock({ stageId, stageName, timeline, first, last, capacity, noOne, t }: CapacityBlockProps) {
  const w = timeline.dayWidth;
  const showText = w >= 64;
  const cells = [];
  if (!showText) {
    for (const week of weekCapacities(capacity, stageId, first, last, (day) => dateAt(timeline, day))) {
      cells.push(<CapacityWeek key={`week-${week.first}`} week={week} timeline={timeline} stageName={stageName} noOne={noOne} t={t} />);
    }
  }
  for (let index = first; index <= last; index++) {
    const date = dateAt(timeline, index);
    const day = capacityOn(capacity, stageId, date);
    if (!day || capacityLevel(day) === 'none') continue;
    cells.push(
      <CapacityDay
        key={`day-${index}`}
        date={date}
        stageName={stageName}
        left={index * w + 1}
        width={w - 2}
        planned={day.planned}
        available={day.available}
        showText={showText}
        noOne={noOne}
        t={t}
      />,
    );
  }
  return <>{cells}</>;
}, sameBlock);

/**
 * Whether a block draws the same: the same days of the same stage, and the same figures on
 * each of them. The capacity lookup is a new one whenever a block of days is loaded or
 * dropped; the blocks whose own figures it left alone are not drawn again.
 */
function sameBlock(a: CapacityBlockProps, b: CapacityBlockProps): boolean {
  if (
    a.stageId !== b.stageId ||
    a.stageName !== b.stageName ||
    a.timeline !== b.timeline ||
    a.first !== b.first ||
    a.last !== b.last ||
    a.noOne !== b.noOne ||
    a.t !== b.t
  )
    return false;
  if (a.capacity === b.capacity) return true;
  // The week figures sum whole weeks, which may reach past the block's own days.
  for (let day = Math.floor(a.first / 7) * 7; day < Math.ceil((a.last + 1) / 7) * 7; day++) {
    const date = dateAt(a.timeline, day);
    const before = capacityOn(a.capacity, a.stageId, date);
    const after = capacityOn(b.capacity, b.stageId, date);
    if (before?.planned !== after?.planned || before?.available !== after?.available) return false;
  }
  return true;
}

interface CapacityDayProps {
  date: string;
  stageName: string;
  left: number;
  width: number;
  planned: number;
  available: number;
  showText: boolean;
  noOne: boolean;
  /** From the strip, so the days do not each listen for the language. */
  t: Translate;
}

const CapacityDay = memo(function CapacityDay({ date, stageName, left, width, planned, available, showText, noOne, t }: CapacityDayProps) {
  const day = { planned, available };
  const level = capacityLevel(day);
  if (level === 'none') return null;
  if (noOne) {
    return (
      <span
        className="pb-capacity__day is-no-one"
        style={{ left, width }}
        title={t('workload.dayNoOne', { stage: stageName, date: longDate(date, t), planned: durationText(planned, t) })}
      >
        {showText && hours(planned, t.locale)}
      </span>
    );
  }
  return (
    <span
      className={`pb-capacity__day is-${level}`}
      style={{ left, width, backgroundImage: fill(level, capacityShare(day)) }}
      title={t(level === 'over' ? 'workload.dayOver' : 'workload.day', {
        stage: stageName,
        date: longDate(date, t),
        planned: durationText(planned, t),
        available: durationText(available, t),
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

interface CapacityWeekProps {
  week: WeekCapacity;
  timeline: Timeline;
  stageName: string;
  noOne: boolean;
  t: Translate;
}

/**
 * A week's load in hours ("38 / 40 h") over its days' bars, red when the week or one of its
 * days is over. Only the figures take the pointer (the week's title); the bars around them keep
 * their days' titles. The week object is new each render, so the memo compares its figures.
 */
const CapacityWeek = memo(
  function CapacityWeek({ week, timeline, stageName, noOne, t }: CapacityWeekProps) {
    const level = noOne ? 'no-one' : weekLevel(week);
    if (level === 'none') return null;
    const width = 7 * timeline.dayWidth;
    const start = dateAt(timeline, week.first);
    const end = dateAt(timeline, week.first + 6);
    const params = {
      stage: stageName,
      start: shortDate(start, t),
      end: shortDate(end, t),
      planned: durationText(Math.round(week.planned), t),
      available: durationText(Math.round(week.available), t),
      days: week.overDays.map((date) => longDate(date, t)).join(', '),
    };
    return (
      <span className="pb-capacity__weekband" style={{ left: week.first * timeline.dayWidth + 1, width: width - 2 }}>
        <span
          className={`pb-capacity__week is-${level}`}
          title={t(noOne ? 'workload.weekNoOne' : level === 'over' ? 'workload.weekOver' : 'workload.week', params)}
          data-week-start={start}
        >
          {noOne
            ? t('workload.hoursNoOne', { planned: hourFigures(week, t.locale, width < 120).planned })
            : t('workload.hours', hourFigures(week, t.locale, width < 120))}
        </span>
      </span>
    );
  },
  (a, b) =>
    a.week.first === b.week.first &&
    a.week.planned === b.week.planned &&
    a.week.available === b.week.available &&
    a.week.overDays.length === b.week.overDays.length &&
    a.timeline === b.timeline &&
    a.stageName === b.stageName &&
    a.noOne === b.noOne &&
    a.t === b.t,
);
