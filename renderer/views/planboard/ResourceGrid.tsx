/**
 * The planboard by resource: resources down, days across, each row the cards assigned to that
 * resource and, on top, its workload per day against what it has available ("6h / 8h", red when
 * over). The same sheet as the stage grid (PlanboardGrid.tsx): its date header, day columns,
 * capacity strip and cards, the same geometry and the same windowing (only the days and rows
 * near the viewport render).
 *
 * Cards are not dragged here: a card with two resources sits in two rows, and which
 * assignment a drop between rows should change is a question of its own. A click selects the
 * card and opens its panel, where its dates, stage and resources are edited.
 */
import { memo, useEffect, useMemo, useRef, type MouseEvent, type RefObject } from 'react';
import { useT } from '../../i18n/index.js';
import { useCardPanel } from '../../state/card-panel.js';
import { usePlanboardStore } from '../../state/planboard.js';
import type { CapacityIndex } from './capacity.js';
import { scrollLeftFor, scrollToShow, type DayRange, type Workdays, type Zoom } from './date-geometry.js';
import type { HolidayDays } from './holiday-days.js';
import { GridSheet } from './GridSheet.js';
import { leadIn, useGridWindow } from './use-grid-window.js';
import { cardHeight, headerHeight, stageColumnWidth } from './grid-metrics.js';
import { onNonWorkday } from './non-workdays.js';
import type { GridHandle } from './PlanboardGrid.js';
import { PlanCardView } from './PlanCardView.js';
import { placementsInWindow, type ResourceLayout, type ResourceRow } from './resource-layout.js';

interface ResourceGridProps {
  layout: ResourceLayout;
  workdays: Workdays;
  holidays: HolidayDays;
  zoom: Zoom;
  today: string;
  /** Per resource and day (resource-capacity.ts); null while capacity is hidden. */
  capacity: CapacityIndex | null;
  onDaysChange: (range: DayRange) => void;
  handleRef: RefObject<GridHandle | null>;
}

type ResourceType = 'employee' | 'machine' | 'cell';
const resourceTypes: ReadonlySet<string> = new Set<ResourceType>(['employee', 'machine', 'cell']);

export function ResourceGrid({ layout, workdays, holidays, zoom, today, capacity, onDaysChange, handleRef }: ResourceGridProps) {
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const { timeline } = layout;
  const { view, measure } = useGridWindow(scroller, timeline, zoom, today, onDaysChange);
  const selected = usePlanboardStore((state) => state.selection.selected);
  const select = usePlanboardStore((state) => state.select);
  const openCard = useCardPanel((state) => state.open);
  useEffect(() => {
    handleRef.current = {
      // Nothing is dropped on a resource row (see the file head).
      cellAt: () => null,
      showDrop: () => undefined,
      scrollToDate(date) {
        const el = scroller.current;
        if (el) el.scrollLeft = scrollLeftFor(timeline, date, leadIn(el));
      },
      showCard(cardId) {
        const placed = layout.rows.flatMap((row) => row.placed).find((p) => p.card.id === cardId);
        const el = scroller.current;
        if (!placed || !el) return false;
        el.scrollLeft = scrollToShow(placed.left, Math.min(placed.width, 600), el.scrollLeft, el.clientWidth - stageColumnWidth);
        el.scrollTop = scrollToShow(placed.top, cardHeight, el.scrollTop, el.clientHeight - headerHeight);
        select([cardId]);
        return true;
      },
    };
  }, [handleRef, layout, timeline, select]);

  const visible = useMemo(() => placementsInWindow(layout, view.days, view.top, view.bottom), [layout, view]);
  const selectedIds = useMemo(() => new Set(selected), [selected]);
  const heights = useMemo(() => layout.rows.map((row) => row.height), [layout]);

  function onClick(event: MouseEvent<HTMLDivElement>) {
    const element = (event.target as Element).closest?.('[data-card-id]') as HTMLElement | null;
    const id = element?.dataset.cardId;
    if (!id) return;
    select([id]);
    openCard(id);
  }

  return (
    <GridSheet
      scroller={scroller}
      onScroll={measure}
      timeline={timeline}
      zoom={zoom}
      today={today}
      workdays={workdays}
      holidays={holidays}
      view={view}
      rows={layout.rows}
      height={layout.height}
      capacity={capacity}
      capacityHeight={layout.dims.capacityHeight}
      stripOf={(index) => {
        const { id, name } = layout.rows[index]!.source;
        return id === null ? null : { id, name };
      }}
      headers={<ResourceHeaders rows={layout.rows} heights={heights} />}
    >
      <div className="pb-cards" role="listbox" aria-label={t('planboard.resourceCards')} tabIndex={0} onClick={onClick}>
        {visible.map((p) => (
          <PlanCardView
            key={p.key}
            card={p.card}
            left={p.left}
            top={p.top}
            width={p.width}
            height={cardHeight}
            selected={selectedIds.has(p.card.id)}
            active={false}
            offDay={onNonWorkday(p.card, workdays)}
          />
        ))}
      </div>
    </GridSheet>
  );
}

/** The resource names down the left, one per row and as tall as it, with the kind of resource. */
const ResourceHeaders = memo(function ResourceHeaders({ rows, heights }: { rows: readonly ResourceRow[]; heights: readonly number[] }) {
  const t = useT();
  return (
    <ol className="pb-stages" aria-label={t('planboard.resources')}>
      {rows.map((row, index) => {
        const type =
          row.source.type && resourceTypes.has(row.source.type) ? t(`common.resourceType.${row.source.type as ResourceType}`) : '';
        return (
          <li
            key={row.source.id ?? ''}
            className="pb-stage"
            data-resource-id={row.source.id ?? ''}
            style={{ height: heights[index] }}
            title={row.source.name}
          >
            <span className="pb-stage__name">{row.source.name}</span>
            {type && <span className="pb-stage__notes"> — {type}</span>}
          </li>
        );
      })}
    </ol>
  );
});
