/**
 * The records the time filters pick from: users, boards and activities, each one page of the
 * largest size, as the other pickers in the app. Collections are searched (CollectionPicker).
 */
import { useList } from '../../api/hooks.js';
import { activityListQuery, boardListQuery } from '../../api/queries.js';
import { maxLimit } from '../../../shared/list.js';

export interface Choice {
  id: string;
  name: string;
}

export function useUserChoices(): Choice[] {
  const users = useList('user', { sort: 'email:asc', limit: maxLimit });
  return (users.data?.data ?? []).map((user) => ({ id: user.id, name: user.fullname || user.email }));
}

export function useBoardChoices(): Choice[] {
  const boards = useList('board', boardListQuery);
  return (boards.data?.data ?? []).map((board) => ({ id: board.id, name: board.name }));
}

export function useActivityChoices(): Choice[] {
  const activities = useList('activity', activityListQuery);
  return (activities.data?.data ?? []).map((activity) => ({ id: activity.id, name: activity.description }));
}
