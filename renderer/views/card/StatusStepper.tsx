/**
 * The card's status, stepped through the board's statuses in priority order: "Previous status"
 * and "Next status" move it one step. A card in an exit status reads as done. At either end a
 * button is aria-disabled rather than disabled, so the keyboard focus stays on it (a disabled
 * button would drop focus out of the panel).
 */
import { Check } from 'lucide-react';
import { useId } from 'react';
import type { Status } from '../../../shared/resources/board.js';
import { boardColorHex } from '../../components/board-colors.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import type { CardDetail } from './card-api.js';
import { statusSteps } from './status-steps.js';
import { cardTitle, useCardEdit } from './use-card-edits.js';

export function StatusStepper({ card, statuses }: { card: CardDetail; statuses: Status[] }) {
  const t = useT();
  const titleId = useId();
  const edit = useCardEdit(card);
  const steps = statusSteps(statuses, card.status_id ?? null);
  const current = steps.current;

  function go(status: Status | null) {
    if (!status || edit.isPending) return;
    edit.mutate({
      description: t('card.history.setStatus', { card: cardTitle(card, t), status: status.name }),
      changes: { status_id: status.id },
    });
  }

  return (
    <section className="card-section card-status" aria-labelledby={titleId}>
      <h3 id={titleId} className="card-section__title">
        {t('card.status')}
      </h3>
      <div className="card-status__row">
        <button
          type="button"
          className="button"
          aria-disabled={!steps.previous || edit.isPending}
          title={steps.previous ? t('card.status.backTo', { status: steps.previous.name }) : undefined}
          onClick={() => go(steps.previous)}
        >
          {t('card.status.previous')}
        </button>
        <span className="card-status__current" role="status" aria-label={t('card.status.current')}>
          {current ? (
            <>
              <span className="card-status__swatch" style={{ background: boardColorHex[current.color] }} aria-hidden="true" />
              {current.name}
              {steps.done && <span className="card-status__done"> — {t('card.status.done')}</span>}
            </>
          ) : (
            <span className="muted">{t('card.status.none')}</span>
          )}
        </span>
        <button
          type="button"
          className="button"
          aria-disabled={!steps.next || edit.isPending}
          title={steps.next ? t('card.status.onTo', { status: steps.next.name }) : undefined}
          onClick={() => go(steps.next)}
        >
          {t('card.status.next')}
        </button>
      </div>
      {steps.ordered.length > 0 && (
        <ol className="card-status__steps" aria-label={t('card.status.steps')}>
          {steps.ordered.map((status, index) => (
            <li
              key={status.id}
              className={`card-status__step${index === steps.index ? ' is-current' : ''}${index < steps.index ? ' is-passed' : ''}`}
              aria-current={index === steps.index ? 'step' : undefined}
            >
              {status.name}
              {status.exit && <Check className="status-stepper__exit" aria-hidden="true" size={12} />}
              {status.exit && <span className="visually-hidden"> ({t('card.status.done')})</span>}
            </li>
          ))}
        </ol>
      )}
      {edit.error && <ErrorNotice error={edit.error} />}
    </section>
  );
}
