/**
 * The desktop menu's commands that open a screen: "New collection" opens the planboard's
 * backlog with its new-collection form, "Export time report" the Time screen's export dialog,
 * "Settings" the Settings screen, "Print the plan" the planboard's print dialog. Undo and redo in a text field undo the typing, on any
 * screen: the Edit menu's shortcut reaches the page as a menu command, not as the key, so
 * without this Cmd+Z would do nothing in a form on macOS. Elsewhere they are the planboard's
 * (it listens for them itself).
 *
 * The browser host has no menu, so its page answers the one menu key a planner expects there
 * that the browser would otherwise take for itself: Ctrl+P (Cmd+P) prints the plan, not the
 * screen. Its other menu keys stay the browser's (Ctrl+N, Ctrl+E) or are the planboard's.
 */
import { useEffect } from 'react';
import type { MenuCommand } from '../../shared/ipc.js';
import { isTextInput } from './text-input.js';
import { usePlanboardStore } from '../state/planboard.js';
import { useUiStore } from '../state/ui.js';
import { useTimeScreen } from '../views/time/time-screen-state.js';
import { usePrintPlan } from '../views/planboard/print-plan-state.js';

export function runMenuCommand(command: MenuCommand): void {
  if (command === 'new-collection') {
    useUiStore.getState().showView('planboard');
    usePlanboardStore.getState().requestNewCollection();
  } else if (command === 'export-time-report') {
    useUiStore.getState().showView('time');
    useTimeScreen.getState().openExport();
  } else if (command === 'print-plan') {
    useUiStore.getState().showView('planboard');
    usePrintPlan.getState().setOpen(true);
  } else if (command === 'open-settings') {
    useUiStore.getState().showView('settings');
  } else if ((command === 'undo' || command === 'redo') && isTextInput(document.activeElement)) {
    // Deprecated, but still the one way to reach an input's own undo history.
    document.execCommand(command);
  }
}

export function useShellMenu(): void {
  useEffect(() => {
    const bridge = window.planner;
    if (bridge && typeof bridge.onMenuCommand === 'function') return bridge.onMenuCommand(runMenuCommand);
    function onKeyDown(event: KeyboardEvent) {
      const ctrl = event.ctrlKey || event.metaKey;
      if (!ctrl || event.altKey || event.shiftKey || event.key.toLowerCase() !== 'p') return;
      event.preventDefault();
      runMenuCommand('print-plan');
    }
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, []);
}
