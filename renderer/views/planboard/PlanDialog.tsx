/**
 * Planning a backlog collection with a choice: forward from a start date or backward to an end
 * date, and finite (only where the stages still have free capacity) or not. Before the planner
 * commits, a dry run of the same call (docs/API.md "Finite-capacity planning") shows when it
 * would finish, its first and last day and each stage's days; it follows the options as they
 * change, once the planner pauses. "Plan" then makes the real call with the same options.
 *
 * When reverse finite planning finds nothing that fits, the API names the earliest end that
 * does; the dialog says so and offers that date. When the plan would end after the due date
 * and room is what binds it, the dry run names the overtime that would make it fit ("What
 * would it take?"), and the dialog offers it as the Exceptions screen does: one click adds it
 * as one command, which Undo takes back, and the plan shown is worked out again.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import type { Collection } from '../../../shared/resources/collection.js';
import { describeError } from '../../api/client.js';
import { useApi } from '../../api/provider.js';
import { formatDay } from '../../components/dates-format.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Modal } from '../../components/Modal.js';
import { typingPause, useDebouncedValue } from '../../components/use-debounced-value.js';
import { useT, type Translate } from '../../i18n/index.js';
import type { StageWithActivities } from '../boards/board-with-parts.js';
import { useAddOvertime } from '../exceptions/exceptions-api.js';
import { OvertimeOffer } from '../exceptions/OvertimeOffer.js';
import { localToday } from './date-geometry.js';
import type { PlanOptions } from './planboard-api.js';
import { dryRunPlan, nothingFits, planRequest, stageDates, usePromiseDates, type DryRun, type PlanChoice } from './promise-dates.js';

interface PlanDialogProps {
  boardId: string;
  collection: Pick<Collection, 'id' | 'name' | 'due_date'>;
  stages: readonly StageWithActivities[];
  onPlan(options: PlanOptions): void;
  onClose(): void;
}

export function PlanDialog({ boardId, collection, stages, onPlan, onClose }: PlanDialogProps) {
  const t = useT();
  const { transport } = useApi();
  const ids = useId();
  const name = collection.name || t('backlog.untitled');
  const [choice, setChoice] = useState<PlanChoice>({ direction: 'forward', finite: false, start: localToday(), end: '', stageId: '' });
  const change = (patch: Partial<PlanChoice>) => setChoice((current) => ({ ...current, ...patch }));
  const settled = useDebouncedValue(choice, typingPause);
  const request = planRequest(settled);
  // A backward plan needs an end: the one chosen, or the due date.
  const complete = settled.direction === 'forward' ? Boolean(settled.start) : Boolean(settled.end || collection.due_date);
  const preview = useQuery({
    // Under `card`: a change of the board's cards (here or elsewhere) works the plan out again.
    queryKey: ['card', 'plan-preview', boardId, collection.id, request],
    queryFn: () => dryRunPlan(transport, collection.id, boardId, request),
    enabled: complete,
    retry: false,
  });
  const upToDate = settled === choice && complete && preview.isSuccess && !preview.isFetching;
  const day = (date: string) => formatDay(date, t.locale);
  // One promise date per order, whatever screen shows it: the backlog's, not this plan's end.
  const promises = usePromiseDates(boardId, [collection.id]);
  const promised = promises.isError ? undefined : promises.data?.get(collection.id);
  const addOvertime = useAddOvertime();

  return (
    <Modal title={t('plan.dialog.title', { name })} closeLabel={t('common.close')} onClose={onClose} className="pb-plan-dialog">
      <form
        className="pb-plan-dialog__form"
        onSubmit={(event) => {
          event.preventDefault();
          if (upToDate) onPlan(planRequest(choice));
        }}
      >
        <fieldset className="pb-plan-dialog__direction">
          <legend>{t('plan.dialog.direction')}</legend>
          <label>
            <input
              type="radio"
              name={`${ids}-direction`}
              checked={choice.direction === 'forward'}
              onChange={() => change({ direction: 'forward' })}
            />
            {t('plan.dialog.forward')}
          </label>
          <label>
            <input
              type="radio"
              name={`${ids}-direction`}
              checked={choice.direction === 'backward'}
              onChange={() => change({ direction: 'backward' })}
            />
            {t('plan.dialog.backward')}
          </label>
        </fieldset>
        {choice.direction === 'forward' ? (
          <label className="pb-plan-dialog__field">
            {t('plan.dialog.start')}
            <input type="date" value={choice.start} onChange={(event) => change({ start: event.target.value })} />
          </label>
        ) : (
          <div className="pb-plan-dialog__field">
            <label className="pb-plan-dialog__field">
              {t('plan.dialog.end')}
              <input type="date" value={choice.end} onChange={(event) => change({ end: event.target.value })} />
            </label>
            <span className="muted">
              {collection.due_date ? t('plan.dialog.endHint', { date: day(collection.due_date) }) : t('plan.dialog.endHintNone')}
            </span>
          </div>
        )}
        <label className="pb-plan-dialog__field">
          {t('plan.dialog.stage')}
          <select value={choice.stageId} onChange={(event) => change({ stageId: event.target.value })}>
            <option value="">{t('plan.dialog.boardStages')}</option>
            {stages.map((stage) => (
              <option key={stage.id} value={stage.id}>
                {stage.name}
              </option>
            ))}
          </select>
        </label>
        <label className="pb-plan-dialog__finite">
          <input type="checkbox" checked={choice.finite} onChange={(event) => change({ finite: event.target.checked })} />
          {t('plan.dialog.finite')}
        </label>
        <p className="muted pb-plan-dialog__hint">{t('plan.dialog.finiteHint')}</p>

        {promised !== undefined && (
          <p className="pb-plan-dialog__promise" data-testid="plan-promise" title={t('plan.dialog.promiseHint')}>
            {promised ? (
              <>
                <strong>{t('plan.dialog.promise', { date: day(promised) })}</strong>
                {collection.due_date && promised > collection.due_date && (
                  <span className="pb-plan-dialog__late"> {t('plan.dialog.lateWarning', { date: day(collection.due_date) })}</span>
                )}
              </>
            ) : (
              t('plan.dialog.noPromise')
            )}
          </p>
        )}
        <section className="pb-plan-dialog__preview" aria-live="polite" aria-label={t('plan.dialog.stages')}>
          {complete && (preview.isPending || (preview.isFetching && !preview.isError)) && (
            <p role="status" className="muted">
              {t('plan.dialog.working')}
            </p>
          )}
          {preview.isError && (
            <Refusal
              error={preview.error}
              end={settled.end || collection.due_date || ''}
              t={t}
              onUseEnd={(end) => change({ direction: 'backward', end })}
            />
          )}
          {preview.data && !preview.isError && <Preview plan={preview.data} stages={stages} dueDate={collection.due_date} t={t} />}
          {preview.data?.what_it_takes && !preview.isError && (
            <p className="pb-plan-dialog__takes">
              <OvertimeOffer
                takes={preview.data.what_it_takes}
                name={name}
                busy={addOvertime.isPending}
                className="pb-plan-dialog__offer"
                onAdd={(takes, description) => addOvertime.mutate({ takes, description })}
              />
            </p>
          )}
          {addOvertime.isError && <ErrorNotice error={addOvertime.error} />}
        </section>

        <div className="pb-plan-dialog__buttons">
          <button type="button" className="button" onClick={onClose}>
            {t('common.cancel')}
          </button>
          <button type="submit" className="button button--primary" disabled={!upToDate}>
            {t('plan.dialog.plan')}
          </button>
        </div>
      </form>
    </Modal>
  );
}

function Preview({
  plan,
  stages,
  dueDate,
  t,
}: {
  plan: DryRun;
  stages: readonly StageWithActivities[];
  dueDate: string | null;
  t: Translate;
}) {
  const day = (date: string) => formatDay(date, t.locale);
  const perStage = stageDates(
    plan.cards,
    stages.map((stage) => stage.id),
  );
  const stageName = new Map(stages.map((stage) => [stage.id, stage.name]));
  const minutes = plan.added_load.reduce((sum, load) => sum + load.minutes, 0);
  return (
    <>
      {plan.end && (
        <p className="pb-plan-dialog__promise" data-testid="plan-end">
          <strong>{t('plan.dialog.planEnds', { date: day(plan.end) })}</strong>
          {dueDate && plan.end > dueDate && (
            <span className="pb-plan-dialog__late"> {t('plan.dialog.lateWarning', { date: day(dueDate) })}</span>
          )}
        </p>
      )}
      {plan.start && plan.end && <p>{t('plan.dialog.span', { start: day(plan.start), end: day(plan.end) })}</p>}
      {perStage.length > 0 && (
        <ul className="pb-plan-dialog__stages" aria-label={t('plan.dialog.stages')}>
          {perStage.map((stage) => (
            <li key={stage.stageId}>
              <span>{stageName.get(stage.stageId) ?? ''}</span>{' '}
              <span className="muted">{t('plan.dialog.stageSpan', { start: day(stage.start), end: day(stage.end) })}</span>
            </li>
          ))}
        </ul>
      )}
      {minutes > 0 && (
        <p className="muted">
          {t('plan.dialog.addedLoad', { hours: new Intl.NumberFormat(t.locale, { maximumFractionDigits: 1 }).format(minutes / 60) })}
        </p>
      )}
    </>
  );
}

/** Why the plan cannot be worked out; when nothing fits before the end, the earliest end that does, to use. */
function Refusal({ error, end, t, onUseEnd }: { error: unknown; end: string; t: Translate; onUseEnd(end: string): void }) {
  const fits = nothingFits(error);
  const day = (date: string) => formatDay(date, t.locale);
  if (!fits) return <p role="alert">{t('plan.dialog.failed', { problem: describeError(error) })}</p>;
  return (
    <div role="alert" className="pb-plan-dialog__refusal">
      <p>{t('plan.dialog.nothingFits', { end: end ? day(end) : '', earliest: day(fits.earliestEnd) })}</p>
      <button type="button" className="button" onClick={() => onUseEnd(fits.earliestEnd)}>
        {t('plan.dialog.useEarliest', { date: day(fits.earliestEnd) })}
      </button>
    </div>
  );
}
