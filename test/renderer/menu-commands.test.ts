/**
 * What the desktop menu's commands do in the renderer (renderer/components/use-shell-menu.ts):
 * each opens its screen and the part of it the command names.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { runMenuCommand } from '../../renderer/components/use-shell-menu.js';
import { usePlanboardStore } from '../../renderer/state/planboard.js';
import { useUiStore } from '../../renderer/state/ui.js';
import { useTimeScreen } from '../../renderer/views/time/time-screen-state.js';
import { usePrintPlan } from '../../renderer/views/planboard/print-plan-state.js';

beforeEach(() => {
  useUiStore.getState().showView('orders');
  usePlanboardStore.getState().setBacklogOpen(false);
  usePlanboardStore.getState().newCollectionShown();
});

describe('menu commands', () => {
  it('New collection opens the planboard with its backlog and asks for the new-collection form', () => {
    runMenuCommand('new-collection');
    expect(useUiStore.getState().view).toBe('planboard');
    expect(usePlanboardStore.getState().backlogOpen).toBe(true);
    expect(usePlanboardStore.getState().newCollectionRequested).toBe(true);
    // The backlog takes the request once.
    usePlanboardStore.getState().newCollectionShown();
    expect(usePlanboardStore.getState().newCollectionRequested).toBe(false);
  });

  it('Export time report opens the Time screen’s export dialog; Settings the settings', () => {
    runMenuCommand('export-time-report');
    expect(useUiStore.getState().view).toBe('time');
    expect(useTimeScreen.getState()).toMatchObject({ exportOpen: true });
    runMenuCommand('open-settings');
    expect(useUiStore.getState().view).toBe('settings');
    expect(usePlanboardStore.getState().newCollectionRequested).toBe(false);
  });

  it('Print the plan opens the planboard with its print dialog', () => {
    usePrintPlan.getState().setOpen(false);
    runMenuCommand('print-plan');
    expect(useUiStore.getState().view).toBe('planboard');
    expect(usePrintPlan.getState().open).toBe(true);
  });
});
