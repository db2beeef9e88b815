/**
 * The week timesheet: a row per card and activity (the ones with time this week, and any the
 * planner adds), a row per activity for time on no card (a meeting, cleaning, training), a
 * column per day of an ISO week, totals per day and per row, and each card's tracked time
 * against its planned minutes. Typing a duration into a cell creates or adjusts the entry
 * behind it (see week-grid.ts); a cell with several entries opens their list instead.
 *
 * The sheet is the app's user's week and books for them; an admin, manager or organiser may
 * show and book someone else's week. Days are that person's, cut in their time zone as the
 * reports cut them, and a day is judged against their resource's schedule (docs/API.md
 * "Schedules and capacity").
 */
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useState } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { useFieldWording } from '../../api/field-labels.js';
import { useList } from '../../api/hooks.js';
import { activityListQuery } from '../../api/queries.js';
import { cardNames } from '../../components/card-name.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { addDays } from '../../../shared/dates.js';
import { booksForOthers, useAppUser } from '../app-user/app-user-api.js';
import { ActivityPicker } from './ActivityPicker.js';
import { BookFor } from './BookFor.js';
import { activitiesOf } from './card-activities.js';
import { CardPicker } from './CardPicker.js';
import { formatDay, formatDayRange } from '../../components/dates-format.js';
import { formatHours } from './duration.js';
import { useSchedule } from '../resources/absences-api.js';
import { isoWeek, localToday, personTimeZone, rangeInstants, weekStart } from './periods.js';
import { SheetCell, type CellWrite } from './SheetCell.js';
import { useClosedPeriods, useEntries, useSheetCards, useSheetPerson, type CardSummary } from './time-api.js';
import { closedPeriodOver } from '../../../shared/closed-periods.js';
import { entriesWithTimeIn } from './time-filters.js';
import { useTimeScreen } from './time-screen-state.js';
import { useClock } from './use-clock.js';
import { useEntryWrite } from './use-entry-writes.js';
import { buildWeekGrid, type SheetContext, type WeekRow } from './week-grid.js';

interface RowName {
  name: string;
  /** The activity, when the name alone does not say it. */
  context: string | null;
}

export function WeekSheet() {
  const t = useT();
  // Running timers count to the minute.
  const now = useClock(30_000);
  const chosenMonday = useTimeScreen((state) => state.monday);
  const showWeek = useTimeScreen((state) => state.showWeek);
  const addedRows = useTimeScreen((state) => state.addedRows);
  const addRow = useTimeScreen((state) => state.addRow);
  const chosenUser = useTimeScreen((state) => state.sheetUser);
  const showSheetOf = useTimeScreen((state) => state.showSheetOf);
  const [adding, setAdding] = useState<'card' | 'activity' | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const appUser = useAppUser();
  const ownId = appUser.data?.user_id ?? null;
  const planner = booksForOthers(appUser.data);
  // Whose week: the app's user's, unless a planner chose someone else's.
  const userId = planner && chosenUser !== undefined ? chosenUser : ownId;
  const person = useSheetPerson(userId);
  const timeZone = personTimeZone(person.data);
  const today = localToday(timeZone, now);
  const monday = chosenMonday ?? weekStart(today);
  const sunday = addDays(monday, 6);
  const period = rangeInstants({ start: monday, end: sunday }, timeZone);
  const filter = appUser.data ? entriesWithTimeIn(userId, period) : null;
  const entries = useEntries(filter, { with: 'card.collection,card.stage,activity' });
  const grid = buildWeekGrid({ monday, entries: entries.data?.data ?? [], addedRows, timeZone, now });
  const resource = person.data?.resource ?? null;
  const schedule = useSchedule(resource?.id ?? null, monday, sunday, resource?.updated_at ?? '');
  const expected = new Map((schedule.data?.data ?? []).map((day) => [day.date, day.available]));
  const sheet: SheetContext = { grid, timeZone, now, expected: (date) => expected.get(date) ?? null };
  const cardIds = [...new Set(grid.rows.flatMap((row) => (row.cardId ? [row.cardId] : [])))];
  const cards = useSheetCards(cardIds);
  const activities = useList('activity', activityListQuery);
  const write = useEntryWrite();
  const wording = useFieldWording('time_tracking');
  // Days of a closed payroll period are shown, not typed into (docs/API.md "Closed periods").
  const closedPeriods = useClosedPeriods().data?.data ?? [];
  const closedTitle = (date: string): string | undefined => {
    const period = closedPeriodOver(closedPeriods, { start: date, end: date });
    return period && t('week.closedDay', { period: formatDayRange(period.start, period.end, t.locale) });
  };

  const cardOf = new Map<string, CardSummary>();
  for (const entry of entries.data?.data ?? []) if (entry.card && entry.card_id) cardOf.set(entry.card_id, entry.card);
  for (const card of cards.data?.data ?? []) cardOf.set(card.id, { ...cardOf.get(card.id), ...card });
  const activityName = new Map<string, string>((activities.data?.data ?? []).map((activity) => [activity.id, activity.description]));
  for (const entry of entries.data?.data ?? []) if (entry.activity) activityName.set(entry.activity.id, entry.activity.description);
  const rowNames = nameRows(grid.rows, cardOf, activityName, t);
  const rows = [...grid.rows].sort(
    (a, b) =>
      rowNames.get(a.key)!.name.localeCompare(rowNames.get(b.key)!.name, t.locale) ||
      (rowNames.get(a.key)!.context ?? '').localeCompare(rowNames.get(b.key)!.context ?? '', t.locale),
  );

  async function apply(row: WeekRow, change: CellWrite): Promise<boolean> {
    setProblem(null);
    try {
      if (change.kind === 'create') {
        const input = {
          card_id: row.cardId,
          activity_id: row.activityId,
          start: change.start,
          end: change.end,
          ...(userId ? { user_id: userId } : {}),
        };
        await write.mutateAsync({ kind: 'create', input });
      } else if (change.kind === 'update')
        await write.mutateAsync({ kind: 'update', id: change.id, changes: { start: change.start, end: change.end } });
      else await write.mutateAsync({ kind: 'delete', id: change.id });
      return true;
    } catch (error) {
      // The API's refusals (a full day, a lock) in the planner's words and language.
      setProblem(placeFieldErrors(error, [], wording).elsewhere.join(' '));
      return false;
    }
  }

  const week = isoWeek(monday);
  return (
    <div className="week-sheet">
      <div className="week-sheet__bar">
        <button type="button" className="button" onClick={() => showWeek(addDays(monday, -7))} aria-label={t('week.previous')}>
          <ChevronLeft aria-hidden="true" size={16} />
        </button>
        <h2 className="week-sheet__title" aria-live="polite">
          {t('week.title', { week: Number(week.slice(6)), year: week.slice(0, 4) })}
          <span className="muted week-sheet__range">{formatDayRange(monday, addDays(monday, 6), t.locale)}</span>
        </h2>
        <button type="button" className="button" onClick={() => showWeek(addDays(monday, 7))} aria-label={t('week.next')}>
          <ChevronRight aria-hidden="true" size={16} />
        </button>
        <button type="button" className="button button--quiet" disabled={monday === weekStart(today)} onClick={() => showWeek(null)}>
          {t('week.thisWeek')}
        </button>
        {planner && appUser.data && (
          <BookFor
            value={userId}
            ownId={ownId}
            onChange={(id) => showSheetOf(id === ownId ? undefined : id)}
            className="week-sheet__user"
          />
        )}
        <span className="week-sheet__spacer" />
        <button
          type="button"
          className="button"
          aria-expanded={adding === 'card'}
          onClick={() => setAdding(adding === 'card' ? null : 'card')}
        >
          {t('week.addCard')}
        </button>
        <button
          type="button"
          className="button"
          aria-expanded={adding === 'activity'}
          onClick={() => setAdding(adding === 'activity' ? null : 'activity')}
        >
          {t('week.addActivity')}
        </button>
      </div>
      {adding && (
        <div className="week-sheet__picker">
          {adding === 'card' ? (
            <CardPicker
              label={t('week.addCardLabel')}
              onCancel={() => setAdding(null)}
              onPick={(card, activity) => {
                addRow({ cardId: card.id, activityId: activity?.id ?? null });
                setAdding(null);
              }}
            />
          ) : (
            <ActivityPicker
              label={t('week.addActivityLabel')}
              onCancel={() => setAdding(null)}
              onPick={(activity) => {
                addRow({ cardId: null, activityId: activity.id });
                setAdding(null);
              }}
            />
          )}
        </div>
      )}
      {closedPeriods.length > 0 && (
        <p className="muted week-sheet__closed-periods">
          {t('week.closedPeriods', {
            periods: closedPeriods.map((period) => formatDayRange(period.start, period.end, t.locale)).join(', '),
          })}
        </p>
      )}
      {problem && (
        <div className="notice notice--error" role="alert">
          <p>{problem}</p>
          <button type="button" className="button button--quiet" onClick={() => setProblem(null)}>
            {t('common.dismiss')}
          </button>
        </div>
      )}
      {(entries.isError || appUser.isError) && (
        <ErrorNotice
          error={entries.error ?? appUser.error}
          onRetry={() => void (appUser.isError ? appUser.refetch() : entries.refetch())}
        />
      )}
      <div className="week-sheet__frame">
        <table className="data-table week-sheet__table" aria-label={t('week.tableLabel', { week: Number(week.slice(6)) })}>
          <thead>
            <tr>
              <th scope="col" className="week-sheet__card-head">
                {t('week.card')}
              </th>
              <th scope="col" className="week-sheet__planned-head">
                {t('week.trackedPlanned')}
              </th>
              {grid.days.map((date) => (
                <th
                  key={date}
                  scope="col"
                  title={closedTitle(date)}
                  className={[
                    'week-sheet__day',
                    date === today ? 'week-sheet__day--today' : '',
                    closedTitle(date) ? 'week-sheet__day--closed' : '',
                  ]
                    .filter(Boolean)
                    .join(' ')}
                >
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
              const card = row.cardId ? cardOf.get(row.cardId) : undefined;
              const { name, context } = rowNames.get(row.key)!;
              const label = context ? `${name} · ${context}` : name;
              return (
                <tr key={row.key}>
                  <th scope="row" className="week-sheet__card" title={label} aria-label={label}>
                    <span className="week-sheet__card-name">{name}</span>
                    {context && <span className="muted week-sheet__card-context">{context}</span>}
                  </th>
                  <td className="week-sheet__planned">
                    {row.cardId ? <PlannedAgainstTracked card={card} /> : <span className="muted">–</span>}
                  </td>
                  {row.cells.map((cell) => (
                    <td
                      key={cell.date}
                      className={[
                        'week-sheet__cell',
                        cell.date === today ? 'week-sheet__cell--today' : '',
                        closedTitle(cell.date) ? 'week-sheet__cell--closed' : '',
                      ]
                        .filter(Boolean)
                        .join(' ')}
                    >
                      <SheetCell
                        closedTitle={closedTitle(cell.date)}
                        cell={cell}
                        label={t('week.cellLabel', {
                          card: label,
                          day: formatDay(cell.date, t.locale, { weekday: 'long', day: 'numeric', month: 'long' }),
                        })}
                        sheet={sheet}
                        onWrite={(change) => apply(row, change)}
                        onProblem={setProblem}
                      />
                    </td>
                  ))}
                  <td className="week-sheet__total" aria-label={t('week.rowTotal', { card: label })}>
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
                <td
                  key={grid.days[i]}
                  className="week-sheet__total"
                  aria-label={t('week.dayTotal', { day: formatDay(grid.days[i]!, t.locale, { weekday: 'long' }) })}
                >
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

/**
 * What each row is called: a card's display name (with its dates where two rows of the sheet
 * would read the same) and its activity when the card has several or the stage is named
 * otherwise; for time on no card, the activity with "no card".
 */
function nameRows(
  rows: readonly WeekRow[],
  cardOf: ReadonlyMap<string, CardSummary>,
  activityName: ReadonlyMap<string, string>,
  t: ReturnType<typeof useT>,
): Map<string, RowName> {
  const named = new Map<string, RowName>();
  const cardRows = rows.filter((row) => row.cardId);
  const names = cardNames(
    cardRows.map((row) => cardOf.get(row.cardId!) ?? {}),
    t,
  );
  cardRows.forEach((row, i) => {
    const card = cardOf.get(row.cardId!);
    const activity = row.activityId ? (activityName.get(row.activityId) ?? null) : null;
    const obvious = !activity || (card && activitiesOf(card).length <= 1 && card.stage?.name === activity);
    named.set(row.key, { name: names[i]!, context: obvious ? null : activity });
  });
  for (const row of rows) {
    if (row.cardId) continue;
    named.set(row.key, { name: (row.activityId && activityName.get(row.activityId)) || t('time.untitledCard'), context: t('time.noCard') });
  }
  return named;
}

/** Tracked (all entries, any week) against planned (the card's activities) for one card. */
function PlannedAgainstTracked({ card }: { card: CardSummary | undefined }) {
  const t = useT();
  if (!card || card.time_tracking_total === undefined) return <span className="muted">…</span>;
  const tracked = card.time_tracking_total;
  const planned = (card.activities ?? []).reduce((sum, activity) => sum + (activity.time ?? 0), 0);
  const over = planned > 0 && tracked > planned;
  return (
    <span
      className={over ? 'planned planned--over' : 'planned'}
      title={t('week.plannedTitle', { tracked: formatHours(tracked), planned: formatHours(planned) })}
    >
      <span>
        {formatHours(tracked)} / {planned > 0 ? formatHours(planned) : '–'}
      </span>
      {planned > 0 && (
        <meter className="planned__meter" min={0} max={planned} high={planned} value={Math.min(tracked, planned * 2)} aria-hidden="true" />
      )}
    </span>
  );
}
