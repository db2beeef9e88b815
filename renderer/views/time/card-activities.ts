/**
 * Which activity time on a card is for (issue 17, "Defaults"): the card's own activities, else
 * its stage's. With one, that one, so timer and sheet entries carry its rate into the reports;
 * with several, the planner picks; with none, the entry has no activity. Pure
 * (test/renderer/card-activities.test.ts).
 */
import type { ActivitySummary, CardSummary } from './time-api.js';

export type ActivityDefault =
  { kind: 'one'; activity: ActivitySummary } | { kind: 'choose'; activities: ActivitySummary[] } | { kind: 'none' };

export function activitiesOf(card: Pick<CardSummary, 'activities' | 'stage'>): ActivitySummary[] {
  const own = card.activities ?? [];
  return own.length > 0 ? own : (card.stage?.activities ?? []);
}

export function activityDefault(card: Pick<CardSummary, 'activities' | 'stage'>): ActivityDefault {
  const activities = activitiesOf(card);
  if (activities.length === 0) return { kind: 'none' };
  if (activities.length === 1) return { kind: 'one', activity: activities[0]! };
  return { kind: 'choose', activities };
}
