/** The setup form on an existing board, opened once the board and all its parts are loaded. */
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import { boardDraftFrom } from './board-draft.js';
import { useBoardWithParts } from './board-with-parts.js';
import { BoardSetupForm } from './BoardSetupForm.js';
import { AutomationRules } from './AutomationRules.js';

interface EditBoardSetupProps {
  boardId: string;
  onDone: () => void;
}

export function EditBoardSetup({ boardId, onDone }: EditBoardSetupProps) {
  const board = useBoardWithParts(boardId);
  const t = useT();
  if (board.data) {
    // The draft is taken once: changes arriving while the planner edits must not undo theirs.
    return (
      <>
        <BoardSetupForm key={boardId} initial={boardDraftFrom(board.data)} onSaved={onDone} onCancel={onDone} />
        <AutomationRules boardId={boardId} statuses={board.data.statuses} />
      </>
    );
  }
  if (board.isError) return <ErrorNotice error={board.error} onRetry={() => void board.refetch()} />;
  return (
    <p className="loading" role="status">
      {t('boards.loadingBoard')}
    </p>
  );
}
