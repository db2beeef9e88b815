/**
 * The entries list: every time entry matching the filters, newest first, windowed (only the
 * rows in view are drawn, their pages of 500 fetched as the planner scrolls). Planners select
 * entries and approve or reject them together; each entry that is refused says why. Approved
 * entries are locked: shown with a lock, without edit or delete (a planner can reopen one).
 */
import { Lock, TriangleAlert } from 'lucide-react';
import { useEffect, useMemo, useState } from 'react';
import { describeError } from '../../api/client.js';
import { useApi } from '../../api/provider.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useWindowedList } from '../../components/use-windowed-list.js';
import { pagesCovering } from '../../components/windowing.js';
import { useT, type MessageKey } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import type { TimeStatus } from '../../../shared/resources/time-tracking.js';
import { localDate } from '../../../shared/zoned-time.js';
import { setStatusOfAll, type BulkFailure } from './bulk-status.js';
import { entryName } from './entry-name.js';
import { formatDay, formatTime } from '../../components/dates-format.js';
import { formatHours } from './duration.js';
import { EntryEditor } from './EntryEditor.js';
import { localToday, periodRange, rangeInstants, systemTimeZone } from './periods.js';
import { TimeFilterFields } from './TimeFilterFields.js';
import { booksForOthers, useAppUser } from '../app-user/app-user-api.js';
import type { EntryRow } from './time-api.js';
import { entryListFilter, noTimeFilters } from './time-filters.js';
import { useTimeScreen } from './time-screen-state.js';
import { useClock } from './use-clock.js';
import { entryPageSize, useEntryPages } from './use-entry-pages.js';
import { useEntryWrite } from './use-entry-writes.js';
import { entryMinutes } from './week-grid.js';

const rowHeight = 38;
const overscan = 10;

/** The headings after the selection column, in the order of a row's cells. */
const columnHeads = [
  'entries.date',
  'entries.time',
  'entries.duration',
  'entries.card',
  'entries.activity',
  'entries.user',
  'entries.status',
  'entries.actions',
] as const satisfies readonly MessageKey[];

interface BulkState {
  status: TimeStatus;
  done: number;
  total: number;
}

export function EntriesList() {
  const t = useT();
  const { transport } = useApi();
  const notify = useNotices((state) => state.notify);
  const timeZone = useMemo(systemTimeZone, []);
  const now = useClock(60_000);
  const filters = useTimeScreen((state) => state.filters);
  const setFilter = useTimeScreen((state) => state.setFilter);
  const clearFilters = useTimeScreen((state) => state.clearFilters);
  const range = periodRange(filters.period, localToday(timeZone, now), { start: filters.customStart, end: filters.customEnd });
  const filter = entryListFilter(filters, rangeInstants(range, timeZone));
  const appUser = useAppUser();
  const planner = booksForOthers(appUser.data);

  // Another filter is another list, shown from its top.
  const list = useWindowedList({ rowHeight, overscan, listKey: filter });
  const { viewportRef, inView, shown, knownCount } = list;
  const pages = useEntryPages(filter, pagesCovering(inView, entryPageSize));
  list.learnCount(pages.count);

  const [picked, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [bulk, setBulk] = useState<BulkState | null>(null);
  const [failures, setFailures] = useState<(BulkFailure & { label: string })[]>([]);
  const [editing, setEditing] = useState<EntryRow | null>(null);
  /** How many of the selected entries overlap others, while the planner is asked about them. */
  const [overlapping, setOverlapping] = useState(0);

  // Another filter is another list: nothing in it is selected yet.
  useEffect(() => {
    setSelected(new Set());
    setFailures([]);
    setOverlapping(0);
  }, [filter]);

  const loaded = pages.loadedRows();
  // An entry locked since it was picked (approved in its editor, or by sync) can no longer be
  // changed: it drops out of the selection, and out of what approving asks about.
  const lockedIds = new Set(loaded.filter((entry) => entry.locked).map((entry) => entry.id));
  const selected: ReadonlySet<string> = new Set([...picked].filter((id) => !lockedIds.has(id)));
  const selectable = loaded.filter((entry) => !entry.locked);
  const allSelected = selectable.length > 0 && selectable.every((entry) => selected.has(entry.id));

  function toggle(id: string, on: boolean) {
    setOverlapping(0);
    const next = new Set(selected);
    if (on) next.add(id);
    else next.delete(id);
    setSelected(next);
  }

  function approve() {
    const count = loaded.filter((entry) => selected.has(entry.id) && (entry.overlaps?.length ?? 0) > 0).length;
    if (count > 0) setOverlapping(count);
    else void setStatus('approved');
  }

  async function setStatus(status: TimeStatus) {
    setOverlapping(0);
    const ids = [...selected];
    const labels = new Map(loaded.map((entry) => [entry.id, entryLabel(entry)]));
    setFailures([]);
    setBulk({ status, done: 0, total: ids.length });
    let outcome;
    try {
      outcome = await setStatusOfAll(transport, ids, status);
    } catch (error) {
      notify(describeError(error), 'error');
      return;
    } finally {
      setBulk(null);
    }
    // All or nothing: after a refusal nothing changed, so the others stay selected for another try.
    const refused = new Set(outcome.failed.map((failure) => failure.id));
    setSelected(new Set(outcome.done.length > 0 ? [] : ids.filter((id) => !refused.has(id))));
    setFailures(outcome.failed.map((failure) => ({ ...failure, label: labels.get(failure.id) ?? failure.id })));
    if (outcome.done.length > 0)
      notify(t.count(status === 'approved' ? 'entries.approvedCount' : 'entries.rejectedCount', outcome.done.length));
  }

  function entryLabel(entry: EntryRow): string {
    return `${entryName(entry, t)}, ${formatDay(localDay(entry.start), t.locale)} ${formatTime(entry.start, t.locale, timeZone)}`;
  }

  function localDay(instant: string): string {
    return localDate(Date.parse(instant), timeZone);
  }

  const filtered = JSON.stringify(filters) !== JSON.stringify(noTimeFilters);

  return (
    <div className="entries">
      <div role="search" className="time-filters" aria-label={t('entries.filters')}>
        <TimeFilterFields filters={filters} onChange={setFilter} />
        <button type="button" className="button button--quiet" disabled={!filtered} onClick={clearFilters}>
          {t('filters.clear')}
        </button>
      </div>
      <div className="entries__bar">
        <p className="muted" role="status">
          {pages.count === undefined ? t('common.loading') : t.count('entries.count', pages.count)}
        </p>
        {planner && (
          <div className="entries__bulk" role="group" aria-label={t('entries.bulk')}>
            <span className="muted">{t.count('entries.selected', selected.size)}</span>
            {overlapping > 0 ? (
              <span
                className="row-actions"
                role="group"
                aria-label={t.count('entries.overlapQuestion', overlapping)}
                onKeyDown={(event) => {
                  if (event.key === 'Escape') setOverlapping(0);
                }}
              >
                <span className="row-actions__question">{t.count('entries.overlapQuestion', overlapping)}</span>
                <button type="button" className="button button--primary" autoFocus onClick={() => void setStatus('approved')}>
                  {t('entries.approveAnyway')}
                </button>
                <button type="button" className="button" onClick={() => setOverlapping(0)}>
                  {t('common.cancel')}
                </button>
              </span>
            ) : (
              <>
                <button type="button" className="button" disabled={selected.size === 0 || bulk !== null} onClick={approve}>
                  {t('entries.approveSelected')}
                </button>
                <button
                  type="button"
                  className="button"
                  disabled={selected.size === 0 || bulk !== null}
                  onClick={() => void setStatus('rejected')}
                >
                  {t('entries.rejectSelected')}
                </button>
              </>
            )}
          </div>
        )}
      </div>
      {bulk && (
        <div className="entries__progress" role="status">
          <progress max={bulk.total} value={bulk.done} />
          <span>{t(bulk.status === 'approved' ? 'entries.approving' : 'entries.rejecting', { done: bulk.done, total: bulk.total })}</span>
        </div>
      )}
      {failures.length > 0 && (
        <div className="notice notice--error entries__failures" role="alert">
          <div>
            <p>{t.count('entries.failedCount', failures.length)}</p>
            <p>{t('entries.noneChanged')}</p>
            <ul>
              {failures.map((failure) => (
                <li key={failure.id}>
                  <strong>{failure.label}</strong>: {failure.message}
                </li>
              ))}
            </ul>
          </div>
          <button type="button" className="button button--quiet" onClick={() => setFailures([])}>
            {t('common.dismiss')}
          </button>
        </div>
      )}
      {pages.error && <ErrorNotice error={pages.error} onRetry={pages.retry} />}
      <div className="entry-list" role="table" aria-label={t('entries.tableLabel')} aria-rowcount={knownCount + 1}>
        <div role="rowgroup" className="entry-list__head">
          <div role="row" aria-rowindex={1} className="entry-list__row">
            <span role="columnheader" className="entry-list__cell entry-list__cell--check">
              {planner && (
                <input
                  type="checkbox"
                  aria-label={t('entries.selectAll')}
                  checked={allSelected}
                  disabled={selectable.length === 0}
                  onChange={(event) => {
                    setOverlapping(0);
                    setSelected(new Set(event.target.checked ? selectable.map((entry) => entry.id) : []));
                  }}
                />
              )}
            </span>
            {columnHeads.map((head) => (
              <span
                key={head}
                role="columnheader"
                className={head === 'entries.duration' ? 'entry-list__cell entry-list__cell--numeric' : 'entry-list__cell'}
              >
                {t(head)}
              </span>
            ))}
          </div>
        </div>
        <div ref={viewportRef} role="rowgroup" className="entry-list__viewport" onScroll={list.onScroll}>
          <div className="entry-list__spacer" style={{ height: knownCount * rowHeight }}>
            {shown.map((index) => {
              const entry = pages.rowAt(index);
              return (
                <div
                  key={index}
                  role="row"
                  aria-rowindex={index + 2}
                  className="entry-list__row entry-list__row--body"
                  style={{ top: index * rowHeight, height: rowHeight }}
                >
                  {entry ? (
                    <EntryCells
                      entry={entry}
                      timeZone={timeZone}
                      now={now}
                      planner={planner}
                      selected={selected.has(entry.id)}
                      onSelect={(on) => toggle(entry.id, on)}
                      onEdit={() => setEditing(entry)}
                      onFailure={(message) => setFailures([{ id: entry.id, label: entryLabel(entry), message }])}
                      day={formatDay(localDay(entry.start), t.locale)}
                    />
                  ) : (
                    <span role="cell" className="entry-list__cell muted">
                      …
                    </span>
                  )}
                </div>
              );
            })}
          </div>
          {pages.count === 0 && <p className="empty-state">{t('entries.none')}</p>}
        </div>
      </div>
      {editing && <EntryEditor entry={editing} timeZone={timeZone} onClose={() => setEditing(null)} />}
    </div>
  );
}

interface EntryCellsProps {
  entry: EntryRow;
  day: string;
  timeZone: string;
  now: number;
  planner: boolean;
  selected: boolean;
  onSelect(on: boolean): void;
  onEdit(): void;
  onFailure(message: string): void;
}

function EntryCells({ entry, day, timeZone, now, planner, selected, onSelect, onEdit, onFailure }: EntryCellsProps) {
  const t = useT();
  const write = useEntryWrite();
  const [confirming, setConfirming] = useState(false);
  const name = entryName(entry, t);
  const overlaps = entry.overlaps ?? [];
  const span = `${formatTime(entry.start, t.locale, timeZone)}–${entry.end ? formatTime(entry.end, t.locale, timeZone) : '…'}`;
  const rowName = `${name}, ${day} ${span}`;
  const run = (changes: Parameters<typeof write.mutate>[0]) =>
    write.mutate(changes, { onError: (error) => onFailure(describeError(error)) });

  return (
    <>
      <span role="cell" className="entry-list__cell entry-list__cell--check">
        {entry.locked ? (
          <span className="entry-list__lock" role="img" aria-label={t('entries.locked')} title={t('entries.lockedTitle')}>
            <Lock aria-hidden="true" size={14} />
          </span>
        ) : (
          planner && (
            <input
              type="checkbox"
              aria-label={t('entries.select', { entry: rowName })}
              checked={selected}
              onChange={(event) => onSelect(event.target.checked)}
            />
          )
        )}
      </span>
      <span role="cell" className="entry-list__cell">
        {day}
      </span>
      <span role="cell" className="entry-list__cell">
        {span}
      </span>
      <span role="cell" className="entry-list__cell entry-list__cell--numeric">
        {overlaps.length > 0 && (
          <span
            className="entry-list__overlap"
            role="img"
            aria-label={t.count('entries.overlaps', overlaps.length)}
            title={t.count('entries.overlaps', overlaps.length)}
          >
            <TriangleAlert aria-hidden="true" size={14} />{' '}
          </span>
        )}
        {formatHours(entryMinutes(entry, now))}
      </span>
      <span role="cell" className="entry-list__cell" title={name}>
        {!entry.card_id && <span className="muted">{t('time.noCard')}: </span>}
        {name}
      </span>
      <span role="cell" className="entry-list__cell">
        {entry.activity?.description ?? <span className="muted">–</span>}
      </span>
      <span role="cell" className="entry-list__cell">
        {entry.user ? (
          entry.user.fullname || entry.user.email
        ) : (
          <span className="muted" title={t('filters.noUser')}>
            –
          </span>
        )}
      </span>
      <span role="cell" className="entry-list__cell">
        <span className={`time-status time-status--${entry.status}`}>{t(`status.${entry.status}`)}</span>
        {entry.running && <span className="muted"> · {t('week.running')}</span>}
        {entry.synchronized_at && (
          <span className="muted" title={t('entries.exportedTitle')}>
            {' '}
            · {t('entries.exported')}
          </span>
        )}
      </span>
      <span role="cell" className="entry-list__cell entry-list__cell--actions">
        {entry.locked ? (
          planner && (
            <button
              type="button"
              className="button button--quiet"
              aria-label={t('entries.reopenEntry', { entry: rowName })}
              disabled={write.isPending}
              onClick={() => run({ kind: 'update', id: entry.id, changes: { status: 'pending' } })}
            >
              {t('entries.reopen')}
            </button>
          )
        ) : confirming ? (
          <>
            <button
              type="button"
              className="button button--danger"
              autoFocus
              disabled={write.isPending}
              onClick={() => run({ kind: 'delete', id: entry.id })}
            >
              {t('entries.confirmDelete')}
            </button>
            <button type="button" className="button button--quiet" onClick={() => setConfirming(false)}>
              {t('common.cancel')}
            </button>
          </>
        ) : (
          <>
            <button type="button" className="button button--quiet" aria-label={t('entries.editEntry', { entry: rowName })} onClick={onEdit}>
              {t('common.edit')}
            </button>
            <button
              type="button"
              className="button button--quiet"
              aria-label={t('entries.deleteEntry', { entry: rowName })}
              onClick={() => setConfirming(true)}
            >
              {t('common.delete')}
            </button>
          </>
        )}
      </span>
    </>
  );
}
