/** Zoom, Today, what shows beside the grid, undo and redo, and the shortcut list. */
import type { RefObject } from 'react';
import { usePlanboardStore } from '../../state/planboard.js';
import { useUndoState } from '../../state/undo.js';
import { zooms } from './date-geometry.js';
import type { GridHandle } from './PlanboardGrid.js';
import type { PlanboardActions } from './use-planboard-actions.js';

const zoomNames = { day: 'Day', week: 'Week', month: 'Month' } as const;

interface PlanboardToolbarProps {
  grid: RefObject<GridHandle | null>;
  today: string;
  actions: PlanboardActions;
}

export function PlanboardToolbar({ grid, today, actions }: PlanboardToolbarProps) {
  const zoom = usePlanboardStore((state) => state.zoom);
  const setZoom = usePlanboardStore((state) => state.setZoom);
  const showCapacity = usePlanboardStore((state) => state.showCapacity);
  const setShowCapacity = usePlanboardStore((state) => state.setShowCapacity);
  const backlogOpen = usePlanboardStore((state) => state.backlogOpen);
  const setBacklogOpen = usePlanboardStore((state) => state.setBacklogOpen);
  const helpOpen = usePlanboardStore((state) => state.selection.helpOpen);
  const setHelpOpen = usePlanboardStore((state) => state.setHelpOpen);
  const undo = useUndoState();

  return (
    <div className="pb-toolbar">
      <div className="segmented" role="group" aria-label="Zoom">
        {zooms.map((name) => (
          <button key={name} type="button" className="segmented__button" aria-pressed={zoom === name} onClick={() => setZoom(name)}>
            {zoomNames[name]}
          </button>
        ))}
      </div>
      <button type="button" className="button" onClick={() => grid.current?.scrollToDate(today)}>
        Today
      </button>
      <label className="pb-toggle">
        <input type="checkbox" checked={backlogOpen} onChange={(event) => setBacklogOpen(event.target.checked)} />
        Backlog
      </label>
      <label className="pb-toggle">
        <input type="checkbox" checked={showCapacity} onChange={(event) => setShowCapacity(event.target.checked)} />
        Capacity
      </label>
      <span className="pb-toolbar__spacer" />
      <button
        type="button"
        className="button"
        disabled={!undo.canUndo}
        onClick={() => void actions.undo()}
        title={undo.undoDescription ? `Undo: ${undo.undoDescription} (Ctrl+Z)` : 'Nothing to undo'}
      >
        Undo
      </button>
      <button
        type="button"
        className="button"
        disabled={!undo.canRedo}
        onClick={() => void actions.redo()}
        title={undo.redoDescription ? `Redo: ${undo.redoDescription} (Ctrl+Shift+Z)` : 'Nothing to redo'}
      >
        Redo
      </button>
      <button type="button" className="button" aria-pressed={helpOpen} onClick={() => setHelpOpen(!helpOpen)} title="Keyboard shortcuts (?)">
        Shortcuts
      </button>
    </div>
  );
}
