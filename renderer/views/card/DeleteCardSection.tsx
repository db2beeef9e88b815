/**
 * Deleting the card, after a confirmation. It is undoable (Ctrl+Z brings it back from the
 * trash); the panel closes once the card is gone.
 */
import { ConfirmDelete } from '../../components/ConfirmDelete.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import type { CardDetail } from './card-api.js';
import { cardTitle, useDeleteCard } from './use-card-edits.js';

export function DeleteCardSection({ card }: { card: CardDetail }) {
  const remove = useDeleteCard(card);
  return (
    <div className="card-section card-delete">
      <ConfirmDelete name={cardTitle(card)} text="Delete card" label="Delete card" pending={remove.isPending} onConfirm={() => remove.mutate()} />
      {remove.error && <ErrorNotice error={remove.error} />}
    </div>
  );
}
