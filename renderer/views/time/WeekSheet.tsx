/**
 * The week timesheet: a row per card (the cards with time this week, and any the planner
 * adds), a column per day of an ISO week, totals per day and per row, and each card's tracked
 * time against its planned minutes. Typing a duration into a cell creates or adjusts the
 * entry behind it (see week-grid.ts); a cell with several entries opens their list instead.
 */
import { useMemo, useState } from 'react';
import { describeError } from '../../api/client.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { addDays } from '../../../shared/dates.js';
import { CardPicker } from './CardPicker.js';
import { cardContext, cardLabel } from './card-label.js';
import { formatDay, formatDayRange } from '../../components/dates-format.js';
import { formatHours } from './duration.js';
import { isoWeek, localToday, rangeInstants, systemTimeZone, weekStart } from './periods.js';
import { SheetCell, type CellWrite } from './SheetCell.js';
import { ownEntriesFilter, useEntries, useMe, useSheetCards, type CardSummary } from './time-api.js';
import { useTimeScreen } from './time-screen-state.js';
import { useClock } from './use-clock.js';
import { useEntryWrite } from './use-entry-writes.js';
import { buildWeekGrid } from './week-grid.js';

export function WeekSheet() {
  const t = useT();
  const timeZone = useMemo(systemTimeZone, []);
  // Running timers count to the minute.
  const now = useClock(30_000);
  const today = localToday(timeZone, now);
  const chosenMonday = useTimeScreen((state) => state.monday);
  const showWeek = useTimeScreen((state) => state.showWeek);
  const addedCards = useTimeScreen((state) => state.addedCards);
  const addCard = useTimeScreen((state) => state.addCard);
  const monday = chosenMonday ?? weekStart(today);
  const [adding, setAdding] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const me = useMe();
  const period = rangeInstants({ start: monday, end: addDays(monday, 6) }, timeZone);
  const filter = me.data ? `${ownEntriesFilter(me.data)},and,start:gte:${period.from},and,start:lt:${period.to}` : null;
  const entries = useEntries(filter, { with: 'card.collection' });
  const grid = buildWeekGrid({ monday, entries: entries.data?.data ?? [], addedCardIds: addedCards, timeZone, now });
  const cards = useSheetCards(grid.rows.map((row) => row.cardId));
  const write = useEntryWrite();

  const cardOf = new Map<string, CardSummary>();
  for (const entry of entries.data?.data ?? []) if (entry.card) cardOf.set(entry.card_id, entry.card);
  for (const card of cards.data?.data ?? []) cardOf.set(card.id, { ...cardOf.get(card.id), ...card });
  const rows = [...grid.rows].sort((a, b) => cardLabel(cardOf.get(a.cardId), t).localeCompare(cardLabel(cardOf.get(b.cardId), t), t.locale));

  async function apply(cardId: string, change: CellWrite): Promise<boolean> {
    setProblem(null);
    try {
      if (change.kind === 'create') await write.mutateAsync({ kind: 'create', input: { card_id: cardId, start: change.start, end: change.end } });
      else if (change.kind === 'update') await write.mutateAsync({ kind: 'update', id: change.id, changes: { end: change.end } });
      else await write.mutateAsync({ kind: 'delete', id: change.id });
      return true;
    } catch (error) {
      setProblem(describeError(error));
      return false;
    }
  }

  const week = isoWeek(monday);
  return (
    <div className="week-sheet">
      <div className="week-sheet__bar">
        <button type="button" className="button" onClick={() => showWeek(addDays(monday, -7))} aria-label={t('week.previous')}>
          ◀
        </button>
        <h2 className="week-sheet__title" aria-live="polite">
          {t('week.title', { week: Number(week.slice(6)), year: week.slice(0, 4) })}
          <span className="muted week-sheet__range">{formatDayRange(monday, addDays(monday, 6), t.locale)}</span>
        </h2>
        <button type="button" className="button" onClick={() => showWeek(addDays(monday, 7))} aria-label={t('week.next')}>
          ▶
        </button>
        <button type="button" className="button button--quiet" disabled={monday === weekStart(today)} onClick={() => showWeek(null)}>
          {t('week.thisWeek')}
        </button>
        <span className="week-sheet__spacer" />
        <button type="button" className="button" aria-expanded={adding} onClick={() => setAdding(!adding)}>
          {t('week.addCard')}
        </button>
      </div>
      {adding && (
        <div className="week-sheet__picker">
          <CardPicker
            label={t('week.addCardLabel')}
            onCancel={() => setAdding(false)}
            onPick={(card) => {
              addCard(card.id);
              setAdding(false);
            }}
          />
        </div>
      )}
      {problem && (
        <div className="notice notice--error" role="alert">
          <p>{problem}</p>
          <button type="button" className="button button--quiet" onClick={() => setProblem(null)}>
            {t('common.dismiss')}
          </button>
        </div>
      )}
      {(entries.isError || me.isError) && <ErrorNotice error={entries.error ?? me.error} onRetry={() => void (me.isError ? me.refetch() : entries.refetch())} />}
      <div className="week-sheet__frame">
        <table className="week-sheet__table" aria-label={t('week.tableLabel', { week: Number(week.slice(6)) })}>
          <thead>
            <tr>
              <th scope="col" className="week-sheet__card-head">
                {t('week.card')}
              </th>
              <th scope="col" className="week-sheet__planned-head">
                {t('week.trackedPlanned')}
              </th>
              {grid.days.map((date) => (
                <th key={date} scope="col" className={date === today ? 'week-sheet__day week-sheet__day--today' : 'week-sheet__day'}>
                  {formatDay(date, t.locale)}
                </th>
              ))}
              <th scope="col" className="week-sheet__total">
                {t('week.total')}
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((row) => {
              const card = cardOf.get(row.cardId);
              const name = cardLabel(card, t);
              const context = cardContext(card);
              return (
                <tr key={row.cardId}>
                  <th scope="row" className="week-sheet__card">
                    <span className="week-sheet__card-name">{name}</span>
                    {context && <span className="muted week-sheet__card-context">{context}</span>}
                  </th>
                  <td className="week-sheet__planned">
                    <PlannedAgainstTracked card={card} />
                  </td>
                  {row.cells.map((cell) => (
                    <td key={cell.date} className={cell.date === today ? 'week-sheet__cell week-sheet__cell--today' : 'week-sheet__cell'}>
                      <SheetCell
                        cell={cell}
                        label={t('week.cellLabel', { card: name, day: formatDay(cell.date, t.locale, { weekday: 'long', day: 'numeric', month: 'long' }) })}
                        timeZone={timeZone}
                        now={now}
                        onWrite={(change) => apply(row.cardId, change)}
                        onProblem={setProblem}
                      />
                    </td>
                  ))}
                  <td className="week-sheet__total" aria-label={t('week.rowTotal', { card: name })}>
                    {formatHours(row.total)}
                  </td>
                </tr>
              );
            })}
          </tbody>
          <tfoot>
            <tr>
              <th scope="row" colSpan={2}>
                {t('week.dayTotals')}
              </th>
              {grid.dayTotals.map((minutes, i) => (
                <td key={grid.days[i]} className="week-sheet__total" aria-label={t('week.dayTotal', { day: formatDay(grid.days[i]!, t.locale, { weekday: 'long' }) })}>
                  {formatHours(minutes)}
                </td>
              ))}
              <td className="week-sheet__total week-sheet__grand-total" aria-label={t('week.weekTotal')}>
                {formatHours(grid.total)}
              </td>
            </tr>
          </tfoot>
        </table>
        {entries.data && rows.length === 0 && <p className="empty-state">{t('week.empty')}</p>}
        {!entries.data && !entries.isError && (
          <p className="loading" role="status">
            {t('common.loading')}
          </p>
        )}
      </div>
    </div>
  );
}

/** Tracked (all entries, any week) against planned (the card's activities) for one card. */
function PlannedAgainstTracked({ card }: { card: CardSummary | undefined }) {
  const t = useT();
  if (!card || card.time_tracking_total === undefined) return <span className="muted">…</span>;
  const tracked = card.time_tracking_total;
  const planned = (card.activities ?? []).reduce((sum, activity) => sum + (activity.time ?? 0), 0);
  const over = planned > 0 && tracked > planned;
  return (
    <span className={over ? 'planned planned--over' : 'planned'} title={t('week.plannedTitle', { tracked: formatHours(tracked), planned: formatHours(planned) })}>
      <span>
        {formatHours(tracked)} / {planned > 0 ? formatHours(planned) : '–'}
      </span>
      {planned > 0 && <meter className="planned__meter" min={0} max={planned} high={planned} value={Math.min(tracked, planned * 2)} aria-hidden="true" />}
    </span>
  );
}
