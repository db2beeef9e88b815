/**
 * Where a resource works: per board, the stages it works on and the share of its hours each
 * one gets. Ticking a stage starts it at the stage's default percentage.
 */
import { useId } from 'react';
import { Hidden } from '../../components/Field.js';
import { FieldError } from '../../components/FieldError.js';
import { useT } from '../../i18n/index.js';
import { byPriority } from '../boards/board-with-parts.js';
import type { BoardWithStages, StageAssignment } from './resource-draft.js';

interface ResourceStagesFieldsProps {
  boards: readonly BoardWithStages[];
  assignments: StageAssignment[];
  onChange: (assignments: StageAssignment[]) => void;
  error: string | undefined;
}

export function ResourceStagesFields({ boards, assignments, onChange, error }: ResourceStagesFieldsProps) {
  const errorId = useId();
  const t = useT();
  const find = (boardId: string, stageId: string) => assignments.find((a) => a.boardId === boardId && a.stageId === stageId);
  const without = (boardId: string, stageId: string) => assignments.filter((a) => a.boardId !== boardId || a.stageId !== stageId);

  return (
    <fieldset className="stage-assignments form-grid__wide" aria-describedby={error ? errorId : undefined}>
      <legend>{t('resources.worksOn')}</legend>
      {boards.length === 0 && <p className="muted">{t('resources.noBoards')}</p>}
      {boards.map((board) => (
        <fieldset key={board.id} className="stage-assignments__board">
          <legend>{board.name}</legend>
          {board.stages.length === 0 && <p className="muted">{t('resources.noStages')}</p>}
          {byPriority(board.stages).map((stage) => {
            const assigned = find(board.id, stage.id);
            const checkboxId = `${errorId}-${stage.id}`;
            return (
              <div key={stage.id} className="stage-assignment">
                <input
                  id={checkboxId}
                  type="checkbox"
                  checked={assigned !== undefined}
                  onChange={(event) =>
                    onChange(
                      event.target.checked
                        ? [
                            ...assignments,
                            { boardId: board.id, stageId: stage.id, percentage: String(stage.default_percentage), active: true },
                          ]
                        : without(board.id, stage.id),
                    )
                  }
                />
                <label htmlFor={checkboxId}>{stage.name}</label>
                {assigned && (
                  <label className="stage-assignment__percentage">
                    <Hidden>{t('resources.stagePercentage', { stage: stage.name })}</Hidden>
                    <input
                      type="number"
                      min={0}
                      max={100}
                      step={1}
                      value={assigned.percentage}
                      onChange={(event) =>
                        onChange(assignments.map((a) => (a === assigned ? { ...a, percentage: event.target.value } : a)))
                      }
                    />
                    <span aria-hidden="true">%</span>
                  </label>
                )}
              </div>
            );
          })}
        </fieldset>
      ))}
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}
