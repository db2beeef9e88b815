/**
 * Finding a card: a search box (collection, stage, activity or a date, see card-search.ts) and
 * the first matches by their display names, with dates where two would read the same. A card
 * with several activities then asks which one the time is for. Used by the top-bar timer
 * (start on a card) and the week sheet (add a card's row).
 */
import { useId, useMemo, useState, type KeyboardEvent } from 'react';
import { cardNames } from '../../components/card-name.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useDebouncedValue } from '../../components/use-debounced-value.js';
import { useT } from '../../i18n/index.js';
import { activityDefault } from './card-activities.js';
import { localToday, systemTimeZone } from './periods.js';
import { useCardSearch, type ActivitySummary, type CardSummary } from './time-api.js';

interface CardPickerProps {
  /** Names the search box: "Find a card to time". */
  label: string;
  /** The card, and the activity the time is for (null when the card has none). */
  onPick(card: CardSummary, activity: ActivitySummary | null): void;
  onCancel(): void;
  busy?: boolean;
}

export function CardPicker({ label, onPick, onCancel, busy = false }: CardPickerProps) {
  const t = useT();
  const inputId = useId();
  const [text, setText] = useState('');
  const [choosing, setChoosing] = useState<{ card: CardSummary; name: string; activities: ActivitySummary[] } | null>(null);
  const search = useDebouncedValue(text, 200);
  const today = useMemo(() => localToday(systemTimeZone()), []);
  const cards = useCardSearch(search, today);
  const found = cards.data?.data ?? [];
  const names = cardNames(found, t);

  function pick(card: CardSummary, name: string) {
    const activity = activityDefault(card);
    if (activity.kind === 'choose') setChoosing({ card, name, activities: activity.activities });
    else onPick(card, activity.kind === 'one' ? activity.activity : null);
  }

  const keys = (event: KeyboardEvent) => {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    if (choosing) setChoosing(null);
    else onCancel();
  };

  if (choosing) {
    return (
      <div className="card-picker" onKeyDown={keys}>
        <p className="card-picker__label">{t('cardPicker.whichActivity', { card: choosing.name })}</p>
        <ul className="card-picker__results" aria-label={t('cardPicker.activities')}>
          {choosing.activities.map((activity, index) => (
            <li key={activity.id}>
              <button
                type="button"
                className="card-picker__card"
                autoFocus={index === 0}
                disabled={busy}
                onClick={() => onPick(choosing.card, activity)}
              >
                {activity.description}
                {activity.code && <span className="muted"> · {activity.code}</span>}
              </button>
            </li>
          ))}
        </ul>
        <button type="button" className="button button--quiet" onClick={() => setChoosing(null)}>
          {t('cardPicker.back')}
        </button>
      </div>
    );
  }

  return (
    <div className="card-picker" onKeyDown={keys}>
      <label htmlFor={inputId} className="card-picker__label">
        {label}
      </label>
      <input
        id={inputId}
        type="search"
        className="card-picker__search"
        autoFocus
        autoComplete="off"
        placeholder={t('cardPicker.placeholder')}
        value={text}
        onChange={(event) => setText(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && found[0] && !busy) {
            event.preventDefault();
            pick(found[0], names[0]!);
          }
        }}
      />
      {cards.isError && <ErrorNotice error={cards.error} onRetry={() => void cards.refetch()} />}
      <ul className="card-picker__results" aria-label={t('cardPicker.results')}>
        {found.map((card, index) => (
          <li key={card.id}>
            <button
              type="button"
              className="card-picker__card"
              title={names[index]}
              disabled={busy}
              onClick={() => pick(card, names[index]!)}
            >
              {names[index]}
            </button>
          </li>
        ))}
      </ul>
      {cards.data && found.length === 0 && <p className="muted card-picker__none">{t('cardPicker.none')}</p>}
      {!cards.data && !cards.isError && <p className="muted card-picker__none">{t('common.loading')}</p>}
      <button type="button" className="button button--quiet" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </div>
  );
}
