/**
 * The planboard grid: stages down, days across, cards on top. It renders only what is near
 * the viewport — the days of the scroll position plus a margin, and the rows and lanes in
 * view — and moves that window a day at a time, so a scroll step mounts a thin slice of
 * (memoized) cards and the compositor scrolls the rest.
 *
 * Pointer input: drag a card to another day or stage, drag its edges to change its dates,
 * click to select (Shift/Ctrl to add), double-click to open. Keyboard input goes through the
 * pure reducer in keyboard.ts. Both end in `PlanboardActions`.
 */
import {
  useCallback,
  useEffect,
  useMemo,
  useRef,
  type KeyboardEvent,
  type MouseEvent,
  type PointerEvent as ReactPointerEvent,
  type RefObject,
} from 'react';
import { useT } from '../../i18n/index.js';
import { useCardPanel } from '../../state/card-panel.js';
import { usePlanboardStore } from '../../state/planboard.js';
import type { StageWithActivities } from '../boards/board-with-parts.js';
import { cardsInWindow, laneAtY, rowAtY, type BoardLayout, type PlacedCard } from './board-layout.js';
import type { CapacityIndex } from './capacity.js';
import { describeDrop, movesFor, watchCardPointer } from './card-pointer.js';
import {
  dateAt,
  dayAtX,
  dayIndex,
  longDate,
  scrollLeftFor,
  scrollToShow,
  shiftSpan,
  totalWidth,
  type DayRange,
  type Workdays,
  type Zoom,
} from './date-geometry.js';
import type { HolidayDays } from '../../../shared/holiday-days.js';
import { GridSheet, gridBodyPoint, rowInView } from './GridSheet.js';
import { leadIn, useGridWindow } from './use-grid-window.js';
import { cardHeight, headerHeight, stageColumnWidth } from './grid-metrics.js';
import { cardAt, clickCard, planboardKey, type NavCard, type NavContext } from './keyboard.js';
import { cardElementId, edgeAt, PlanCardView } from './PlanCardView.js';
import { DependencyArrows } from './DependencyArrows.js';
import { StageHeaders } from './StageHeaders.js';
import type { PlanboardActions } from './use-planboard-actions.js';
import { onNonWorkday, openRows, type StageDays } from './non-workdays.js';
import { useWorkdayGuard } from './use-workday-guard.js';
import { DenseCells } from './DenseCells.js';

/** A place on the grid something can be dropped: a day on a stage, or a day on the date bar (stage null). */
export interface DropCell {
  date: string;
  stageId: string | null;
}

/** What the rest of the planboard may ask of the grid (the backlog's drag, the Today button). */
export interface GridHandle {
  cellAt(clientX: number, clientY: number): DropCell | null;
  showDrop(cell: DropCell | null): void;
  scrollToDate(date: string): void;
  /** Scrolls a loaded card into view and selects it as a click would; false until it is loaded. */
  showCard(cardId: string): boolean;
}

interface PlanboardGridProps {
  stages: readonly StageWithActivities[];
  workdays: Workdays;
  /** The days a stage works that the board does not (non-workdays.ts): open in its rows. */
  stageDays: StageDays;
  holidays: HolidayDays;
  layout: BoardLayout;
  zoom: Zoom;
  today: string;
  /** Null while the strip is hidden. */
  capacity: CapacityIndex | null;
  /** The days rendered changed (load what they need). */
  onDaysChange: (range: DayRange) => void;
  actions: PlanboardActions;
  handleRef: RefObject<GridHandle | null>;
}

export function PlanboardGrid(props: PlanboardGridProps) {
  const { stages, workdays, stageDays, holidays, layout, zoom, today, capacity, onDaysChange, actions, handleRef } = props;
  const t = useT();
  const scroller = useRef<HTMLDivElement>(null);
  const listbox = useRef<HTMLDivElement>(null);
  const dropIndicator = useRef<HTMLDivElement>(null);
  const dragLabel = useRef<HTMLDivElement>(null);
  const { timeline } = layout;
  const { view, measure } = useGridWindow(scroller, timeline, zoom, today, onDaysChange);
  const selection = usePlanboardStore((state) => state.selection);
  const setSelection = usePlanboardStore((state) => state.setSelection);
  const cardPanel = useCardPanel();
  /** Set after a drag so the click that ends it does not also select. */
  const dragged = useRef(false);
  /** Moves refused onto a non-workday unless overridden (docs/API.md "Cards on non-workdays"). */
  const moveCards = useWorkdayGuard(actions, workdays, stageDays);

  // ---- geometry helpers over the live scroll position -----------------------------------

  const bodyPoint = useCallback((clientX: number, clientY: number) => gridBodyPoint(scroller.current!, clientX, clientY), []);

  const scrollIntoView = useCallback((left: number, width: number, top: number, height: number) => {
    const el = scroller.current;
    if (!el) return;
    el.scrollLeft = scrollToShow(left, width, el.scrollLeft, el.clientWidth - stageColumnWidth);
    el.scrollTop = scrollToShow(top, height, el.scrollTop, el.clientHeight - headerHeight);
  }, []);

  useEffect(() => {
    handleRef.current = {
      cellAt(clientX, clientY) {
        const point = bodyPoint(clientX, clientY);
        if (point.outside || point.inStages) return null;
        const date = dateAt(timeline, dayAtX(timeline, point.x));
        if (point.inHeader) return { date, stageId: null };
        const row = rowAtY(layout, point.y);
        return row ? { date, stageId: row.stageId } : null;
      },
      showDrop(cell) {
        const indicator = dropIndicator.current;
        if (!indicator) return;
        if (!cell) {
          indicator.hidden = true;
          return;
        }
        const row = cell.stageId ? layout.rows.find((candidate) => candidate.stageId === cell.stageId) : undefined;
        const left = dayIndex(timeline, cell.date) * timeline.dayWidth;
        indicator.style.transform = `translate3d(${left}px, ${row ? row.top : 0}px, 0)`;
        indicator.style.width = `${timeline.dayWidth}px`;
        indicator.style.height = `${row ? row.height : layout.height}px`;
        indicator.hidden = false;
      },
      scrollToDate(date) {
        const el = scroller.current;
        if (el) el.scrollLeft = scrollLeftFor(timeline, date, leadIn(el));
      },
      showCard(cardId) {
        const placed = layout.byId.get(cardId);
        if (!placed) return false;
        scrollIntoView(placed.left, Math.min(placed.width, 600), placed.top, cardHeight);
        setSelection(clickCard(usePlanboardStore.getState().selection, toNavCard(placed), placed.first, {}));
        // The keyboard goes on from the card: Enter opens it.
        listbox.current?.focus({ preventScroll: true });
        return true;
      },
    };
  }, [handleRef, bodyPoint, layout, timeline, scrollIntoView, setSelection]);

  // ---- what to render --------------------------------------------------------------------

  const visible = useMemo(() => cardsInWindow(layout, view.days, view.top, view.bottom), [layout, view]);
  const selected = useMemo(() => new Set(selection.selected), [selection.selected]);
  const navCards = useMemo(() => [...layout.byId.values()].map(toNavCard), [layout]);
  const navContext = useCallback(
    (): NavContext => ({
      cards: navCards,
      lanesPerStage: layout.rows.map((row) => Math.max(1, row.laneCount)),
      days: timeline.days,
      startDay: scroller.current ? Math.floor(scroller.current.scrollLeft / timeline.dayWidth) : 0,
    }),
    [navCards, layout, timeline],
  );
  const cursor = selection.cursor;
  const cursorCard = cursor ? cardAt(navCards, cursor.stage, cursor.lane, cursor.day) : undefined;
  const cursorRow = cursor ? layout.rows[cursor.stage] : undefined;
  const cursorBox =
    cursor && cursorRow
      ? { left: cursor.day * timeline.dayWidth, top: cursorRow.top + layout.dims.capacityHeight + cursor.lane * layout.dims.laneHeight }
      : null;

  // ---- keyboard ---------------------------------------------------------------------------

  function cardsOf(ids: readonly string[]): PlacedCard[] {
    return ids.map((id) => layout.byId.get(id)).filter((p): p is PlacedCard => p !== undefined);
  }

  function onKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    const ctx = navContext();
    const result = planboardKey(
      { ...selection, panelOpen: cardPanel.openCardId !== null },
      { key: event.key, shift: event.shiftKey, ctrl: event.ctrlKey || event.metaKey, alt: event.altKey },
      ctx,
    );
    if (!result.handled) return;
    event.preventDefault();
    event.stopPropagation();
    const { panelOpen: _panelOpen, ...next } = result.state;
    setSelection(next);
    const command = result.command;
    switch (command?.type) {
      case 'open':
        cardPanel.open(command.id);
        break;
      case 'close-panel':
        cardPanel.close();
        break;
      case 'move-days':
        moveCards(
          cardsOf(command.ids).map((p) => ({
            card: p.card,
            ...dates(shiftSpan(p.card.start_date, p.card.end_date, command.days)),
            stage_id: p.card.stage_id,
          })),
        );
        break;
      case 'move-stage':
        void actions.moveCards(
          cardsOf(command.ids).flatMap((p) => {
            const stage = stages[p.stage + command.stages];
            return stage ? [{ card: p.card, start_date: p.card.start_date, end_date: p.card.end_date, stage_id: stage.id }] : [];
          }),
        );
        break;
      case 'delete':
        void actions.deleteCards(cardsOf(command.ids).map((p) => p.card));
        break;
      case 'undo':
        void actions.undo();
        break;
      case 'redo':
        void actions.redo();
        break;
    }
    const moved = next.cursor;
    if (moved && moved !== selection.cursor && !command) {
      const row = layout.rows[moved.stage];
      const card = cardAt(ctx.cards, moved.stage, moved.lane, moved.day);
      if (row) {
        const top = row.top + layout.dims.capacityHeight + moved.lane * layout.dims.laneHeight;
        if (card)
          scrollIntoView(card.first * timeline.dayWidth, Math.min((card.last - card.first + 1) * timeline.dayWidth, 600), top, cardHeight);
        else scrollIntoView(moved.day * timeline.dayWidth, timeline.dayWidth, top, cardHeight);
      }
    }
  }

  // ---- pointer: select, open, drag ---------------------------------------------------------

  function placedAt(target: EventTarget | null): PlacedCard | undefined {
    const element = (target as Element | null)?.closest?.('[data-card-id]') as HTMLElement | null;
    return element ? layout.byId.get(element.dataset.cardId!) : undefined;
  }

  function onClick(event: MouseEvent<HTMLDivElement>) {
    if (dragged.current) {
      dragged.current = false;
      return;
    }
    const point = bodyPoint(event.clientX, event.clientY);
    const day = dayAtX(timeline, point.x);
    const placed = placedAt(event.target);
    const modifiers = { shift: event.shiftKey, ctrl: event.ctrlKey || event.metaKey };
    if (placed) {
      setSelection(clickCard(selection, toNavCard(placed), day, modifiers));
      // An open panel follows a plain click, so what is edited there is the card just chosen;
      // Shift and Ctrl only grow the selection.
      if (cardPanel.openCardId !== null && !modifiers.shift && !modifiers.ctrl) cardPanel.open(placed.card.id);
      return;
    }
    const row = rowAtY(layout, point.y);
    if (row && !modifiers.shift && !modifiers.ctrl) {
      setSelection({ ...selection, cursor: { stage: row.index, lane: laneAtY(layout, row, point.y), day }, selected: [] });
    }
  }

  function onDoubleClick(event: MouseEvent<HTMLDivElement>) {
    const placed = placedAt(event.target);
    if (placed) cardPanel.open(placed.card.id);
  }

  function onPointerDown(event: ReactPointerEvent<HTMLDivElement>) {
    if (event.button !== 0) return;
    const placed = placedAt(event.target);
    listbox.current?.focus({ preventScroll: true });
    const element = placed && document.getElementById(cardElementId(placed.card.id));
    if (!placed || !element || !scroller.current) return;
    const mode = edgeAt(element, event.clientX) ?? 'move';
    // Dragging a selected card takes the other selected cards along (by days and rows).
    const moving = mode === 'move' && selected.has(placed.card.id) ? cardsOf(selection.selected) : [placed];
    watchCardPointer({
      event: event.nativeEvent,
      element,
      followers: moving
        .filter((p) => p !== placed)
        .flatMap((p) => document.querySelector<HTMLElement>(`[data-card-id="${p.card.id}"]`) ?? []),
      mode,
      width: placed.width,
      scroller: scroller.current,
      timeline,
      rowAt: (y) => (y < 0 ? 0 : (rowAtY(layout, y)?.index ?? layout.rows.length - 1)),
      rowTops: layout.rows.map((row) => row.top),
      bodyPoint,
      label: dragLabel.current,
      describe: (result) => describeDrop({ card: placed.card, row: placed.stage }, result, stages, t),
      onDragged: () => {
        dragged.current = true;
      },
      onDrop: (result, anyDay) => moveCards(movesFor(moving, result, stages), anyDay),
    });
  }

  // ---- render -------------------------------------------------------------------------------

  const width = totalWidth(timeline);
  const heights = useMemo(() => layout.rows.map((row) => row.height), [layout]);
  const open = useMemo(() => openRows(stageDays, layout.rows), [stageDays, layout]);
  const activeId = cursorCard?.id;
  const cursorRowName = cursor ? stages[cursor.stage]?.name : undefined;

  return (
    <GridSheet
      scroller={scroller}
      onScroll={measure}
      timeline={timeline}
      zoom={zoom}
      today={today}
      workdays={workdays}
      openRows={open}
      holidays={holidays}
      view={view}
      rows={layout.rows}
      height={layout.height}
      capacity={capacity}
      capacityHeight={layout.dims.capacityHeight}
      stripOf={(index) => {
        const row = layout.rows[index]!;
        return { id: row.stageId, name: stages[row.index]?.name ?? '' };
      }}
      headers={<StageHeaders stages={stages} heights={heights} />}
      after={<div ref={dragLabel} className="pb-drag-label" hidden aria-live="polite" />}
    >
      <div
        ref={listbox}
        className="pb-cards"
        role="listbox"
        aria-label={t('planboard.cards')}
        aria-multiselectable="true"
        aria-activedescendant={activeId ? cardElementId(activeId) : cursorBox ? 'pb-cursor' : undefined}
        tabIndex={0}
        onKeyDown={onKeyDown}
        onPointerDown={onPointerDown}
        onClick={onClick}
        onDoubleClick={onDoubleClick}
      >
        {visible.map((p) => (
          <PlanCardView
            key={p.card.id}
            card={p.card}
            left={p.left}
            top={p.top}
            width={p.width}
            height={cardHeight}
            shared={layout.rows[p.stage]?.shared}
            selected={selected.has(p.card.id)}
            active={p.card.id === activeId}
            offDay={onNonWorkday(p.card, workdays, stageDays)}
          />
        ))}
        {cursorBox && !cursorCard && (
          <div
            id="pb-cursor"
            role="option"
            aria-selected="false"
            aria-label={t('planboard.emptyCell', { stage: cursorRowName ?? '', date: longDate(dateAt(timeline, cursor!.day), t) })}
            className="pb-cursor"
            style={{ left: cursorBox.left, top: cursorBox.top, width: timeline.dayWidth, height: cardHeight }}
          />
        )}
      </div>
      <DependencyArrows
        boardId={stages[0]?.board_id ?? ''}
        layout={layout}
        stages={stages}
        visible={visible}
        width={width}
        cardHeight={cardHeight}
      />
      {zoom === 'month' &&
        layout.rows.map((row) =>
          !rowInView(row, view) ? null : (
            <DenseCells
              key={row.stageId}
              row={row}
              stageName={stages[row.index]?.name ?? ''}
              timeline={timeline}
              first={view.days.first}
              last={view.days.last}
              laneTop={layout.dims.capacityHeight}
              laneHeight={layout.dims.laneHeight}
              capacity={capacity}
            />
          ),
        )}
      <div ref={dropIndicator} className="pb-drop" hidden />
    </GridSheet>
  );
}

function toNavCard(p: PlacedCard): NavCard {
  return { id: p.card.id, stage: p.stage, lane: p.lane, first: p.first, last: p.last };
}

function dates(span: { start: string; end: string }): { start_date: string; end_date: string } {
  return { start_date: span.start, end_date: span.end };
}
