/**
 * The Planboard screen: pick a board, create one or open its setup, try a change in a scenario
 * (views/scenarios/), and plan on it — the grid of stages × days with the backlog, capacity and
 * card details (views/planboard/). The picker and the setup panel are UI state in the store.
 */
import { useState } from 'react';
import { ErrorNotice } from '../components/ErrorNotice.js';
import { useT } from '../i18n/index.js';
import { useUiStore } from '../state/ui.js';
import { BoardPicker } from './boards/BoardPicker.js';
import { BoardSetupForm } from './boards/BoardSetupForm.js';
import { newBoardDraft } from './boards/board-draft.js';
import { EditBoardSetup } from './boards/EditBoardSetup.js';
import { usePickedBoard } from './boards/picked-board.js';
import { Planboard } from './planboard/Planboard.js';
import { ScenariosDialog } from './scenarios/ScenariosDialog.js';
import '../styles/planboard.css';

export function PlanboardView() {
  const t = useT();
  const { board, boards } = usePickedBoard();
  const setup = useUiStore((state) => state.boardSetup);
  const openBoardSetup = useUiStore((state) => state.openBoardSetup);
  const closeBoardSetup = useUiStore((state) => state.closeBoardSetup);
  const pickBoard = useUiStore((state) => state.pickBoard);
  const [scenariosOpen, setScenariosOpen] = useState(false);

  if (setup === 'new') {
    return (
      <section className="view view--wide">
        <BoardSetupForm
          initial={newBoardDraft()}
          onSaved={(id) => {
            pickBoard(id);
            closeBoardSetup();
          }}
          onCancel={closeBoardSetup}
        />
      </section>
    );
  }
  if (setup === 'picked' && board) {
    return (
      <section className="view view--wide">
        <EditBoardSetup boardId={board.id} onDone={closeBoardSetup} />
      </section>
    );
  }

  return (
    <section className="planboard" aria-labelledby="planboard-title">
      <div className="view__header view__header--toolbar planboard__header">
        <h1 id="planboard-title" className="view__title">
          {t('planboard.title')}
        </h1>
        <BoardPicker />
        <button type="button" className="button" onClick={() => openBoardSetup('new')}>
          {t('planboard.newBoard')}
        </button>
        {board && (
          <button type="button" className="button" onClick={() => openBoardSetup('picked')}>
            {t('planboard.boardSetup')}
          </button>
        )}
        <button type="button" className="button" aria-haspopup="dialog" onClick={() => setScenariosOpen(true)}>
          {t('scenarios.menu')}
        </button>
        {scenariosOpen && <ScenariosDialog onClose={() => setScenariosOpen(false)} />}
      </div>
      {boards.isError && <ErrorNotice error={boards.error} onRetry={() => void boards.refetch()} />}
      {board ? (
        <Planboard key={board.id} boardId={board.id} />
      ) : boards.data ? (
        <p className="empty-state">{t('planboard.noBoards')}</p>
      ) : (
        !boards.isError && (
          <p className="loading" role="status">
            {t('planboard.loadingBoards')}
          </p>
        )
      )}
    </section>
  );
}
