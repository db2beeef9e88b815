/**
 * The desktop menu's commands that open a screen: "New collection" opens the planboard's
 * backlog with its new-collection form, "Export time report" the Time screen's export dialog,
 * "Settings" the Settings screen. (Undo and redo belong to the planboard, which listens for
 * them itself.) The browser host has no menu: nothing to do.
 */
import { useEffect } from 'react';
import type { MenuCommand } from '../../shared/ipc.js';
import { usePlanboardStore } from '../state/planboard.js';
import { useUiStore } from '../state/ui.js';
import { useTimeScreen } from '../views/time/time-screen-state.js';

export function runMenuCommand(command: MenuCommand): void {
  if (command === 'new-collection') {
    useUiStore.getState().showView('planboard');
    usePlanboardStore.getState().requestNewCollection();
  } else if (command === 'export-time-report') {
    useUiStore.getState().showView('time');
    useTimeScreen.getState().openExport();
  } else if (command === 'open-settings') {
    useUiStore.getState().showView('settings');
  }
}

export function useShellMenu(): void {
  useEffect(() => {
    const bridge = window.planner;
    if (!bridge || typeof bridge.onMenuCommand !== 'function') return;
    return bridge.onMenuCommand(runMenuCommand);
  }, []);
}
