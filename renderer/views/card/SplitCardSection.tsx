/**
 * Splitting the card in two, by a date (the new card starts that day; this one ends the
 * workday before) or by a share of its days and minutes (this card keeps that percentage).
 * The new card follows it on the planboard, with the same stage, status, labels and resources.
 */
import { useId, useState, type FormEvent } from 'react';
import { fieldErrors, formErrors } from '../../api/client.js';
import { Field } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import type { CardDetail, SplitBy } from './card-api.js';
import { usePanelWrite } from './card-queries.js';
import { percentShare } from './split-by.js';
import { cardTitle } from './use-card-edits.js';

type SplitMode = 'date' | 'share';

export function SplitCardSection({ card }: { card: CardDetail }) {
  const t = useT();
  const titleId = useId();
  const notify = useNotices((state) => state.notify);
  const [mode, setMode] = useState<SplitMode>('date');
  const [date, setDate] = useState('');
  const [percent, setPercent] = useState('50');
  const split = usePanelWrite((api, by: SplitBy) => api.splitCard(card, by), [['card'], ['collection']]);
  const errors = fieldErrors(split.error);
  const by: SplitBy | null = mode === 'date' ? (date ? { date } : null) : percentShare(percent);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!by) return;
    split.mutate(by, {
      onSuccess: ([first, second]) => {
        setDate('');
        if (first && second) {
          notify(
            t('card.split.done', {
              card: cardTitle(card, t),
              end: first.end_date ?? '',
              newStart: second.start_date ?? '',
              newEnd: second.end_date ?? '',
            }),
          );
        }
      },
    });
  }

  return (
    <form className="card-section card-split" aria-labelledby={titleId} onSubmit={submit} noValidate>
      <h3 id={titleId} className="card-section__title">
        {t('card.split')}
      </h3>
      <fieldset className="card-split__modes">
        <legend className="visually-hidden">{t('card.split.by')}</legend>
        <label className="card-pick">
          <input type="radio" name={`${titleId}-mode`} checked={mode === 'date'} onChange={() => setMode('date')} />
          {t('card.split.atDate')}
        </label>
        <label className="card-pick">
          <input type="radio" name={`${titleId}-mode`} checked={mode === 'share'} onChange={() => setMode('share')} />
          {t('card.split.byShare')}
        </label>
      </fieldset>
      {mode === 'date' ? (
        <Field label={t('card.split.startsOn')} error={errors.date}>
          {(control) => (
            <input
              {...control}
              type="date"
              value={date}
              min={card.start_date ?? undefined}
              max={card.end_date ?? undefined}
              onChange={(event) => {
                setDate(event.target.value);
                if (split.error) split.reset();
              }}
            />
          )}
        </Field>
      ) : (
        <Field label={t('card.split.keeps')} error={errors.share}>
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              max={99}
              value={percent}
              onChange={(event) => {
                setPercent(event.target.value);
                if (split.error) split.reset();
              }}
            />
          )}
        </Field>
      )}
      {formErrors(split.error, ['date', 'share']).map((message) => (
        <p key={message} className="form-error" role="alert">
          {message}
        </p>
      ))}
      <button type="submit" className="button" disabled={!by || split.isPending}>
        {t('card.split.submit')}
      </button>
    </form>
  );
}
