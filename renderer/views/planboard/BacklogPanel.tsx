/**
 * The backlog beside the grid: the board's unplanned collections, searchable, by due date.
 * Unless the board keeps its own backlog (`own_backlog`), that includes the collections on no
 * board yet — those orders create — see `backlogQuery`. Drag one onto a stage and day to plan
 * it there (onto the date bar: across the board's stages), or use its Plan button. New
 * collections are made here, with their activities.
 *
 * Sent here to show one collection (an order's "Show in the backlog"), it types the
 * collection's name into the search and marks it.
 *
 * The list is windowed (rows of one height), so 500 collections cost what 15 do. The API does
 * the search, so a backlog longer than one read (1,000) still finds any collection in it.
 */
import { ArrowDown, ArrowUp, X } from 'lucide-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { memo, useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';
import type { Collection } from '../../../shared/resources/collection.js';
import { useApi } from '../../api/provider.js';
import { resourcePath } from '../../api/resources.js';
import { formatDay } from '../../components/dates-format.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { typingPause, useDebouncedValue } from '../../components/use-debounced-value.js';
import { scrollTopToShow, visibleWindow } from '../../components/windowing.js';
import { useT, type Translate } from '../../i18n/index.js';
import { useUiStore } from '../../state/ui.js';
import { useBoardWithParts, type StageWithActivities } from '../boards/board-with-parts.js';
import { watchBacklogDrag } from './backlog-drag.js';
import { CreateCollectionForm } from './CreateCollectionForm.js';
import { localToday } from './date-geometry.js';
import { backlogQuery, planboardKeys } from './planboard-cache.js';
import type { GridHandle } from './PlanboardGrid.js';
import type { PlanboardActions } from './use-planboard-actions.js';
import { usePlanboardStore } from '../../state/planboard.js';
import { PlanDialog } from './PlanDialog.js';
import { endsLate, usePromiseDates } from './promise-dates.js';
import { MaterialLine } from './MaterialLine.js';
import { useMaterial } from './material.js';
import { ReplanLateDialog } from './ReplanLateDialog.js';

type BacklogCollection = Omit<Collection, 'activities'> & { activities?: { id: string; description?: string; time?: number }[] };

// Three lines: the name, its due date and work, and when it can finish.
const rowHeight = 80;

interface BacklogPanelProps {
  boardId: string;
  stages: readonly StageWithActivities[];
  actions: PlanboardActions;
  grid: RefObject<GridHandle | null>;
}

/**
 * Memoized: the planboard renders again for what the backlog does not show (a new block of
 * days loaded while the grid scrolls), and the backlog's rows are not cheap to render.
 */
export const BacklogPanel = memo(function BacklogPanel({ boardId, stages, actions, grid }: BacklogPanelProps) {
  const t = useT();
  const [search, setSearch] = useState('');
  const backlog = useBacklog(boardId, useDebouncedValue(search.trim(), typingPause));
  const focus = useUiStore((state) => state.collectionFocus);
  const clearFocus = useUiStore((state) => state.clearCollectionFocus);
  const [descending, setDescending] = useState(false);
  const [creating, setCreating] = useState(false);
  // "New collection" from the File menu or the N key opens the form, once per request.
  const newCollectionRequested = usePlanboardStore((state) => state.newCollectionRequested);
  useEffect(() => {
    if (!newCollectionRequested) return;
    setCreating(true);
    usePlanboardStore.getState().newCollectionShown();
  }, [newCollectionRequested]);
  const [planning, setPlanning] = useState<string | null>(null);
  /** The collection the plan dialog (forward, backward, finite, with a dry run) is open for. */
  const [planDialog, setPlanDialog] = useState<BacklogCollection | null>(null);
  const [replanOpen, setReplanOpen] = useState(false);
  /** The collection another screen sent the planner here to see. */
  const [marked, setMarked] = useState<string | null>(null);
  const [scroll, setScroll] = useState({ top: 0, height: 600 });
  const listRef = useRef<HTMLDivElement>(null);
  /** Scrolled to the marked collection once; later refreshes leave the scroll to the planner. */
  const markShown = useRef(false);

  useEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setScroll({ top: el.scrollTop, height: el.clientHeight }));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    if (!focus || focus.planned || focus.boardId !== boardId) return;
    setSearch(focus.name ?? '');
    setMarked(focus.collectionId);
    markShown.current = false;
    clearFocus();
  }, [focus, boardId, clearFocus]);

  const shown = useMemo(() => {
    const list = backlog.data?.data ?? [];
    // The API sorts soonest first with no due date first; a planner wants undated ones last.
    const dated = list.filter((collection) => collection.due_date);
    const undated = list.filter((collection) => !collection.due_date);
    if (descending) dated.reverse();
    return [...dated, ...undated];
  }, [backlog.data, descending]);

  useEffect(() => {
    const el = listRef.current;
    const index = marked ? shown.findIndex((collection) => collection.id === marked) : -1;
    if (!el || index === -1 || markShown.current) return;
    markShown.current = true;
    el.scrollTop = scrollTopToShow(index, el.scrollTop, el.clientHeight, rowHeight);
  }, [marked, shown]);

  const rows = visibleWindow({ scrollTop: scroll.top, viewportHeight: scroll.height, rowHeight, count: shown.length, overscan: 6 });
  const total = backlog.data?.count ?? 0;
  // One call for the rows on screen, asked once scrolling pauses.
  const promiseIds = useDebouncedValue(
    useMemo(() => shown.slice(rows.start, rows.end).map((collection) => collection.id), [shown, rows.start, rows.end]),
    typingPause,
  );
  const promises = usePromiseDates(boardId, promiseIds);
  const material = useMaterial(promiseIds);

  function startDrag(event: ReactPointerEvent<HTMLLIElement>, collection: BacklogCollection) {
    if (event.button !== 0 || (event.target as Element).closest('button, input, select, a')) return;
    event.preventDefault();
    watchBacklogDrag({
      event: event.nativeEvent,
      label: collection.name || t('backlog.untitled'),
      grid: () => grid.current,
      onDrop: (cell) => void actions.plan(collection, { start: cell.date, ...(cell.stageId ? { stage_id: cell.stageId } : {}) }),
    });
  }

  return (
    <aside className="pb-backlog" aria-label={t('backlog.title')}>
      <div className="pb-backlog__header">
        <h2 className="pb-backlog__title">
          {t('backlog.title')} <span className="muted">({total})</span>
        </h2>
        <button type="button" className="button" onClick={() => setCreating(!creating)} aria-expanded={creating}>
          {t('backlog.newCollection')}
        </button>
        <button type="button" className="button button--quiet" onClick={() => setReplanOpen(true)}>
          {t('plan.replan.open')}
        </button>
      </div>
      {replanOpen && <ReplanLateDialog boardId={boardId} onClose={() => setReplanOpen(false)} />}
      {planDialog && (
        <PlanDialog
          boardId={boardId}
          collection={planDialog}
          stages={stages}
          onPlan={(options) => {
            setPlanDialog(null);
            void actions.plan(planDialog, options);
          }}
          onClose={() => setPlanDialog(null)}
        />
      )}
      {creating && <CreateCollectionForm boardId={boardId} onDone={() => setCreating(false)} />}
      <div className="pb-backlog__tools">
        <input
          type="search"
          className="pb-backlog__search"
          aria-label={t('backlog.search')}
          placeholder={t('backlog.search')}
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <button
          type="button"
          className="button button--quiet"
          onClick={() => setDescending(!descending)}
          aria-label={descending ? t('backlog.latestDueFirst') : t('backlog.soonestDueFirst')}
          title={t('backlog.sortByDue')}
        >
          {t('backlog.due')} {descending ? <ArrowDown aria-hidden="true" size={12} /> : <ArrowUp aria-hidden="true" size={12} />}
        </button>
      </div>
      <p className="pb-backlog__hint muted">{t('backlog.hint')}</p>
      {backlog.isError && <ErrorNotice error={backlog.error} onRetry={() => void backlog.refetch()} />}
      {backlog.isPending && !backlog.isError && (
        <p className="loading" role="status">
          {t('backlog.loading')}
        </p>
      )}
      {backlog.data && shown.length === 0 && <p className="empty-state">{search ? t('backlog.noMatch') : t('backlog.empty')}</p>}
      {total > shown.length && <p className="muted">{t('backlog.firstOf', { shown: shown.length, total })}</p>}
      <div
        ref={listRef}
        className="pb-backlog__scroller"
        onScroll={(event) => setScroll({ top: event.currentTarget.scrollTop, height: event.currentTarget.clientHeight })}
      >
        <ul className="pb-backlog__list" aria-label={t('backlog.list')} style={{ height: shown.length * rowHeight }}>
          {shown.slice(rows.start, rows.end).map((collection, offset) => (
            <li
              key={collection.id}
              className={collection.id === marked ? 'pb-backlog__item pb-backlog__item--marked' : 'pb-backlog__item'}
              aria-current={collection.id === marked ? 'true' : undefined}
              style={{ top: (rows.start + offset) * rowHeight, height: rowHeight - 4 }}
              onPointerDown={(event) => startDrag(event, collection)}
            >
              {planning === collection.id ? (
                <PlanForm
                  collection={collection}
                  stages={stages}
                  onPlan={(options) => {
                    setPlanning(null);
                    void actions.plan(collection, options);
                  }}
                  onCancel={() => setPlanning(null)}
                  onMore={() => {
                    setPlanning(null);
                    setPlanDialog(collection);
                  }}
                />
              ) : (
                <>
                  <div className="pb-backlog__name">{collection.name || t('backlog.untitled')}</div>
                  <div className="pb-backlog__facts muted">
                    {collection.due_date
                      ? t('backlog.dueOn', { date: formatDay(collection.due_date, t.locale, longDay) })
                      : t('backlog.noDueDate')}
                    {withSummary(summary(collection, t))}
                  </div>
                  {/* One line for both, so a row keeps its height: what it waits for first, then when it can finish. */}
                  <div className="pb-backlog__promise-row">
                    <MaterialLine
                      material={material.isError ? undefined : material.data?.get(collection.id)}
                      className="pb-backlog__material"
                    />
                    <PromiseLine end={promises.isError ? undefined : promises.data?.get(collection.id)} due={collection.due_date} />
                  </div>
                  <div className="pb-backlog__actions">
                    <button type="button" className="button button--quiet" onClick={() => setPlanning(collection.id)}>
                      {t('backlog.plan')}
                    </button>
                    <button
                      type="button"
                      className="button button--quiet"
                      onClick={() => void actions.ignore(collection)}
                      aria-label={t('backlog.ignoreNamed', { name: collection.name || t('backlog.untitled') })}
                    >
                      {t('backlog.ignore')}
                    </button>
                  </div>
                </>
              )}
            </li>
          ))}
        </ul>
      </div>
    </aside>
  );
});

/** "Mon 30 Nov 2026" in the planner's language. */
const longDay: Intl.DateTimeFormatOptions = { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' };

/**
 * The board's backlog (see `backlogQuery`), read once the board is known: whether it has a
 * backlog of its own decides what is in it. Keyed under the board, so planning can take a
 * collection out of it at once whichever query it was.
 */
function useBacklog(boardId: string, search: string) {
  const { client } = useApi();
  const board = useBoardWithParts(boardId).data;
  const query = board ? backlogQuery(board, search) : null;
  return useQuery({
    queryKey: planboardKeys.backlogQuery(boardId, query ?? {}),
    queryFn: () => client.list<BacklogCollection>(resourcePath('collection'), query!),
    enabled: query !== null,
    // While the next search is read, the list keeps what it showed instead of "Loading…".
    placeholderData: keepPreviousData,
  });
}

function summary(collection: BacklogCollection, t: Translate): string {
  const activities = collection.activities ?? [];
  if (activities.length === 0) return '';
  const minutes = activities.reduce((sum, activity) => sum + (activity.time ?? 0), 0);
  const what =
    activities.length === 1 && activities[0]!.description ? activities[0]!.description : t.count('backlog.activities', activities.length);
  return `${what}, ${t('backlog.hours', { hours: hourFormat(t.locale).format(minutes / 60) })}`;
}

function withSummary(text: string): string {
  return text && ` · ${text}`;
}

/** One number format per locale: making one costs more than the rest of a row. */
function hourFormat(locale: string): Intl.NumberFormat {
  let format = hourFormats.get(locale);
  if (!format) hourFormats.set(locale, (format = new Intl.NumberFormat(locale, { maximumFractionDigits: 1 })));
  return format;
}

const hourFormats = new Map<string, Intl.NumberFormat>();

/** Planning without a pointer: a start date and, optionally, one stage for everything. */
function PlanForm({
  collection,
  stages,
  onPlan,
  onCancel,
  onMore,
}: {
  collection: BacklogCollection;
  stages: readonly StageWithActivities[];
  onPlan: (options: { start: string; stage_id?: string }) => void;
  onCancel: () => void;
  /** Opens the plan dialog: backward, finite, and the promise date before planning. */
  onMore: () => void;
}) {
  const t = useT();
  const [start, setStart] = useState(localToday());
  const [stageId, setStageId] = useState('');
  const name = collection.name || t('backlog.untitled');
  return (
    <form
      className="pb-plan-form"
      aria-label={t('backlog.planNamed', { name })}
      onSubmit={(event) => {
        event.preventDefault();
        if (start) onPlan({ start, ...(stageId ? { stage_id: stageId } : {}) });
      }}
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
      <input
        type="date"
        aria-label={t('backlog.startOf', { name })}
        value={start}
        onChange={(event) => setStart(event.target.value)}
        autoFocus
      />
      <select aria-label={t('backlog.stageFor', { name })} value={stageId} onChange={(event) => setStageId(event.target.value)}>
        <option value="">{t('backlog.boardStages')}</option>
        {stages.map((stage) => (
          <option key={stage.id} value={stage.id}>
            {stage.name}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--primary">
        {t('backlog.planSubmit')}
      </button>
      <button type="button" className="button button--quiet" onClick={onMore}>
        {t('plan.dialog.open')}
      </button>
      <button type="button" className="button button--quiet" onClick={onCancel} aria-label={t('backlog.cancelPlanning')}>
        <X aria-hidden="true" size={14} />
      </button>
    </form>
  );
}

/**
 * "can finish by Thu 17 Dec": when the collection could finish if planned now against free
 * capacity; a calm word when there is none. After the due date it says so and stands out, in
 * words and colour, since that is the order a customer will be told is late. `undefined`: not
 * known (yet, or the call failed: the backlog works without it).
 */
function PromiseLine({ end, due }: { end: string | null | undefined; due: string | null }) {
  const t = useT();
  if (end === undefined) return null;
  const late = endsLate(end, due);
  return (
    <div
      className={late ? 'pb-backlog__promise pb-backlog__promise--late' : 'pb-backlog__promise muted'}
      title={t('plan.promise.title')}
      data-testid="backlog-promise"
    >
      {late && <span aria-hidden="true">⚠ </span>}
      {!end
        ? t('plan.promise.noCapacity')
        : t(late ? 'plan.promise.canFinishLate' : 'plan.promise.canFinishBy', { date: formatDay(end, t.locale) })}
    </div>
  );
}
