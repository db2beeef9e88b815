/** Zoom, Today, what shows beside the grid, undo and redo, and the shortcut list. */
import type { RefObject } from 'react';
import { useT } from '../../i18n/index.js';
import { usePlanboardStore } from '../../state/planboard.js';
import { useUndoState } from '../../state/undo.js';
import { zooms } from './date-geometry.js';
import type { GridHandle } from './PlanboardGrid.js';
import type { PlanboardActions } from './use-planboard-actions.js';
import { PlanReadingTools } from './PlanReadingTools.js';

const zoomNames = { day: 'planboard.zoom.day', week: 'planboard.zoom.week', month: 'planboard.zoom.month' } as const;

interface PlanboardToolbarProps {
  grid: RefObject<GridHandle | null>;
  today: string;
  actions: PlanboardActions;
}

export function PlanboardToolbar({ grid, today, actions }: PlanboardToolbarProps) {
  const t = useT();
  const zoom = usePlanboardStore((state) => state.zoom);
  const setZoom = usePlanboardStore((state) => state.setZoom);
  const showCapacity = usePlanboardStore((state) => state.showCapacity);
  const setShowCapacity = usePlanboardStore((state) => state.setShowCapacity);
  const backlogOpen = usePlanboardStore((state) => state.backlogOpen);
  const setBacklogOpen = usePlanboardStore((state) => state.setBacklogOpen);
  const helpOpen = usePlanboardStore((state) => state.selection.helpOpen);
  const setHelpOpen = usePlanboardStore((state) => state.setHelpOpen);
  const rowsBy = usePlanboardStore((state) => state.rowsBy);
  const setRowsBy = usePlanboardStore((state) => state.setRowsBy);
  const undo = useUndoState();

  return (
    <div className="pb-toolbar">
      <div className="segmented" role="group" aria-label={t('planboard.zoom')}>
        {zooms.map((name) => (
          <button key={name} type="button" className="segmented__button" aria-pressed={zoom === name} onClick={() => setZoom(name)}>
            {t(zoomNames[name])}
          </button>
        ))}
      </div>
      <div className="segmented" role="group" aria-label={t('planboard.rowsBy')}>
        {(['stage', 'resource'] as const).map((name) => (
          <button key={name} type="button" className="segmented__button" aria-pressed={rowsBy === name} onClick={() => setRowsBy(name)}>
            {t(name === 'stage' ? 'planboard.rowsBy.stage' : 'planboard.rowsBy.resource')}
          </button>
        ))}
      </div>
      <button type="button" className="button" onClick={() => grid.current?.scrollToDate(today)}>
        {t('planboard.today')}
      </button>
      <label className="pb-toggle">
        <input type="checkbox" checked={backlogOpen} onChange={(event) => setBacklogOpen(event.target.checked)} />
        {t('planboard.showBacklog')}
      </label>
      <label className="pb-toggle">
        <input type="checkbox" checked={showCapacity} onChange={(event) => setShowCapacity(event.target.checked)} />
        {t('planboard.showCapacity')}
      </label>
      <PlanReadingTools />
      <span className="pb-toolbar__spacer" />
      <button
        type="button"
        className="button"
        disabled={!undo.canUndo}
        onClick={() => void actions.undo()}
        title={undo.undoDescription ? t('planboard.undoTitle', { action: undo.undoDescription }) : t('planboard.undoNothingTitle')}
      >
        {t('planboard.undo')}
      </button>
      <button
        type="button"
        className="button"
        disabled={!undo.canRedo}
        onClick={() => void actions.redo()}
        title={undo.redoDescription ? t('planboard.redoTitle', { action: undo.redoDescription }) : t('planboard.redoNothingTitle')}
      >
        {t('planboard.redo')}
      </button>
      <button
        type="button"
        className="button"
        aria-pressed={helpOpen}
        onClick={() => setHelpOpen(!helpOpen)}
        title={t('planboard.shortcutsTitle')}
      >
        {t('planboard.shortcuts')}
      </button>
    </div>
  );
}
