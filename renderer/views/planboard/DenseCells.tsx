/**
 * At month zoom, the weeks of a stage where cards are too dense to read (dense-cells.ts) get
 * an aggregate over their first lane: "12 cards · 46 h", the hours being the stage's planned
 * load that week (from the capacity strip's figures, when shown). It opens the list of those
 * cards by name; picking one opens its card panel.
 */
import { memo, useState } from 'react';
import { cardNames } from '../../components/card-name.js';
import { useT } from '../../i18n/index.js';
import { useCardPanel } from '../../state/card-panel.js';
import type { StageRow } from './board-layout.js';
import { hourFigures, weekCapacities, type CapacityIndex } from './capacity.js';
import { dateAt, shortDate, type Timeline } from './date-geometry.js';
import { denseWeeks } from './dense-cells.js';

interface DenseCellsProps {
  row: StageRow;
  stageName: string;
  timeline: Timeline;
  first: number;
  last: number;
  /** Where the row's first lane starts, below its capacity strip. */
  laneTop: number;
  laneHeight: number;
  capacity: CapacityIndex | null;
}

export const DenseCells = memo(function DenseCells({
  row,
  stageName,
  timeline,
  first,
  last,
  laneTop,
  laneHeight,
  capacity,
}: DenseCellsProps) {
  const t = useT();
  const openCard = useCardPanel((state) => state.open);
  const [openWeek, setOpenWeek] = useState<number | null>(null);
  const weeks = denseWeeks(row.placed, first, last);
  if (weeks.length === 0) return null;
  const w = timeline.dayWidth;
  const at = (day: number) => dateAt(timeline, day);
  return (
    <>
      {weeks.map((week) => {
        const figures = capacity ? weekCapacities(capacity, row.stageId, week.first, week.first, at)[0] : undefined;
        const label = figures
          ? t('workload.dense.label', { count: week.cards.length, hours: hourFigures(figures, t.locale, true).planned })
          : t('workload.dense.cards', { count: week.cards.length });
        const open = openWeek === week.first;
        const names = open
          ? cardNames(
              week.cards.map((p) => ({ ...p.card, stage: { name: stageName } })),
              t,
            )
          : [];
        const where = t('workload.dense.where', {
          stage: stageName,
          start: shortDate(at(week.first), t),
          end: shortDate(at(week.first + 6), t),
        });
        return (
          <div key={week.first} className="pb-dense" style={{ left: week.first * w + 1, top: row.top + laneTop, width: 7 * w - 2 }}>
            <button
              type="button"
              className="pb-dense__button"
              style={{ height: laneHeight - 6 }}
              aria-expanded={open}
              aria-label={`${label}, ${where}`}
              title={`${label}, ${where}`}
              onClick={() => setOpenWeek(open ? null : week.first)}
            >
              {label}
            </button>
            {open && (
              <div
                className="pb-dense__list"
                role="dialog"
                aria-label={where}
                onKeyDown={(event) => {
                  if (event.key !== 'Escape') return;
                  event.stopPropagation();
                  setOpenWeek(null);
                }}
              >
                <ul>
                  {week.cards.map((p, index) => (
                    <li key={p.card.id}>
                      <button
                        type="button"
                        onClick={() => {
                          setOpenWeek(null);
                          openCard(p.card.id);
                        }}
                      >
                        {names[index]}
                      </button>
                    </li>
                  ))}
                </ul>
              </div>
            )}
          </div>
        );
      })}
    </>
  );
});
