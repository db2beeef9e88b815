/**
 * A board as its setup form and summary read it: with its stages in order (each with the
 * activities it allows), its statuses and its labels, in one request.
 */
import { useRecord } from '../../api/hooks.js';
import { boardPartsQuery } from '../../api/queries.js';
import type { Activity } from '../../../shared/resources/activity.js';
import type { Board, Label, Status } from '../../../shared/resources/board.js';
import type { Stage } from '../../../shared/resources/stage.js';

/** An activity as a stage lists it: `priority` is its place in that stage's list. */
export type StageActivity = Activity & { priority: number };

export type StageWithActivities = Omit<Stage, 'activities'> & { activities: StageActivity[] };

export type BoardWithParts = Omit<Board, 'stages' | 'statuses' | 'labels'> & {
  stages: StageWithActivities[];
  statuses: Status[];
  labels: Label[];
};

export function useBoardWithParts(id: string) {
  return useRecord<'board', BoardWithParts>('board', id, boardPartsQuery);
}

/** Items in the order the board gives them (`priority`, 0 first); ties keep creation order. */
export function byPriority<T extends { priority: number }>(items: readonly T[]): T[] {
  return [...items].sort((a, b) => a.priority - b.priority);
}
