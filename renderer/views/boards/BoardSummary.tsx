/**
 * What a board is set up with: its stages in order, its statuses and labels. It stands where
 * the planboard grid will be, so a planner can see their setup took.
 */
import { boardColorHex } from '../../components/board-colors.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { byPriority, useBoardWithParts, type StageWithActivities } from './board-with-parts.js';

export function BoardSummary({ boardId }: { boardId: string }) {
  const board = useBoardWithParts(boardId);
  if (board.isError) return <ErrorNotice error={board.error} onRetry={() => void board.refetch()} />;
  if (!board.data) {
    return (
      <p className="loading" role="status">
        Loading the board…
      </p>
    );
  }
  const { stages, statuses, labels } = board.data;
  return (
    <div className="board-summary">
      {stages.length === 0 ? (
        <p className="muted">This board has no stages yet. Open Board setup to add them.</p>
      ) : (
        <ol className="board-summary__stages" aria-label="Stages">
          {byPriority(stages).map((stage) => (
            <li key={stage.id}>
              <span className="board-summary__stage-name">{stage.name}</span>
              <span className="muted">{stageNotes(stage)}</span>
            </li>
          ))}
        </ol>
      )}
      {statuses.length > 0 && (
        <ul className="chip-list" aria-label="Statuses">
          {byPriority(statuses).map((status) => (
            <li key={status.id} className="chip">
              <span className="swatch" style={{ background: boardColorHex[status.color] }} aria-hidden="true" />
              {status.name}
              {status.entry && <span className="muted"> (entry)</span>}
              {status.exit && <span className="muted"> (exit)</span>}
            </li>
          ))}
        </ul>
      )}
      {labels.length > 0 && (
        <ul className="chip-list" aria-label="Labels">
          {byPriority(labels).map((label) => (
            <li key={label.id} className="chip">
              <span className="swatch" style={{ background: boardColorHex[label.color] }} aria-hidden="true" />
              {label.name}
            </li>
          ))}
        </ul>
      )}
      <p className="muted">The planboard grid — stages by days, with cards — comes in a later version.</p>
    </div>
  );
}

function stageNotes(stage: StageWithActivities): string {
  const notes: string[] = [];
  if (stage.delay_day > 0) notes.push(stage.delay_day === 1 ? '1 day delay' : `${stage.delay_day} days delay`);
  if (stage.independent) notes.push('independent');
  if (stage.activities.length > 0) notes.push(stage.activities.map((activity) => activity.description).join(', '));
  return notes.length > 0 ? ` — ${notes.join('; ')}` : '';
}
