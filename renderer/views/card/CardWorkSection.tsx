/**
 * What the card plans, near the top of the panel: each activity with its planned time, the
 * total in hours, and — when its collection comes from an order — the order's description and
 * rows, so a planner sees what is to be made without leaving the planboard; and what the floor
 * reported on it (CardFloorFigures.tsx): hours booked, who is on it, pieces made.
 */
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import { useApi } from '../../api/provider.js';
import { useT } from '../../i18n/index.js';
import type { Order } from '../../../shared/resources/order.js';
import type { OrderRow } from '../../../shared/resources/order-row.js';
import { durationText } from '../activities/activity-draft.js';
import { unitName } from '../orders/UnitSelect.js';
import type { CardDetail } from './card-api.js';
import { CardFloorFigures } from './CardFloorFigures.js';
import { CardSkillsLine } from './CardSkillsLine.js';
import { plannedMinutes } from './floor-figures.js';

type OrderWithRows = Order & { order_rows: OrderRow[] };

/** The order of the card's collection, if it has one; its key follows order changes. */
function useCardOrder(collectionId: string) {
  const { client } = useApi();
  return useQuery({
    queryKey: ['order', 'card-panel', collectionId],
    queryFn: async () => {
      const page = await client.list<OrderWithRows>('/v1/order', {
        filter: `collection_id:eq:'${collectionId}'`,
        with: 'order_rows',
        limit: 1,
      });
      return page.data[0] ?? null;
    },
  });
}

export function CardWorkSection({ card }: { card: CardDetail }) {
  const t = useT();
  const titleId = useId();
  const order = useCardOrder(card.collection_id);
  const total = plannedMinutes(card.activities);
  // The stage's setup counts once per card with work (docs/API.md "Setup times").
  const setup = total > 0 ? (card.stage?.setup_minutes ?? 0) : 0;
  const rows = [...(order.data?.order_rows ?? [])].sort((a, b) => (a.position ?? 0) - (b.position ?? 0));
  return (
    <section className="card-section card-work" aria-labelledby={titleId}>
      <h3 id={titleId} className="card-section__title">
        {t('card.work')}
      </h3>
      {card.activities.length === 0 ? (
        <p className="muted">{t('card.work.noActivities')}</p>
      ) : (
        <ul className="card-work__activities" aria-label={t('card.work.activities')}>
          {card.activities.map((activity) => (
            <li key={activity.id}>
              {activity.description} <span className="muted">{durationText(activity.time, t)}</span>
            </li>
          ))}
        </ul>
      )}
      <p>
        {setup > 0
          ? t('card.work.plannedWithSetup', { time: durationText(total, t), setup: durationText(setup, t) })
          : t('card.work.planned', { time: durationText(total, t) })}
      </p>
      <CardSkillsLine cardId={card.id} />
      <CardFloorFigures card={card} orderRows={order.data?.order_rows ?? []} />
      {order.data && (
        <div className="card-work__order">
          <p>
            <span className="muted">{t('card.work.order')} </span>
            {[order.data.code, order.data.description].filter(Boolean).join(' · ')}
          </p>
          {rows.length > 0 && (
            <ul className="card-work__rows" aria-label={t('card.work.orderRows')}>
              {rows.map((row) => (
                <li key={row.id}>
                  {[
                    row.description ?? row.code,
                    row.quantity !== null ? `${row.quantity} ${row.unit ? unitName(t, row.unit) : ''}`.trim() : null,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
    </section>
  );
}
