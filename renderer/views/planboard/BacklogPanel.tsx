/**
 * The backlog beside the grid: the board's unplanned collections, searchable, by due date.
 * Drag one onto a stage and day to plan it there (onto the date bar: across the board's
 * stages), or use its Plan button. New collections are made here, with their activities.
 *
 * The list is windowed (rows of one height), so 500 collections cost what 15 do.
 */
import { useEffect, useMemo, useRef, useState, type PointerEvent as ReactPointerEvent, type RefObject } from 'react';
import type { Collection } from '../../../shared/resources/collection.js';
import { useList } from '../../api/hooks.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { visibleWindow } from '../../components/windowing.js';
import type { StageWithActivities } from '../boards/board-with-parts.js';
import { watchBacklogDrag } from './backlog-drag.js';
import { hours } from './capacity.js';
import { CreateCollectionForm } from './CreateCollectionForm.js';
import { localToday, longDate } from './date-geometry.js';
import { backlogQuery } from './planboard-cache.js';
import type { GridHandle } from './PlanboardGrid.js';
import type { PlanboardActions } from './use-planboard-actions.js';

type BacklogCollection = Omit<Collection, 'activities'> & { activities?: { id: string; description?: string; time?: number }[] };

const rowHeight = 64;

interface BacklogPanelProps {
  boardId: string;
  stages: readonly StageWithActivities[];
  actions: PlanboardActions;
  grid: RefObject<GridHandle | null>;
}

export function BacklogPanel({ boardId, stages, actions, grid }: BacklogPanelProps) {
  const backlog = useList<'collection', BacklogCollection>('collection', backlogQuery(boardId));
  const [search, setSearch] = useState('');
  const [descending, setDescending] = useState(false);
  const [creating, setCreating] = useState(false);
  const [planning, setPlanning] = useState<string | null>(null);
  const [scroll, setScroll] = useState({ top: 0, height: 600 });
  const listRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const el = listRef.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setScroll({ top: el.scrollTop, height: el.clientHeight }));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const shown = useMemo(() => {
    const text = search.trim().toLowerCase();
    const list = (backlog.data?.data ?? []).filter(
      (collection) => !text || (collection.name ?? '').toLowerCase().includes(text) || (collection.description ?? '').toLowerCase().includes(text),
    );
    // The API sorts soonest first with no due date first; a planner wants undated ones last.
    const dated = list.filter((collection) => collection.due_date);
    const undated = list.filter((collection) => !collection.due_date);
    if (descending) dated.reverse();
    return [...dated, ...undated];
  }, [backlog.data, search, descending]);

  const rows = visibleWindow({ scrollTop: scroll.top, viewportHeight: scroll.height, rowHeight, count: shown.length, overscan: 6 });
  const total = backlog.data?.count ?? 0;

  function startDrag(event: ReactPointerEvent<HTMLLIElement>, collection: BacklogCollection) {
    if (event.button !== 0 || (event.target as Element).closest('button, input, select, a')) return;
    event.preventDefault();
    watchBacklogDrag({
      event: event.nativeEvent,
      label: collection.name || 'Collection',
      grid: () => grid.current,
      onDrop: (cell) => void actions.plan(collection, { start: cell.date, ...(cell.stageId ? { stage_id: cell.stageId } : {}) }),
    });
  }

  return (
    <aside className="pb-backlog" aria-label="Backlog">
      <div className="pb-backlog__header">
        <h2 className="pb-backlog__title">
          Backlog <span className="muted">({total})</span>
        </h2>
        <button type="button" className="button" onClick={() => setCreating(!creating)} aria-expanded={creating}>
          New collection
        </button>
      </div>
      {creating && <CreateCollectionForm boardId={boardId} onDone={() => setCreating(false)} />}
      <div className="pb-backlog__tools">
        <input
          type="search"
          className="pb-backlog__search"
          aria-label="Search backlog"
          placeholder="Search backlog"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <button
          type="button"
          className="button button--quiet"
          onClick={() => setDescending(!descending)}
          aria-label={descending ? 'Order: latest due first' : 'Order: soonest due first'}
          title="Sort by due date"
        >
          Due {descending ? '↓' : '↑'}
        </button>
      </div>
      <p className="pb-backlog__hint muted">Drag onto a stage and day to plan it there; onto the dates to plan it over the board's stages.</p>
      {backlog.isError && <ErrorNotice error={backlog.error} onRetry={() => void backlog.refetch()} />}
      {backlog.isPending && (
        <p className="loading" role="status">
          Loading the backlog…
        </p>
      )}
      {backlog.data && shown.length === 0 && <p className="empty-state">{search ? 'No collection matches.' : 'The backlog is empty.'}</p>}
      {total > shown.length && !search && <p className="muted">Showing the first {shown.length} of {total}.</p>}
      <div
        ref={listRef}
        className="pb-backlog__scroller"
        onScroll={(event) => setScroll({ top: event.currentTarget.scrollTop, height: event.currentTarget.clientHeight })}
      >
        <ul className="pb-backlog__list" aria-label="Backlog collections" style={{ height: shown.length * rowHeight }}>
          {shown.slice(rows.start, rows.end).map((collection, offset) => (
            <li
              key={collection.id}
              className="pb-backlog__item"
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
                />
              ) : (
                <>
                  <div className="pb-backlog__name">{collection.name || 'Untitled collection'}</div>
                  <div className="pb-backlog__facts muted">
                    {collection.due_date ? `Due ${longDate(collection.due_date)}` : 'No due date'}
                    {summary(collection) && ` · ${summary(collection)}`}
                  </div>
                  <div className="pb-backlog__actions">
                    <button type="button" className="button button--quiet" onClick={() => setPlanning(collection.id)}>
                      Plan…
                    </button>
                    <button type="button" className="button button--quiet" onClick={() => void actions.ignore(collection)} aria-label={`Ignore ${collection.name ?? 'collection'}`}>
                      Ignore
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
}

function summary(collection: BacklogCollection): string {
  const activities = collection.activities ?? [];
  if (activities.length === 0) return '';
  const minutes = activities.reduce((sum, activity) => sum + (activity.time ?? 0), 0);
  return `${activities.length === 1 ? (activities[0]!.description ?? '1 activity') : `${activities.length} activities`}, ${hours(minutes)}`;
}

/** Planning without a pointer: a start date and, optionally, one stage for everything. */
function PlanForm({
  collection,
  stages,
  onPlan,
  onCancel,
}: {
  collection: BacklogCollection;
  stages: readonly StageWithActivities[];
  onPlan: (options: { start: string; stage_id?: string }) => void;
  onCancel: () => void;
}) {
  const [start, setStart] = useState(localToday());
  const [stageId, setStageId] = useState('');
  const name = collection.name ?? 'collection';
  return (
    <form
      className="pb-plan-form"
      aria-label={`Plan ${name}`}
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
      <input type="date" aria-label={`Start of ${name}`} value={start} onChange={(event) => setStart(event.target.value)} autoFocus />
      <select aria-label={`Stage for ${name}`} value={stageId} onChange={(event) => setStageId(event.target.value)}>
        <option value="">Board stages</option>
        {stages.map((stage) => (
          <option key={stage.id} value={stage.id}>
            {stage.name}
          </option>
        ))}
      </select>
      <button type="submit" className="button button--primary">
        Plan
      </button>
      <button type="button" className="button button--quiet" onClick={onCancel} aria-label="Cancel planning">
        ✕
      </button>
    </form>
  );
}
