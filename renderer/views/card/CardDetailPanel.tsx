/**
 * The card detail panel, beside the planboard. A minimal stand-in: it shows which card is open
 * and closes again; the full panel (fields, status, checklists, comments, attachments,
 * relations, time entries, split) replaces this file with the same API (`useCardPanel`).
 */
import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../api/client.js';
import { useApi } from '../../api/provider.js';
import { useCardPanel } from '../../state/card-panel.js';
import type { Card } from '../../../shared/resources/card.js';

type CardWithCollection = Card & { collection?: { name: string | null } | null };

export function CardDetailPanel() {
  const { openCardId, close } = useCardPanel();
  const { client } = useApi();
  const card = useQuery({
    queryKey: ['card', 'detail', openCardId],
    queryFn: () => client.list<CardWithCollection>('/v1/card', { filter: `id:eq:'${openCardId}'`, with: 'collection', limit: 1 }),
    enabled: openCardId !== null,
  });
  if (!openCardId) return null;
  const record = card.data?.data[0];
  return (
    <aside className="card-stub" aria-label="Card details">
      <div className="card-stub__header">
        <h2 className="card-stub__title">{record ? record.name || record.collection?.name || 'Untitled card' : 'Card'}</h2>
        <button type="button" className="button button--quiet" onClick={close}>
          Close
        </button>
      </div>
      {card.isError && <p className="form-error">{describeError(card.error)}</p>}
      {record && (
        <dl className="card-stub__facts">
          <dt>Collection</dt>
          <dd>{record.collection?.name ?? '—'}</dd>
          <dt>Dates</dt>
          <dd>
            {record.start_date ?? '—'} to {record.end_date ?? '—'}
          </dd>
        </dl>
      )}
    </aside>
  );
}
