/**
 * Finding a card by name: a search box and the first matches as buttons. Used by the top-bar
 * timer (start on a card) and the week sheet (add a card's row).
 */
import { useId, useState } from 'react';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useDebouncedValue } from '../../components/use-debounced-value.js';
import { useT } from '../../i18n/index.js';
import { cardContext, cardLabel } from './card-label.js';
import { useCardSearch, type CardSummary } from './time-api.js';

interface CardPickerProps {
  /** Names the search box: "Find a card to time". */
  label: string;
  onPick(card: CardSummary): void;
  onCancel(): void;
  busy?: boolean;
}

export function CardPicker({ label, onPick, onCancel, busy = false }: CardPickerProps) {
  const t = useT();
  const inputId = useId();
  const [text, setText] = useState('');
  const search = useDebouncedValue(text, 200);
  const cards = useCardSearch(search);
  const found = cards.data?.data ?? [];

  return (
    <div
      className="card-picker"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.stopPropagation();
          onCancel();
        }
      }}
    >
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
            onPick(found[0]);
          }
        }}
      />
      {cards.isError && <ErrorNotice error={cards.error} onRetry={() => void cards.refetch()} />}
      <ul className="card-picker__results" aria-label={t('cardPicker.results')}>
        {found.map((card) => {
          const context = cardContext(card);
          return (
            <li key={card.id}>
              <button type="button" className="card-picker__card" disabled={busy} onClick={() => onPick(card)}>
                <span>{cardLabel(card, t)}</span>
                {context && <span className="muted"> · {context}</span>}
              </button>
            </li>
          );
        })}
      </ul>
      {cards.data && found.length === 0 && <p className="muted card-picker__none">{t('cardPicker.none')}</p>}
      {!cards.data && !cards.isError && <p className="muted card-picker__none">{t('common.loading')}</p>}
      <button type="button" className="button button--quiet" onClick={onCancel}>
        {t('common.cancel')}
      </button>
    </div>
  );
}
