/**
 * The scenario the planner works in (docs/API.md "Scenarios"), or none: the live plan. Every
 * request the app makes while one is open carries it (renderer/api/scenario-transport.ts), so
 * every screen shows and changes the scenario's copy of the plan and nothing else. It is not
 * kept across a restart: the app always opens on the live plan, where a planner expects to be.
 */
import { create } from 'zustand';

export interface OpenScenario {
  id: string;
  name: string;
}

interface ScenarioState {
  /** Null on the live plan. */
  current: OpenScenario | null;
  open(scenario: OpenScenario): void;
  /** Back to the live plan. */
  leave(): void;
}

export const useScenarioStore = create<ScenarioState>()((set) => ({
  current: null,
  open: (scenario) => set({ current: scenario }),
  leave: () => set({ current: null }),
}));
