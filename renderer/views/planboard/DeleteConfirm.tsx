/** "Delete 12 cards?": asked before more than a few cards are deleted at once (delete-confirm-state.ts). */
import { Modal } from '../../components/Modal.js';
import { useT } from '../../i18n/index.js';
import { useDeleteConfirm } from './delete-confirm-state.js';
import type { PlanboardActions } from './use-planboard-actions.js';

export function DeleteConfirm({ actions }: { actions: PlanboardActions }) {
  const t = useT();
  const cards = useDeleteConfirm((state) => state.cards);
  const close = useDeleteConfirm((state) => state.close);
  if (!cards) return null;
  return (
    <Modal title={t('delete.confirmTitle', { count: cards.length })} closeLabel={t('common.close')} onClose={close}>
      <p>{t('delete.confirmText')}</p>
      <div className="row-actions">
        <button
          type="button"
          className="button button--danger"
          autoFocus
          onClick={() => {
            close();
            void actions.deleteCards(cards, true);
          }}
        >
          {t('delete.confirm', { count: cards.length })}
        </button>
        <button type="button" className="button" onClick={close}>
          {t('common.cancel')}
        </button>
      </div>
    </Modal>
  );
}
