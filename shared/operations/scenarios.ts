/**
 * Plan scenarios (docs/API.md "Scenarios"): a copy of the live plan to try a what-if in, its
 * comparison with the live plan, and its promotion onto it. Declared once for the server's
 * checks, the OpenAPI document and the renderer's client (shared/operation.ts).
 */
import { defineOperation, shape } from '../operation.js';

/** The request header that runs any other route inside a scenario. */
export const scenarioHeader = 'x-planner-scenario';

/** Scenarios one environment keeps at once: each is a copy of its whole file (docs/decisions/scenarios.md). */
export const maxScenarios = 20;

/** A scenario as the routes answer it. */
export interface ScenarioInfo {
  id: string;
  name: string;
  description: string | null;
  /** The live plan's change-log position the scenario was copied at (docs/API.md "Scenarios"). */
  base: number;
  created_at: string;
}

/** Where a card is: its stage and days. */
export interface CardPlace {
  stage_id: string;
  start_date: string | null;
  end_date: string | null;
}

export interface ComparedCard {
  id: string;
  name: string;
  collection_id: string;
  /** In the live plan; null for a card the scenario added. */
  live: CardPlace | null;
  /** In the scenario; null for a card the scenario removed. */
  scenario: CardPlace | null;
}

export interface ComparedCollection {
  id: string;
  name: string;
  due_date: string | null;
  live_end: string | null;
  scenario_end: string | null;
  /** Calendar days the end moved (later is positive); null when either has no end. */
  days: number | null;
}

export interface StageWeekLoad {
  stage_id: string;
  stage_name: string;
  /** The Monday of the ISO week. */
  week: string;
  /** Minutes of card work in that stage and week. */
  live_minutes: number;
  scenario_minutes: number;
}

/** A record changed in both the scenario and the live plan since the fork, on fields where they disagree. */
export interface ScenarioClash {
  resource: string;
  id: string;
  /** In the planner's words: what, where, and the two values. */
  description: string;
  fields: string[];
}

export interface ScenarioComparison {
  scenario: ScenarioInfo;
  cards: { moved: ComparedCard[]; added: ComparedCard[]; removed: ComparedCard[] };
  collections: { end_moved: ComparedCollection[]; become_late: ComparedCollection[]; become_on_time: ComparedCollection[] };
  /** Only the stage weeks whose load differs. */
  load: StageWeekLoad[];
  /** What a promote now would have to be told about (docs/API.md "Scenarios"). */
  clashes: ScenarioClash[];
}

export interface PromoteResult {
  /** The live command that laid the scenario's changes on the plan: one undo step; null when there was nothing to lay. */
  command_id: string | null;
  /** Records written in the live plan. */
  changed: number;
  /** Records whose scenario changes were left out (`leave`). */
  left_out: number;
}

export const resolutions = ['mine', 'theirs', 'leave'] as const;
export type Resolution = (typeof resolutions)[number];

export const createScenarioOperation = defineOperation<ScenarioInfo>()({
  method: 'POST',
  path: '/scenario',
  summary: 'Fork the live plan into a scenario',
  tag: 'Scenarios',
  body: shape.object({
    name: shape.text(255, { min: 1, description: 'Names the scenario (trimmed).' }),
    description: shape.optional(shape.nullable(shape.text(2000, { description: 'What the planner wants to try.' }))),
  }),
  answer: 'The scenario',
  status: 201,
});

export const listScenariosOperation = defineOperation<{ data: ScenarioInfo[] }>()({
  method: 'GET',
  path: '/scenario',
  summary: "The environment's scenarios",
  tag: 'Scenarios',
  body: undefined,
  answer: 'The scenarios, oldest first',
});

export const deleteScenarioOperation = defineOperation<undefined>()({
  method: 'DELETE',
  path: '/scenario/:id',
  summary: 'Throw a scenario away',
  tag: 'Scenarios',
  body: undefined,
  answer: 'Nothing (204)',
  status: 204,
});

export const compareScenarioOperation = defineOperation<ScenarioComparison>()({
  method: 'GET',
  path: '/scenario/:id/compare',
  summary: 'Compare a scenario with the live plan as it is now',
  tag: 'Scenarios',
  body: undefined,
  answer: 'Cards moved, added and removed; collections whose end moved or that become late or on time; load per stage and week',
});

export const promoteScenarioOperation = defineOperation<PromoteResult>()({
  method: 'POST',
  path: '/scenario/:id/promote',
  summary: "Lay a scenario's changes onto the live plan",
  tag: 'Scenarios',
  body: shape.object({
    resolve: shape.optional(shape.object({}, { names: 'any', required: false })),
    description: shape.optional(
      shape.text(200, { min: 1, description: "The live command's description (default: Promote scenario <name>)." }),
    ),
  }),
  answer: 'The live command, and how many records it wrote and left out',
});
