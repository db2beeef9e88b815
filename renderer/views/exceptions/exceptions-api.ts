/**
 * The exception inbox in the app (docs/API.md "Exceptions"): the list, the one-click fixes and
 * the planner's handling (snooze, seen). The list lives under `exceptionsKey`, which every
 * change event refreshes (api/hooks.ts), so it follows writes made anywhere and every sync; a
 * fix made here refreshes it at once as well, and what it changed.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { create } from 'zustand';
import { addDays, today } from '../../../shared/dates.js';
import { defaultHorizonWorkdays, maxHorizonWorkdays, type ExceptionItem, type ExceptionList } from '../../../shared/exceptions.js';
import { addOvertimeOperation, setTimeStatusOperation } from '../../../shared/operations/commands.js';
import type { WhatItTakes } from '../../../shared/why-late.js';
import { undoManager } from '../../state/undo.js';
import type { WhyLateList } from '../../../shared/why-late.js';
import { send } from '../../api/client.js';
import { runCommand } from '../../api/commands.js';
import { exceptionsKey } from '../../api/hooks.js';
import { apiPath } from '../../api/paths.js';
import { useApi } from '../../api/provider.js';

const storageKey = 'planner.exceptions.horizon';

function storedHorizon(): number {
  try {
    const value = Number(globalThis.localStorage?.getItem(storageKey));
    return Number.isInteger(value) && value >= 1 && value <= maxHorizonWorkdays ? value : defaultHorizonWorkdays;
  } catch {
    return defaultHorizonWorkdays;
  }
}

/** The planner's setting: how many workdays ahead the inbox looks (default 10), kept on this computer. */
export const useExceptionHorizon = create<{ horizon: number; setHorizon(horizon: number): void }>()((set) => ({
  horizon: storedHorizon(),
  setHorizon: (horizon) => {
    const clamped = Math.min(maxHorizonWorkdays, Math.max(1, Math.round(horizon) || defaultHorizonWorkdays));
    try {
      globalThis.localStorage?.setItem(storageKey, String(clamped));
    } catch {
      // No storage: the setting holds until the window closes.
    }
    set({ horizon: clamped });
  },
}));

/** The inbox for the app's user: what they snoozed or saw is left out. */
export function useExceptions() {
  const { transport } = useApi();
  const horizon = useExceptionHorizon((state) => state.horizon);
  return useQuery({
    queryKey: [...exceptionsKey, horizon],
    queryFn: () => send<ExceptionList>(transport, { method: 'GET', path: '/v1/exception', query: { horizon_workdays: String(horizon) } }),
  });
}

/**
 * Why each late collection is late, and the bottlenecks (docs/API.md "Why late"): refreshed with
 * the inbox, and read only while the inbox lists a late collection.
 */
export function useWhyLate(enabled: boolean) {
  const { transport } = useApi();
  return useQuery({
    queryKey: [...exceptionsKey, 'why_late'],
    queryFn: () => send<WhyLateList>(transport, { method: 'GET', path: '/v1/why_late' }),
    enabled,
  });
}

/**
 * "What would it take?" taken up: the overtime added as one command, which the app's undo takes
 * back; the inbox, the capacity and the resources' schedules refresh.
 */
export function useAddOvertime() {
  const { transport } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ takes, description }: { takes: WhatItTakes; description: string }) =>
      undoManager.performCommand(async () => {
        const overtime = takes.overtime.map(({ resource_id, date, minutes }) => ({ resource_id, date, minutes }));
        return (await runCommand(transport, addOvertimeOperation, { overtime }, description)).command_id;
      }, description),
    onSettled: () => queryClient.invalidateQueries(),
  });
}

/** The resources a fix writes, refreshed with the inbox (the time screen, the planboard). */
const writtenBy: Record<string, readonly string[]> = {
  stop_timer: ['time_tracking', 'card'],
  approve: ['time_tracking'],
  handle: ['exception_handling'],
};

export type Fix =
  | { kind: 'stop_timer'; item: ExceptionItem }
  | { kind: 'approve'; item: ExceptionItem }
  | { kind: 'snooze'; item: ExceptionItem; days: number }
  | { kind: 'seen'; item: ExceptionItem };

/** One click on an item: stop its timer, approve its entry, snooze it or mark it seen. */
export function useFix() {
  const { transport } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (fix: Fix) => {
      const { item } = fix;
      if (fix.kind === 'stop_timer') {
        await send(transport, { method: 'POST', path: apiPath`/v1/time_tracking/${item.record.id}/stop`, body: {} });
        return;
      }
      if (fix.kind === 'approve') {
        await runCommand(transport, setTimeStatusOperation, { entries: [item.record.id], status: 'approved' });
        return;
      }
      const handling = fix.kind === 'seen' ? { seen: true } : { snoozed_until: addDays(today(), fix.days) };
      if (item.handling) {
        await send(transport, { method: 'PUT', path: apiPath`/v1/exception_handling/${item.handling.id}`, body: handling });
      } else {
        await send(transport, { method: 'POST', path: '/v1/exception_handling', body: { exception_key: item.key, ...handling } });
      }
    },
    onSuccess: (_nothing, fix) => {
      const written = writtenBy[fix.kind === 'snooze' || fix.kind === 'seen' ? 'handle' : fix.kind] ?? [];
      return Promise.all([
        queryClient.invalidateQueries({ queryKey: exceptionsKey }),
        ...written.map((resource) => queryClient.invalidateQueries({ queryKey: [resource] })),
      ]);
    },
  });
}
