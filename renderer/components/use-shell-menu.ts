/**
 * The desktop menu's commands that open a screen: "Export time report" opens the Time
 * screen's export dialog, "Settings" the Settings screen. (Undo and redo belong to the
 * planboard, which listens for them itself.) The browser host has no menu: nothing to do.
 */
import { useEffect } from 'react';
import { useUiStore } from '../state/ui.js';
import { useTimeScreen } from '../views/time/time-screen-state.js';

export function useShellMenu(): void {
  useEffect(() => {
    const bridge = window.planner;
    if (!bridge || typeof bridge.onMenuCommand !== 'function') return;
    return bridge.onMenuCommand((command) => {
      if (command === 'export-time-report') {
        useUiStore.getState().showView('time');
        useTimeScreen.getState().openExport();
      } else if (command === 'open-settings') {
        useUiStore.getState().showView('settings');
      }
    });
  }, []);
}
