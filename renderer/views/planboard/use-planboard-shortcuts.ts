/**
 * The planboard's keys outside the grid: undo and redo, N for a new collection, the shortcut list and Esc work wherever
 * focus is on the planboard — except in a text field, where Ctrl+Z undoes the typing. The
 * grid handles its own keys first (and stops them), so nothing acts twice. In the Electron
 * window the Edit menu's Undo and Redo arrive as menu commands and do the same.
 */
import { useEffect } from 'react';
import { isTextInput } from '../../components/text-input.js';
import { useCardPanel } from '../../state/card-panel.js';
import { usePlanboardStore } from '../../state/planboard.js';
import type { PlanboardActions } from './use-planboard-actions.js';

export function usePlanboardShortcuts(actions: PlanboardActions): void {
  useEffect(() => {
    function onKeyDown(event: KeyboardEvent) {
      if (event.defaultPrevented || isTextInput(event.target)) return;
      const ctrl = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      if (ctrl && !event.altKey && (key === 'z' || key === 'y')) {
        event.preventDefault();
        void (key === 'y' || event.shiftKey ? actions.redo() : actions.undo());
      } else if (key === 'n' && !ctrl && !event.altKey && !event.shiftKey) {
        // The File menu's "New collection" (Ctrl+N there; a browser keeps Ctrl+N for itself).
        event.preventDefault();
        usePlanboardStore.getState().requestNewCollection();
      } else if (event.key === '?' && !ctrl) {
        event.preventDefault();
        const store = usePlanboardStore.getState();
        store.setHelpOpen(!store.selection.helpOpen);
      } else if (event.key === 'Escape') {
        const store = usePlanboardStore.getState();
        if (store.selection.helpOpen) store.setHelpOpen(false);
        else if (useCardPanel.getState().openCardId) useCardPanel.getState().close();
      }
    }
    window.addEventListener('keydown', onKeyDown);
    const offMenu = window.planner?.onMenuCommand?.((command) => {
      // In a text field the menu's Undo is the field's own (runMenuCommand does that).
      if ((command !== 'undo' && command !== 'redo') || isTextInput(document.activeElement)) return;
      void (command === 'undo' ? actions.undo() : actions.redo());
    });
    return () => {
      window.removeEventListener('keydown', onKeyDown);
      offMenu?.();
    };
  }, [actions]);
}
