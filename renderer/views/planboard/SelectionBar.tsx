/**
 * What can be done to the selected cards in one go: move them by days, label them, assign a
 * resource, send their collections back to the backlog, delete them. Each is one undoable
 * action, however many cards it touches.
 */
import { ChevronLeft, ChevronRight, X } from 'lucide-react';
import { useState } from 'react';
import { useT } from '../../i18n/index.js';
import { useCardPanel } from '../../state/card-panel.js';
import { usePlanboardStore } from '../../state/planboard.js';
import { shiftSpan } from './date-geometry.js';
import { cardTitle, type PlanCard } from './plan-card.js';
import type { PlanboardActions } from './use-planboard-actions.js';
import { usePathStrip } from './path-strip-state.js';

interface SelectionBarProps {
  cards: readonly PlanCard[];
  labels: readonly { id: string; name: string }[];
  resources: readonly { id: string; name: string }[];
  actions: PlanboardActions;
}

export function SelectionBar({ cards, labels, resources, actions }: SelectionBarProps) {
  const t = useT();
  const select = usePlanboardStore((state) => state.select);
  const openCard = useCardPanel((state) => state.open);
  const [days, setDays] = useState('1');
  if (cards.length === 0) return null;
  const collections = [...new Map(cards.map((card) => [card.collection_id, card.collection?.name || t('planboard.collection')])).entries()];
  const moveBy = (delta: number) =>
    void actions.moveCards(
      cards.map((card) => ({ card, ...toDates(shiftSpan(card.start_date, card.end_date, delta)), stage_id: card.stage_id })),
    );

  return (
    <div className="pb-selection" role="group" aria-label={t('planboard.selection')}>
      <span className="pb-selection__count">
        {cards.length === 1 ? cardTitle(cards[0]!, t) : t.count('planboard.selection.count', cards.length)}
      </span>
      {cards.length === 1 && (
        <button type="button" className="button" onClick={() => openCard(cards[0]!.id)}>
          {t('planboard.selection.open')}
        </button>
      )}
      <form
        className="pb-selection__move"
        onSubmit={(event) => {
          event.preventDefault();
          const delta = Math.round(Number(days));
          if (delta) moveBy(delta);
        }}
      >
        <button
          type="button"
          className="button button--quiet"
          onClick={() => moveBy(-1)}
          aria-label={t('planboard.selection.earlier')}
          title={t('planboard.selection.earlierTitle')}
        >
          <ChevronLeft aria-hidden="true" size={16} />
        </button>
        <button
          type="button"
          className="button button--quiet"
          onClick={() => moveBy(1)}
          aria-label={t('planboard.selection.later')}
          title={t('planboard.selection.laterTitle')}
        >
          <ChevronRight aria-hidden="true" size={16} />
        </button>
        <input
          type="number"
          value={days}
          step={1}
          aria-label={t('planboard.selection.days')}
          onChange={(event) => setDays(event.target.value)}
        />
        <button type="submit" className="button">
          {t('planboard.selection.moveDays')}
        </button>
      </form>
      <select
        aria-label={t('planboard.selection.addLabel')}
        value=""
        onChange={(event) => {
          const label = labels.find((candidate) => candidate.id === event.target.value);
          if (label) void actions.addLink(cards, 'labels', label.id, label.name);
        }}
      >
        <option value="">{t('planboard.selection.addLabelChoice')}</option>
        {labels.map((label) => (
          <option key={label.id} value={label.id}>
            {label.name}
          </option>
        ))}
      </select>
      <select
        aria-label={t('planboard.selection.assign')}
        value=""
        onChange={(event) => {
          const resource = resources.find((candidate) => candidate.id === event.target.value);
          if (resource) void actions.addLink(cards, 'resources', resource.id, resource.name);
        }}
      >
        <option value="">{t('planboard.selection.assignChoice')}</option>
        {resources.map((resource) => (
          <option key={resource.id} value={resource.id}>
            {resource.name}
          </option>
        ))}
      </select>
      {collections.length === 1 && (
        <button type="button" className="button" onClick={() => void actions.unplan(collections[0]![0], collections[0]![1])}>
          {t('planboard.selection.toBacklog')}
        </button>
      )}
      {collections.length === 1 && (
        <button type="button" className="button" onClick={() => usePathStrip.getState().show(collections[0]![0])}>
          {t('path.show')}
        </button>
      )}
      <button
        type="button"
        className="button button--danger"
        onClick={() => {
          select([]);
          void actions.deleteCards(cards);
        }}
      >
        {t('common.delete')}
      </button>
      <button
        type="button"
        className="button button--quiet"
        onClick={() => select([])}
        aria-label={t('planboard.selection.clear')}
        title={t('planboard.selection.clearTitle')}
      >
        <X aria-hidden="true" size={16} />
      </button>
    </div>
  );
}

function toDates(span: { start: string; end: string }) {
  return { start_date: span.start, end_date: span.end };
}
