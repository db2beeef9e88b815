/**
 * The reads several screens share. One constant per read means React Query fetches it once
 * and every screen showing it refreshes together.
 */
import type { ListQuery, RecordQuery } from './client.js';
import { maxLimit } from '../../shared/list.js';

// Boards, activities and resources are base data: a planner's lists of them are short
// enough to show whole, one page of the largest size.
export const boardListQuery: ListQuery = { sort: 'name:asc', limit: maxLimit };

/** Boards with their stages in order: what a resource can be assigned to. */
export const boardStagesListQuery: ListQuery = { sort: 'name:asc', limit: maxLimit, with: 'stages' };

export const activityListQuery: ListQuery = { sort: 'description:asc', limit: maxLimit };

export const resourceListQuery: ListQuery = { sort: 'name:asc', limit: maxLimit };

/** A board with everything its setup form edits. */
export const boardPartsQuery: RecordQuery = { with: 'stages.activities,statuses,labels' };
