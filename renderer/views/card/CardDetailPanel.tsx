/**
 * The card detail panel, beside the planboard grid: everything about one card, editable. The
 * planboard opens it (`useCardPanel().open(id)`: Enter, double-click, and a plain click on
 * another card while it is open); Esc or the close button closes it. While open, Tab stays inside the panel; on close, focus goes back to where it was
 * (the grid, with the card still the active one).
 *
 * This file is the frame: loading, the header with the collection and its warnings, closing
 * and focus. Each part of the card is a section of its own in this folder.
 */
import { X } from 'lucide-react';
import { useRef, type KeyboardEvent } from 'react';
import { ApiRequestError } from '../../api/client.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { trapTab, useFocusReturn } from '../../components/focus-trap.js';
import { useT } from '../../i18n/index.js';
import { useCardPanel } from '../../state/card-panel.js';
import { AttachmentsSection } from './AttachmentsSection.js';
import type { CardDetail, PanelBoard } from './card-api.js';
import { useCardDetail, usePanelBoard } from './card-queries.js';
import { CardFieldsForm } from './CardFieldsForm.js';
import { CardLinksSection } from './CardLinksSection.js';
import { CardWorkSection } from './CardWorkSection.js';
import { ChecklistsSection } from './ChecklistsSection.js';
import { CommentsSection } from './CommentsSection.js';
import { CustomFieldsSection } from './CustomFieldsSection.js';
import { DeleteCardSection } from './DeleteCardSection.js';
import { OverruledNotice } from './OverruledNotice.js';
import { RelationsSection } from './RelationsSection.js';
import { SplitCardSection } from './SplitCardSection.js';
import { StatusStepper } from './StatusStepper.js';
import { TimeEntriesSection } from './TimeEntriesSection.js';
import { cardName } from '../../components/card-name.js';
import { warningText } from '../../components/warning-words.js';
import './card-panel.css';

export function CardDetailPanel() {
  const t = useT();
  const openCardId = useCardPanel((state) => state.openCardId);
  const close = useCardPanel((state) => state.close);
  const panel = useRef<HTMLElement>(null);
  // The card shown last: after close, focus goes back to it even though no card is open any more.
  const shownCardId = useRef<string | null>(null);
  if (openCardId) shownCardId.current = openCardId;
  useFocusReturn(panel, openCardId !== null, () => focusTargetOfCard(shownCardId.current));

  if (!openCardId) return null;

  function onKeyDown(event: KeyboardEvent<HTMLElement>) {
    if (event.key === 'Escape' && !event.isDefaultPrevented()) {
      event.preventDefault();
      close();
    } else if (panel.current) {
      trapTab(event, panel.current);
    }
  }

  return (
    <aside ref={panel} className="card-panel" aria-label={t('card.panel')} tabIndex={-1} onKeyDown={onKeyDown}>
      <CardPanelContent key={openCardId} cardId={openCardId} onClose={close} />
    </aside>
  );
}

function CardPanelContent({ cardId, onClose }: { cardId: string; onClose: () => void }) {
  const t = useT();
  const card = useCardDetail(cardId);
  const record = card.data ?? null;
  const board = usePanelBoard(record?.board_id ?? record?.collection?.board_id ?? null);
  const gone = card.data === null || (card.error instanceof ApiRequestError && card.error.status === 404);

  // One header whatever the state: the title keeps focus from "Loading" to loaded.
  return (
    <>
      <div className="card-panel__header">
        <div className="card-panel__heading">
          <h2 className="card-panel__title" tabIndex={-1} data-autofocus>
            {/* The name the card goes by everywhere (components/card-name.ts), with its dates. */}
            {record ? cardName(record, t, { dates: true }) : t('card.panel.loadingTitle')}
          </h2>
          {record && (
            <p className="card-panel__collection">
              <span className="muted">{t('card.panel.collection')} </span>
              {record.collection?.name || t('card.panel.unnamedCollection')}
            </p>
          )}
        </div>
        <button type="button" className="button button--quiet card-panel__close" aria-label={t('card.panel.close')} onClick={onClose}>
          <X aria-hidden="true" size={16} />
        </button>
      </div>
      {record ? (
        <>
          <CollectionWarnings warnings={record.collection?.warnings ?? []} />
          <OverruledNotice cardId={record.id} />
          {board.isError && <ErrorNotice error={board.error} onRetry={() => void board.refetch()} />}
          <CardSections card={record} board={board.data ?? null} />
        </>
      ) : gone ? (
        <p className="empty-state">{t('card.panel.gone')}</p>
      ) : card.isError ? (
        <ErrorNotice error={card.error} onRetry={() => void card.refetch()} />
      ) : (
        <p className="loading" role="status">
          {t('card.panel.loading')}
        </p>
      )}
    </>
  );
}

function CardSections({ card, board }: { card: CardDetail; board: PanelBoard | null }) {
  return (
    <div className="card-panel__body">
      {board && <StatusStepper card={card} statuses={board.statuses} />}
      <CardFieldsForm card={card} stages={board?.stages ?? []} />
      <CardWorkSection card={card} />
      {board && <CardLinksSection card={card} labels={board.labels} />}
      {board && <CustomFieldsSection card={card} definitions={board.custom_fields} />}
      <ChecklistsSection card={card} templates={board?.checklists ?? []} />
      <CommentsSection card={card} />
      <AttachmentsSection card={card} />
      <RelationsSection card={card} />
      <TimeEntriesSection card={card} />
      <SplitCardSection card={card} />
      <DeleteCardSection card={card} />
    </div>
  );
}

/** The collection's warnings come from the API: shown in the planner's language, dates as the screen's. */
function CollectionWarnings({ warnings }: { warnings: unknown[] }) {
  const t = useT();
  const texts = warnings.map((warning) => warningText(warning, t));
  if (texts.length === 0) return null;
  return (
    <div className="notice notice--warning card-panel__warnings" role="note" aria-label={t('card.panel.warnings')}>
      <ul>
        {texts.map((text) => (
          <li key={text}>{text}</li>
        ))}
      </ul>
    </div>
  );
}

/** Where focus goes when the panel closes and its opener is gone: the grid holding the card. */
function focusTargetOfCard(cardId: string | null): HTMLElement | null {
  if (!cardId) return null;
  const card = document.querySelector<HTMLElement>(`[data-card-id="${CSS.escape(cardId)}"]`);
  return card?.closest<HTMLElement>('[tabindex]') ?? null;
}
