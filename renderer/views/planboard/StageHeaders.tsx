/**
 * The stage names down the left of the grid, one per row and as tall as it. A stage's notes
 * (delay, independent, the activities it allows) follow its name, as the board setup made it.
 */
import { memo } from 'react';
import { useT, type Translate } from '../../i18n/index.js';
import type { StageWithActivities } from '../boards/board-with-parts.js';

interface StageHeadersProps {
  stages: readonly StageWithActivities[];
  heights: readonly number[];
}

export const StageHeaders = memo(function StageHeaders({ stages, heights }: StageHeadersProps) {
  const t = useT();
  return (
    <ol className="pb-stages" aria-label={t('planboard.stages')}>
      {stages.map((stage, index) => {
        const notes = stageNotes(stage, t);
        return (
          <li
            key={stage.id}
            className="pb-stage"
            data-stage-id={stage.id}
            style={{ height: heights[index] }}
            title={notes ? `${stage.name} — ${notes}` : stage.name}
          >
            <span className="pb-stage__name">{stage.name}</span>
            {notes && <span className="pb-stage__notes"> — {notes}</span>}
          </li>
        );
      })}
    </ol>
  );
});

export function stageNotes(stage: StageWithActivities, t: Translate): string {
  const notes: string[] = [];
  if (stage.delay_day > 0) notes.push(t.count('planboard.stage.delay', stage.delay_day));
  if (stage.independent) notes.push(t('planboard.stage.independent'));
  if (stage.activities.length > 0) notes.push(stage.activities.map((activity) => activity.description).join(', '));
  return notes.join('; ');
}
