/**
 * The planboard of one board: tools and filters on top, the backlog on the left, the grid in
 * the middle, the card panel on the right. It reads the board, its cards for the days around
 * the view and their capacity, lays the cards out once per change, and hands the grid what it
 * needs to render the part in view.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useList } from '../../api/hooks.js';
import { resourceListQuery } from '../../api/queries.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { Notices } from '../../components/Notices.js';
import { useCardPanel } from '../../state/card-panel.js';
import { usePlanboardStore } from '../../state/planboard.js';
import { byPriority, useBoardWithParts } from '../boards/board-with-parts.js';
import { useOverruledCardIds } from '../sync/overruled-api.js';
import { usePlanFindingCardIds } from '../sync/plan-check-api.js';
import { CardDetailPanel } from '../card/CardDetailPanel.js';
import { BacklogPanel } from './BacklogPanel.js';
import { layoutBoard, type BoardLayout } from './board-layout.js';
import { cardMatcher } from './card-filter.js';
import { dayIndex, localToday, timelineAround, type DayRange, type Workdays } from './date-geometry.js';
import { FilterBar } from './FilterBar.js';
import { useHolidayDays } from './holiday-days.js';
import { capacityHeight, laneHeight, rowPadding } from './grid-metrics.js';
import { PlanboardGrid, type GridHandle } from './PlanboardGrid.js';
import { PlanboardToolbar } from './PlanboardToolbar.js';
import { PrintPlanDialog } from './PrintPlanDialog.js';
import { DeleteConfirm } from './DeleteConfirm.js';
import { CollectionStrip } from './CollectionStrip.js';
import { ResourceGrid } from './ResourceGrid.js';
import { useResourceCapacity } from './resource-capacity.js';
import { layoutResources, resourceRowsFor } from './resource-layout.js';
import { CardLookupsContext, type CardLookups } from './PlanCardView.js';
import { useBoardMaterial } from './material.js';
import { useBoardSkills } from './skills.js';
import { SelectionBar } from './SelectionBar.js';
import { ShortcutHelp } from './ShortcutHelp.js';
import { useCollectionFocus } from './use-collection-focus.js';
import { blockDays, usePlanboardCapacity, usePlanboardCards, usePlanboardStageDays } from './use-planboard-data.js';
import { usePlanboardActions } from './use-planboard-actions.js';
import { usePlanboardShortcuts } from './use-planboard-shortcuts.js';

export function Planboard({ boardId }: { boardId: string }) {
  const t = useT();
  const board = useBoardWithParts(boardId);
  const resources = useList('resource', resourceListQuery);
  const holidays = useHolidayDays();
  const zoom = usePlanboardStore((state) => state.zoom);
  const showCapacity = usePlanboardStore((state) => state.showCapacity);
  const rowsBy = usePlanboardStore((state) => state.rowsBy);
  const backlogOpen = usePlanboardStore((state) => state.backlogOpen);
  const filters = usePlanboardStore((state) => state.filters);
  const selection = usePlanboardStore((state) => state.selection);
  const resetSelection = usePlanboardStore((state) => state.resetSelection);
  const setHelpOpen = usePlanboardStore((state) => state.setHelpOpen);
  const closePanel = useCardPanel((state) => state.close);
  const [today] = useState(localToday);
  const timeline = useMemo(() => timelineAround(today, zoom), [today, zoom]);
  const gridHandle = useRef<GridHandle | null>(null);

  // Cards and capacity load for the days the grid renders plus a block on each side (so a
  // scroll finds its cards loaded before it gets there), in whole blocks: this re-renders only
  // when the scroll reaches another block, not every day.
  const [loadRange, setLoadRange] = useState<DayRange>(() =>
    loadRangeFor(dayIndex(timeline, today) - 14, dayIndex(timeline, today) + 42, timeline.days),
  );
  // The grid tells of every day its window moves (every frame of a scroll); only a new block
  // is news here. Compared before asking for a render: a state update that turns out the same
  // still renders the planboard, and with it the backlog and every card, at each frame.
  const shownLoadRange = useRef(loadRange);
  shownLoadRange.current = loadRange;
  const onDaysChange = useCallback(
    (range: DayRange) => {
      const next = loadRangeFor(range.first, range.last, timeline.days);
      const current = shownLoadRange.current;
      if (current.first !== next.first || current.last !== next.last) setLoadRange(next);
    },
    [timeline.days],
  );
  const cards = usePlanboardCards(boardId, timeline, loadRange);
  const capacity = usePlanboardCapacity(boardId, timeline, loadRange, showCapacity && rowsBy === 'stage');
  // The days a stage works that the board does not (docs/API.md "A stage's workdays").
  const stageDays = usePlanboardStageDays(boardId, timeline, loadRange);
  const resourceCapacity = useResourceCapacity(boardId, timeline, loadRange, showCapacity && rowsBy === 'resource');

  useEffect(() => {
    resetSelection();
    closePanel();
  }, [boardId, resetSelection, closePanel]);

  const stages = useMemo(() => byPriority(board.data?.stages ?? []), [board.data]);
  const stageIds = useMemo(() => stages.map((stage) => stage.id), [stages]);
  const actions = usePlanboardActions(boardId);
  usePlanboardShortcuts(actions);

  const visibleCards = useMemo(() => {
    const matches = cardMatcher(filters);
    return matches ? cards.cards.filter(matches) : cards.cards;
  }, [cards.cards, filters]);
  const dims = useMemo(() => ({ laneHeight, capacityHeight: showCapacity ? capacityHeight : 0, rowPadding }), [showCapacity]);
  const previousLayout = useRef<BoardLayout | undefined>(undefined);
  const layout = useMemo(
    () => layoutBoard(stageIds, visibleCards, timeline, dims, previousLayout.current),
    [stageIds, visibleCards, timeline, dims],
  );
  useEffect(() => {
    previousLayout.current = layout;
  }, [layout]);
  const noResource = t('planboard.noResource');
  const resourceLayout = useMemo(
    () =>
      rowsBy === 'resource'
        ? layoutResources(resourceRowsFor(boardId, resources.data?.data ?? [], visibleCards, noResource), visibleCards, timeline, dims)
        : null,
    [rowsBy, boardId, resources.data, visibleCards, noResource, timeline, dims],
  );

  const overruledCards = useOverruledCardIds();
  const planFindingCards = usePlanFindingCardIds();
  const material = useBoardMaterial(boardId);
  const skills = useBoardSkills(boardId);
  const lookups = useMemo<CardLookups>(
    () => ({
      statuses: new Map((board.data?.statuses ?? []).map((status) => [status.id, status])),
      labels: new Map((board.data?.labels ?? []).map((label) => [label.id, label])),
      resources: new Map((resources.data?.data ?? []).map((resource) => [resource.id, resource])),
      stages: new Map(stages.map((stage) => [stage.id, stage])),
      overruled: overruledCards,
      planFindings: planFindingCards,
      materialEarly: material.data ?? noMaterial,
      skills: skills.data ?? noSkills,
    }),
    [board.data, resources.data, stages, overruledCards, planFindingCards, material.data, skills.data],
  );

  const selectedCards = useMemo(() => {
    const byId = new Map(cards.cards.map((card) => [card.id, card]));
    return selection.selected.flatMap((id) => byId.get(id) ?? []);
  }, [selection.selected, cards.cards]);

  useFirstPaintMark(!cards.loading && layout.byId.size > 0);
  useCollectionFocus(boardId, gridHandle, layout);

  if (board.isError) return <ErrorNotice error={board.error} onRetry={() => void board.refetch()} />;
  if (!board.data) {
    return (
      <p className="loading" role="status">
        {t('planboard.loadingBoard')}
      </p>
    );
  }

  const labels = byPriority(board.data.labels);
  const statuses = byPriority(board.data.statuses);
  const resourceChoices = resources.data?.data ?? [];

  return (
    <CardLookupsContext.Provider value={lookups}>
      <div className="planboard__tools">
        <PlanboardToolbar grid={gridHandle} today={today} actions={actions} />
        <FilterBar boardId={boardId} labels={labels} resources={resourceChoices} statuses={statuses} />
      </div>
      {cards.error ? <ErrorNotice error={cards.error} onRetry={cards.retry} /> : null}
      {showCapacity && capacity.error ? <ErrorNotice error={capacity.error} /> : null}
      {showCapacity && resourceCapacity.error ? <ErrorNotice error={resourceCapacity.error} /> : null}
      <CollectionStrip stages={stages} />
      <div className="planboard__body">
        {backlogOpen && <BacklogPanel boardId={boardId} stages={stages} actions={actions} grid={gridHandle} />}
        <div className="planboard__grid">
          {resourceLayout ? (
            resourceLayout.rows.length === 0 ? (
              <p className="empty-state">{t('planboard.noResources')}</p>
            ) : (
              <ResourceGrid
                layout={resourceLayout}
                workdays={board.data.workdays as Workdays}
                stageDays={stageDays}
                holidays={holidays}
                zoom={zoom}
                today={today}
                capacity={showCapacity ? resourceCapacity.index : null}
                onDaysChange={onDaysChange}
                actions={actions}
                handleRef={gridHandle}
              />
            )
          ) : stages.length === 0 ? (
            <p className="empty-state">{t('planboard.noStages')}</p>
          ) : (
            <PlanboardGrid
              stages={stages}
              workdays={board.data.workdays as Workdays}
              stageDays={stageDays}
              holidays={holidays}
              layout={layout}
              zoom={zoom}
              today={today}
              capacity={showCapacity ? capacity.index : null}
              onDaysChange={onDaysChange}
              actions={actions}
              handleRef={gridHandle}
            />
          )}
          <SelectionBar cards={selectedCards} labels={labels} resources={resourceChoices} actions={actions} />
          {cards.loading && (
            <p className="planboard__loading" role="status">
              {t('planboard.loadingCards')}
            </p>
          )}
        </div>
        <CardDetailPanel />
      </div>
      {selection.helpOpen && <ShortcutHelp onClose={() => setHelpOpen(false)} />}
      <PrintPlanDialog boardId={boardId} stages={stages} today={today} />
      <DeleteConfirm actions={actions} />
      <Notices />
    </CardLookupsContext.Provider>
  );
}

// One empty lookup each, not a new one per render: the cards re-render when their lookups change.
const noMaterial: CardLookups['materialEarly'] = new Map();
const noSkills: CardLookups['skills'] = new Map();

function loadRangeFor(first: number, last: number, days: number): DayRange {
  return {
    first: Math.max(0, Math.floor((first - blockDays) / blockDays) * blockDays),
    last: Math.min(days - 1, Math.ceil((last + blockDays + 1) / blockDays) * blockDays - 1),
  };
}

/**
 * Marks (User Timing) when the first cards of this board are on screen, after the frame that
 * shows them, with when the last of their data arrived (`planboard:cards-loaded`): the first
 * render as test/bench/ui.ts measures it.
 */
function useFirstPaintMark(ready: boolean) {
  const marked = useRef(false);
  useEffect(() => {
    if (!ready || marked.current) return;
    marked.current = true;
    const dataAt = performance.getEntriesByName('planboard:cards-loaded').at(-1)?.startTime ?? null;
    requestAnimationFrame(() =>
      setTimeout(() => {
        performance.clearMarks('planboard:cards-painted');
        performance.mark('planboard:cards-painted', { detail: { dataAt } });
      }, 0),
    );
  }, [ready]);
}
