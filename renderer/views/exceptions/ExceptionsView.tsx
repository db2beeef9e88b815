/**
 * The Exceptions screen (docs/API.md "Exceptions"): what needs the planner now, each item in
 * their words with since when, and its fix one click away — open the card on the planboard,
 * replan late orders finite in the Replan dialog, approve the entry, stop the timer — beside
 * Snooze and Seen, which hold for this planner only and sync with them.
 */
import { useState, type ReactElement } from 'react';
import type { ExceptionItem } from '../../../shared/exceptions.js';
import type { LateCollection, WhatItTakes } from '../../../shared/why-late.js';
import { describeError } from '../../api/client.js';
import { formatDateTime, formatDay } from '../../components/dates-format.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT, type Translate } from '../../i18n/index.js';
import { useCardPanel } from '../../state/card-panel.js';
import { useUiStore } from '../../state/ui.js';
import { useAppUser } from '../app-user/app-user-api.js';
import { ReplanLateDialog } from '../planboard/ReplanLateDialog.js';
import { useAddOvertime, useExceptionHorizon, useExceptions, useFix, useWhyLate } from './exceptions-api.js';
import { OvertimeOffer } from './OvertimeOffer.js';
import { bottleneckText, whyLateText } from './why-late-text.js';
import './exceptions.css';

const hours = (minutes: unknown) => String(Math.round(Number(minutes) / 6) / 10);
const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The item in the planner's language, from its figures; the API's English text when a figure is missing. */
export function exceptionText(item: ExceptionItem, t: Translate): string {
  const day = (value: unknown) => (typeof value === 'string' && value ? formatDay(value.slice(0, 10), t.locale) : '');
  const d = item.details;
  const name = item.record.name;
  switch (item.kind) {
    case 'late_collection':
      return t(d.promised ? 'exceptions.text.late_collection.promised' : 'exceptions.text.late_collection', {
        name,
        end: day(d.end),
        due: day(d.due_date),
      });
    case 'over_capacity':
      return t('exceptions.text.over_capacity', {
        name,
        date: day(item.date),
        planned: hours(d.planned_minutes),
        available: hours(d.available_minutes),
      });
    case 'broken_dependency':
      return t('exceptions.text.broken_dependency', {
        name,
        start: day(d.start),
        previous: text(d.previous_stage),
        earliest: day(d.earliest),
      });
    case 'material_late':
      return t('exceptions.text.material_late', { name, start: day(d.start), order: text(d.order), earliest: day(d.earliest) });
    case 'unplanned_due':
      return t('exceptions.text.unplanned_due', { name, date: day(item.date) });
    case 'timer_running':
      return t('exceptions.text.timer_running', { name, hours: String(d.hours ?? '') });
    case 'approval_waiting':
      return t('exceptions.text.approval_waiting', { name, hours: hours(d.minutes), since: day(d.waiting_since) });
    case 'automation_notice':
      return d.next_stage
        ? t('exceptions.text.automation_notice.next', { name, stage: text(d.next_stage) })
        : t('exceptions.text.automation_notice', { name });
  }
}

/** Why a late order is late, and what would make it fit, with the click that adds it. */
function WhyLate({ late, busy, onAdd }: { late: LateCollection; busy: boolean; onAdd(takes: WhatItTakes, description: string): void }) {
  const t = useT();
  const takes = late.what_it_takes;
  return (
    <span className="exception__why">
      <span data-testid="why-late">{t('whyLate.because', { reason: whyLateText(late.reason, t) })}</span>
      {takes && <OvertimeOffer takes={takes} name={late.collection.name} busy={busy} className="exception__takes" onAdd={onAdd} />}
    </span>
  );
}

export function ExceptionsView() {
  const t = useT();
  const list = useExceptions();
  const fix = useFix();
  const appUser = useAppUser();
  const { horizon, setHorizon } = useExceptionHorizon();
  const focusCollection = useUiStore((state) => state.focusCollection);
  const openCard = useCardPanel((state) => state.open);
  const [replanBoard, setReplanBoard] = useState<string | null>(null);
  const canHandle = Boolean(appUser.data?.user_id);
  const items = list.data?.data ?? [];
  const whyLate = useWhyLate(items.some((item) => item.kind === 'late_collection'));
  const lateOnes = new Map((whyLate.data?.data ?? []).map((late) => [late.collection.id, late]));
  const addOvertime = useAddOvertime();
  const bottlenecks = whyLate.data?.bottlenecks ?? [];
  const weeks = [...new Set(bottlenecks.map((b) => b.week))];

  function actions(item: ExceptionItem) {
    const buttons: ReactElement[] = [];
    for (const link of item.links) {
      if (link.action === 'open_card') {
        buttons.push(
          <button
            key="open"
            type="button"
            className="button"
            onClick={() => {
              focusCollection({ collectionId: link.collection_id, name: null, boardId: link.board_id, planned: true });
              openCard(link.card_id);
            }}
          >
            {t('exceptions.fix.open_card')}
          </button>,
        );
      }
      if (link.action === 'replan_finite' && item.kind === 'late_collection') {
        buttons.push(
          <button key="replan" type="button" className="button" onClick={() => setReplanBoard(link.body.board_id)}>
            {t('exceptions.fix.replan_finite')}
          </button>,
        );
      }
      if (link.action === 'open_collection' && link.board_id !== null) {
        const boardId = link.board_id;
        const planned = item.kind !== 'unplanned_due';
        buttons.push(
          <button
            key="collection"
            type="button"
            className="button"
            onClick={() => focusCollection({ collectionId: link.collection_id, name: planned ? null : item.record.name, boardId, planned })}
          >
            {t(planned ? 'exceptions.fix.open_card' : 'exceptions.fix.open_collection')}
          </button>,
        );
      }
      if (link.action === 'approve' || link.action === 'stop_timer') {
        const kind = link.action;
        buttons.push(
          <button
            key={kind}
            type="button"
            className="button button--primary"
            disabled={fix.isPending}
            onClick={() => fix.mutate({ kind, item })}
          >
            {t(`exceptions.fix.${kind}`)}
          </button>,
        );
      }
    }
    return buttons;
  }

  return (
    <section className="view exceptions-view" aria-labelledby="exceptions-title">
      <div className="view__header">
        <h1 id="exceptions-title" className="view__title">
          {t('exceptions.title')}
        </h1>
        <label className="exceptions-view__horizon">
          {t('exceptions.horizon')}
          <input
            type="number"
            min={1}
            max={260}
            value={horizon}
            onChange={(event) => setHorizon(Number(event.target.value))}
            className="exceptions-view__horizon-input"
          />
        </label>
      </div>
      <p className="muted">{t('exceptions.intro')}</p>
      {!canHandle && appUser.isSuccess && <p className="muted">{t('exceptions.noUser')}</p>}
      {list.isError && <ErrorNotice error={list.error} />}
      {addOvertime.isError && <ErrorNotice error={addOvertime.error} />}
      {fix.isError && (
        <p className="exceptions-view__error" role="alert">
          {describeError(fix.error)}
        </p>
      )}
      {list.isSuccess && items.length === 0 && <p className="empty-state">{t('exceptions.none')}</p>}
      {items.length > 0 && (
        <ul className="exceptions-view__list" aria-label={t.count('exceptions.count', items.length)}>
          {items.map((item) => (
            <li key={item.key} className={`exception exception--${item.kind}`} data-testid="exception">
              <span className="exception__kind">{t(`exceptions.kind.${item.kind}`)}</span>
              <span className="exception__text">{exceptionText(item, t)}</span>
              {item.kind === 'late_collection' && lateOnes.has(item.record.id) && (
                <WhyLate
                  late={lateOnes.get(item.record.id)!}
                  busy={addOvertime.isPending}
                  onAdd={(takes, description) => addOvertime.mutate({ takes, description })}
                />
              )}
              {item.since && (
                <span className="exception__since muted">{t('exceptions.since', { when: formatDateTime(item.since, t.locale) })}</span>
              )}
              <span className="exception__actions">
                {actions(item)}
                <button
                  type="button"
                  className="button"
                  disabled={!canHandle || fix.isPending}
                  onClick={() => fix.mutate({ kind: 'snooze', item, days: 1 })}
                >
                  {t('exceptions.snooze')}
                </button>
                <button
                  type="button"
                  className="button"
                  disabled={!canHandle || fix.isPending}
                  onClick={() => fix.mutate({ kind: 'seen', item })}
                >
                  {t('exceptions.seen')}
                </button>
              </span>
            </li>
          ))}
        </ul>
      )}
      {weeks.length > 0 && (
        <section className="panel panel--stack exceptions-view__bottlenecks" aria-labelledby="bottlenecks-title">
          <h2 id="bottlenecks-title" className="panel__title">
            {t('whyLate.bottlenecks')}
          </h2>
          <p className="muted">{t('whyLate.bottlenecksIntro')}</p>
          {weeks.map((week) => (
            <div key={week}>
              <h3 className="exceptions-view__week">{t('whyLate.week', { day: formatDay(week, t.locale) })}</h3>
              <ul aria-label={t('whyLate.week', { day: formatDay(week, t.locale) })}>
                {bottlenecks
                  .filter((b) => b.week === week)
                  .map((b) => (
                    <li key={`${b.kind}:${b.id}`} data-testid="bottleneck">
                      {bottleneckText(b, t)}
                    </li>
                  ))}
              </ul>
            </div>
          ))}
        </section>
      )}
      {replanBoard && <ReplanLateDialog boardId={replanBoard} onClose={() => setReplanBoard(null)} />}
    </section>
  );
}
