/**
 * The planboard by resource: resources down, days across, each row the cards assigned to that
 * resource and, on top, its workload per day against what it has available ("6h / 8h", red when
 * over). The same sheet as the stage grid (PlanboardGrid.tsx): its date header, day columns,
 * capacity strip and cards, the same geometry and the same windowing (only the days and rows
 * near the viewport render).
 *
 * A card dragged onto another person's row is given to them instead of the person it was
 * dragged off (a card with two resources sits in two rows: the row it is taken from says which
 * assignment changes), its dates following the drop as a move on the stage grid does, with the
 * same question about non-workdays: one command, one undo step. Dropped on "No resource", it is
 * taken off that person; dragged off "No resource", it is assigned. A drag within a row, or of
 * a card's edge, moves or resizes it. A click selects the card and opens its panel.
 *
 * "No resource" holds the cards nobody is assigned to, with their hours in its strip, and the
 * corner over the names says how many planned hours on the days shown have no one, so the view
 * never shows less work than the stage grid without saying so.
 */
import {
  memo,
  useCallback,
  useEffect,
  useMemo,
  useRef,
  type MouseEvent,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
} from 'react';
import { useT } from '../../i18n/index.js';
import { useCardPanel } from '../../state/card-panel.js';
import { usePlanboardStore } from '../../state/planboard.js';
import { capacityOn, type CapacityIndex } from './capacity.js';
import { describeDrop, droppedSpan, watchCardPointer } from './card-pointer.js';
import type { DragResult } from './card-drag.js';
import { dateAt, scrollLeftFor, scrollToShow, type DayRange, type Workdays, type Zoom } from './date-geometry.js';
import type { HolidayDays } from '../../../shared/holiday-days.js';
import { GridSheet, gridBodyPoint } from './GridSheet.js';
import { leadIn, useGridWindow } from './use-grid-window.js';
import { cardHeight, headerHeight, stageColumnWidth } from './grid-metrics.js';
import { onNonWorkday, type StageDays } from './non-workdays.js';
import type { GridHandle } from './PlanboardGrid.js';
import { edgeAt, PlanCardView } from './PlanCardView.js';
import { noResourceId } from './resource-capacity.js';
import { placementsInWindow, type ResourceLayout, type ResourcePlacement, type ResourceRow } from './resource-layout.js';
import type { CardMove, PlanboardActions } from './use-planboard-actions.js';
import { useWorkdayGuard } from './use-workday-guard.js';

interface ResourceGridProps {
  layout: ResourceLayout;
  workdays: Workdays;
  /** The days a stage works that the board does not (non-workdays.ts). */
  stageDays: StageDays;
  holidays: HolidayDays;
  zoom: Zoom;
  today: string;
  /** Per resource and day (resource-capacity.ts); null while capacity is hidden. */
  capacity: CapacityIndex | null;
  onDaysChange: (range: DayRange) => void;
  actions: PlanboardActions;
  handleRef: RefObject<GridHandle | null>;
}

type ResourceType = 'employee' | 'machine' | 'cell';
const resourceTypes: ReadonlySet<string> = new Set<ResourceType>(['employee', 'machine', 'cell']);

export function ResourceGrid(props: ResourceGridProps) {
  const { layout, workdays, stageDays, holidays, zoom, today, capacity, onDaysChange, actions, handleRef } = props;
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const dragLabel = useRef<HTMLDivElement>(null);
  /** Set after a drag so the click that ends it does not also select. */
  const dragged = useRef(false);
  const { timeline } = layout;
  const { view, measure } = useGridWindow(scroller, timeline, zoom, today, onDaysChange);
  const selected = usePlanboardStore((state) => state.selection.selected);
  const select = usePlanboardStore((state) => state.select);
  const openCard = useCardPanel((state) => state.open);
  /** Moves refused onto a non-workday unless overridden, as on the stage grid. */
  const guard = useWorkdayGuard(actions, workdays, stageDays);
  useEffect(() => {
    handleRef.current = {
      // Nothing from the backlog is dropped on a resource row: planning is by stage.
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
  const bodyPoint = useCallback((clientX: number, clientY: number) => gridBodyPoint(scroller.current!, clientX, clientY), []);
  const rowAt = useCallback((y: number) => rowIndexAt(layout.rows, y), [layout]);

  // The hours on the days shown that nobody is assigned to (the API's `no_resource`).
  const unassigned = useMemo(() => {
    if (!capacity) return 0;
    let minutes = 0;
    for (let day = view.shown.first; day <= view.shown.last; day++) {
      minutes += capacityOn(capacity, noResourceId, dateAt(timeline, day))?.planned ?? 0;
    }
    return minutes;
  }, [capacity, view.shown, timeline]);

  function onClick(event: MouseEvent<HTMLDivElement>) {
    if (dragged.current) {
      dragged.current = false;
      return;
    }
    const element = (event.target as Element).closest?.('[data-card-id]') as HTMLElement | null;
    const id = element?.dataset.cardId;
    if (!id) return;
    select([id]);
    openCard(id);
  }

  /** A drop: a move or resize within the row, or the card given to the row it was dropped on. */
  function drop(placed: ResourcePlacement, result: DragResult, anyDay: boolean): boolean {
    const span = droppedSpan(placed.card, result);
    const move: CardMove = { card: placed.card, start_date: span.start, end_date: span.end, stage_id: placed.card.stage_id };
    const from = layout.rows[placed.row]!.source;
    const to = result.mode === 'move' ? layout.rows[placed.row + result.rows]?.source : from;
    if (!to || to.id === from.id) return guard([move], anyDay);
    return guard([move], anyDay, () => actions.reassignCard(move, from, to));
  }

  function onPointerDown(event: ReactPointerEvent<HTMLDivElement>) {
    if (event.button !== 0 || !scroller.current) return;
    const element = (event.target as Element).closest?.('[data-card-id]') as HTMLElement | null;
    if (!element) return;
    // The row under the pointer is the one the card is taken from.
    const row = layout.rows[rowAt(bodyPoint(event.clientX, event.clientY).y)];
    const placed = row?.placed.find((p) => p.card.id === element.dataset.cardId);
    if (!placed) return;
    const mode = edgeAt(element, event.clientX) ?? 'move';
    const names = layout.rows.map((r) => r.source);
    watchCardPointer({
      event: event.nativeEvent,
      element,
      followers: [],
      mode,
      width: placed.width,
      scroller: scroller.current,
      timeline,
      rowAt,
      rowTops: layout.rows.map((r) => r.top),
      bodyPoint,
      label: dragLabel.current,
      describe: (result) => describeDrop({ card: placed.card, row: placed.row }, result, names, t),
      onDragged: () => {
        dragged.current = true;
      },
      onDrop: (result, anyDay) => drop(placed, result, anyDay),
    });
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
        return id === null ? { id: noResourceId, name, noOne: true } : { id, name };
      }}
      headers={<ResourceHeaders rows={layout.rows} heights={heights} />}
      corner={
        unassigned > 0 ? (
          <p className="pb-no-one" role="status">
            {t.count('workload.noOneInView', Math.round((unassigned / 60) * 10) / 10)}
          </p>
        ) : null
      }
      after={<div ref={dragLabel} className="pb-drag-label" hidden aria-live="polite" />}
    >
      <div
        className="pb-cards"
        role="listbox"
        aria-label={t('planboard.resourceCards')}
        tabIndex={0}
        onPointerDown={onPointerDown}
        onClick={onClick}
      >
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
            offDay={onNonWorkday(p.card, workdays, stageDays)}
          />
        ))}
      </div>
    </GridSheet>
  );
}

/** The row at body y, clamped to the rows (a drag past the last row stays on it). */
function rowIndexAt(rows: readonly ResourceRow[], y: number): number {
  if (y < 0) return 0;
  const index = rows.findIndex((row) => y < row.top + row.height);
  return index === -1 ? rows.length - 1 : index;
}

/** The resource names down the left, one per row and as tall as it, with the kind of resource. */
const ResourceHeaders = memo(function ResourceHeaders({ rows, heights }: { rows: readonly ResourceRow[]; heights: readonly number[] }) {
  const t = useT();
  return (
    <ol className="pb-stages" aria-label={t('planboard.resources')}>
      {rows.map((row, index) => {
        const type =
          row.source.type && resourceTypes.has(row.source.type) ? t(`common.resourceType.${row.source.type as ResourceType}`) : '';
        // Who is qualified for what (docs/API.md "Skills and crews"), beside the kind of resource.
        const skills = row.source.skills?.length ? t('skills.has', { skills: row.source.skills.join(', ') }) : '';
        const notes = [type, skills].filter(Boolean).join(' · ');
        return (
          <li
            key={row.source.id ?? ''}
            className="pb-stage"
            data-resource-id={row.source.id ?? ''}
            style={{ height: heights[index] }}
            title={skills ? `${row.source.name} — ${skills}` : row.source.name}
          >
            <span className="pb-stage__name">{row.source.name}</span>
            {notes && <span className="pb-stage__notes"> — {notes}</span>}
          </li>
        );
      })}
    </ol>
  );
});
