/**
 * A collection's path on one line, above the planboard's grid: every planned card of the
 * collection, on all stages, in stage order along its own timeline from the first card's
 * first day to the last card's last day, each with its stage's name and dates. "Show path" in
 * the selection bar opens it; its close button or Escape closes it.
 *
 * The cards are read for the whole collection (the grid holds only the days around the view).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { cardDates } from '../../../shared/card-display-name.js';
import { daysBetween } from '../../../shared/dates.js';
import { send } from '../../api/client.js';
import { apiPath } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';
import { useT } from '../../i18n/index.js';
import '../../styles/plan-reading.css';
import { isLate } from './dependency-arrows.js';
import { usePathStrip } from './path-strip-state.js';

interface PathCard {
  id: string;
  stage_id: string;
  start_date: string | null;
  end_date: string | null;
  collection?: { name?: string | null } | null;
}

interface CollectionStripProps {
  stages: readonly { id: string; name: string; priority: number }[];
}

export function CollectionStrip({ stages }: CollectionStripProps) {
  const collectionId = usePathStrip((state) => state.collectionId);
  const close = usePathStrip((state) => state.close);
  useEffect(() => {
    if (!collectionId) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') close();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [collectionId, close]);
  return collectionId ? <Strip collectionId={collectionId} stages={stages} onClose={close} /> : null;
}

function Strip({ collectionId, stages, onClose }: CollectionStripProps & { collectionId: string; onClose(): void }) {
  const t = useT();
  const { transport } = useApi();
  const cards = useQuery({
    queryKey: ['card', 'path', collectionId],
    queryFn: () =>
      send<{ data: PathCard[] }>(transport, {
        method: 'GET',
        path: apiPath`/v1/collection/${collectionId}/card`,
        query: { with: 'collection', limit: '1000' },
      }),
  });
  const rank = new Map(stages.map((stage, at) => [stage.id, { at, name: stage.name }]));
  const planned = (cards.data?.data ?? [])
    .filter((card): card is PathCard & { start_date: string; end_date: string } => !!card.start_date && !!card.end_date)
    .filter((card) => rank.has(card.stage_id))
    .sort((a, b) => rank.get(a.stage_id)!.at - rank.get(b.stage_id)!.at || a.start_date.localeCompare(b.start_date));
  const name = cards.data?.data[0]?.collection?.name || t('planboard.collection');
  const first = planned.reduce((min, card) => (card.start_date < min ? card.start_date : min), planned[0]?.start_date ?? '');
  const last = planned.reduce((max, card) => (card.end_date > max ? card.end_date : max), planned[0]?.end_date ?? '');
  const days = first ? daysBetween(first, last) + 1 : 1;

  return (
    <section className="pb-path" aria-label={t('path.title', { collection: name })}>
      <div className="pb-path__head">
        <h2 className="pb-path__title">{t('path.title', { collection: name })}</h2>
        <button type="button" className="button button--quiet" onClick={onClose}>
          {t('path.close')}
        </button>
      </div>
      {planned.length === 0 ? (
        <p className="muted">{cards.isLoading ? t('common.loading') : t('path.empty')}</p>
      ) : (
        <ol className="pb-path__line">
          {planned.map((card, at) => {
            const before = planned[at - 1];
            const late = !!before && before.stage_id !== card.stage_id && isLate(before, card);
            return (
              <li
                key={card.id}
                className={`pb-path__card${late ? ' pb-path__card--late' : ''}`}
                style={{
                  left: `${(daysBetween(first, card.start_date) / days) * 100}%`,
                  width: `${((daysBetween(card.start_date, card.end_date) + 1) / days) * 100}%`,
                }}
              >
                <strong>{rank.get(card.stage_id)!.name}</strong> <span>{cardDates(card, t.locale)}</span>
              </li>
            );
          })}
        </ol>
      )}
    </section>
  );
}
