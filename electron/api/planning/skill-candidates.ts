/**
 * Who may do a card, by skill and crew (docs/API.md "Skills and crews"): the stage's people
 * (who-does-it.ts) with every skill the card's activities name, and how many of them it needs
 * at once. Finite and infinite planning ask here; the rules themselves are shared/skills.ts.
 */
import { cardNeeds, missingSkills, type ActivityNeed, type CardNeeds } from '../../../shared/skills.js';
import type { RecordReads } from '../../store/record-store.js';
import { tables } from '../tables.js';
import type { PlanActivity } from './plan.js';

/** A stage's person as planning sees them: with their skills. */
export interface StagePerson {
  id: string;
  name: string;
  skills: readonly string[];
}

/**
 * A card whose stage has fewer people with its skills than its crew: no plan can staff it, so
 * a finite plan is refused (422 on `skill`) rather than searched for three years.
 */
export class CrewError extends Error {}

/** What each activity asks (skill and crew), by id; read once per plan. */
export async function readActivityNeeds(reads: RecordReads, activityIds: readonly string[]): Promise<Map<string, ActivityNeed>> {
  if (activityIds.length === 0) return new Map();
  const activities = await reads.getWhereIn(tables.activity, 'id', [...new Set(activityIds)]);
  return new Map(activities.map((a) => [a.id, { skill: a.skill, crew: a.crew }]));
}

/** A card's needs from its planned activities (none known: no skill, a crew of 1). */
export function needsOf(activities: readonly PlanActivity[], needs: ReadonlyMap<string, ActivityNeed> | undefined): CardNeeds {
  return needs
    ? cardNeeds(
        activities.map((a) => a.id),
        needs,
      )
    : { skills: [], crew: 1 };
}

/** The stage's people who have every skill of `needs`. */
export function qualifiedPeople<P extends StagePerson>(people: readonly P[], needs: CardNeeds): P[] {
  return needs.skills.length === 0 ? [...people] : people.filter((p) => missingSkills(p.skills, needs.skills).length === 0);
}

/** Why a card cannot be staffed: its stage has fewer qualified people than its crew. */
export function crewMessage(stageName: string, needs: CardNeeds, qualified: number): string {
  const skill = needs.skills.length > 0 ? ` with ${needs.skills.map((s) => `"${s}"`).join(' and ')}` : '';
  const people = qualified === 1 ? '1 person' : `${qualified} people`;
  return `stage ${stageName} has ${people}${skill} for a crew of ${needs.crew}`;
}
