/**
 * Deleting the card, after a confirmation. It is undoable (Ctrl+Z brings it back from the
 * trash); the panel closes once the card is gone.
 */
import { ConfirmDelete } from '../../components/ConfirmDelete.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import type { CardDetail } from './card-api.js';
import { cardTitle, useDeleteCard } from './use-card-edits.js';

export function DeleteCardSection({ card }: { card: CardDetail }) {
  const t = useT();
  const remove = useDeleteCard(card);
  return (
    <div className="card-section card-delete">
      <ConfirmDelete
        name={cardTitle(card, t)}
        text={t('card.delete')}
        label={t('card.delete')}
        pending={remove.isPending}
        onConfirm={() => remove.mutate()}
      />
      {remove.error && <ErrorNotice error={remove.error} />}
    </div>
  );
}
