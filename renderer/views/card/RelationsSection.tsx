/**
 * The card's relations to other cards (blocks, depends on, related to, cloned from), both the
 * ones it makes and the ones made to it. Another card's name opens that card here. A relation
 * is added by finding a card of the board by name, and removed with its button.
 */
import { useId, useState, type FormEvent } from 'react';
import { fieldErrors, formErrors } from '../../api/client.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { Field } from '../../components/Field.js';
import { useDebouncedValue } from '../../components/use-debounced-value.js';
import { useT } from '../../i18n/index.js';
import { useCardPanel } from '../../state/card-panel.js';
import type { CardDetail, RelatedCard } from './card-api.js';
import { cardPanelKeys, useCardSearch, usePanelWrite, useRelations } from './card-queries.js';
import { relationChoices, relationFrom, type RelationType } from './relation-wording.js';
import { cardTitle } from './use-card-edits.js';

export function RelationsSection({ card }: { card: CardDetail }) {
  const t = useT();
  const titleId = useId();
  const relations = useRelations(card.id);
  const open = useCardPanel((state) => state.open);
  const remove = usePanelWrite((api, relationId: string) => api.removeRelation(relationId), [cardPanelKeys.relations(card.id)]);
  const list = relations.data ?? [];

  return (
    <section className="card-section card-relations" aria-labelledby={titleId}>
      <h3 id={titleId} className="card-section__title">
        {t('card.relations')}
      </h3>
      {relations.isError && <ErrorNotice error={relations.error} onRetry={() => void relations.refetch()} />}
      {relations.data && list.length === 0 && <p className="muted">{t('card.relations.none')}</p>}
      {list.length > 0 && (
        <ul className="card-relations__list" aria-label={t('card.relations')}>
          {list.map((relation) => {
            const side = relationFrom(relation, card.id, t);
            const other = relation.card_id === card.id ? relation.related_card : relation.card;
            const name = other ? cardTitle(other, t) : t('card.relations.deletedCard');
            return (
              <li key={relation.id} className="card-relation">
                <span>{side.wording} </span>
                {other ? (
                  <button
                    type="button"
                    className="button button--link"
                    aria-label={t('card.relations.open', { relation: side.wording, card: name })}
                    onClick={() => open(side.otherId)}
                  >
                    {name}
                  </button>
                ) : (
                  <span className="muted">{name}</span>
                )}
                <button
                  type="button"
                  className="button button--quiet"
                  aria-label={t('card.relations.removeRelation', { relation: side.wording, card: name })}
                  disabled={remove.isPending}
                  onClick={() => remove.mutate(relation.id)}
                >
                  {t('card.relations.remove')}
                </button>
              </li>
            );
          })}
        </ul>
      )}
      {remove.error && <ErrorNotice error={remove.error} />}
      {card.board_id && <AddRelation card={card} boardId={card.board_id} />}
    </section>
  );
}

function AddRelation({ card, boardId }: { card: CardDetail; boardId: string }) {
  const t = useT();
  const [type, setType] = useState<RelationType>('related');
  const [search, setSearch] = useState('');
  const [picked, setPicked] = useState<RelatedCard | null>(null);
  const text = useDebouncedValue(search.trim(), 250);
  const found = useCardSearch(boardId, text);
  const candidates = (found.data ?? []).filter((candidate) => candidate.id !== card.id);
  const resultsId = useId();
  const add = usePanelWrite(
    (api, body: { related_card_id: string; type: RelationType }) => api.addRelation({ card_id: card.id, ...body }),
    [cardPanelKeys.relations(card.id)],
  );
  const errors = fieldErrors(add.error);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!picked) return;
    add.mutate(
      { related_card_id: picked.id, type },
      {
        onSuccess: () => {
          setPicked(null);
          setSearch('');
        },
      },
    );
  }

  return (
    <form className="card-add-relation" aria-label={t('card.relations.new')} onSubmit={submit} noValidate>
      <Field label={t('card.relations.type')} error={errors.type}>
        {(control) => (
          <select {...control} value={type} onChange={(event) => setType(event.target.value as RelationType)}>
            {relationChoices(t).map((choice) => (
              <option key={choice.type} value={choice.type}>
                {choice.text}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('card.relations.find')} error={errors.related_card_id}>
        {(control) => (
          <input
            {...control}
            type="search"
            value={search}
            autoComplete="off"
            aria-controls={resultsId}
            onChange={(event) => {
              setSearch(event.target.value);
              setPicked(null);
              if (add.error) add.reset();
            }}
          />
        )}
      </Field>
      {text && (
        <fieldset id={resultsId} className="card-picks card-add-relation__results">
          <legend>{t('card.relations.matching')}</legend>
          {found.isError && <ErrorNotice error={found.error} />}
          {found.data && candidates.length === 0 && <p className="muted">{t('card.relations.noMatch')}</p>}
          {candidates.map((candidate) => (
            <label key={candidate.id} className="card-pick">
              <input type="radio" name={`${resultsId}-card`} checked={picked?.id === candidate.id} onChange={() => setPicked(candidate)} />
              {cardTitle(candidate, t)}
              {candidate.start_date && <span className="muted"> {candidate.start_date}</span>}
            </label>
          ))}
        </fieldset>
      )}
      {formErrors(add.error, ['type', 'related_card_id']).map((message) => (
        <p key={message} className="form-error" role="alert">
          {message}
        </p>
      ))}
      <button type="submit" className="button" disabled={!picked || add.isPending}>
        {t('card.relations.add')}
      </button>
    </form>
  );
}
