/**
 * The work planned on a board: for each card, its stage, its resources, the resource type of
 * its activities, its workdays within a range and its minutes per day. Capacity sums these.
 *
 * Cards do not exist yet (they arrive with collection planning), so there is no planned work
 * and capacity reports 0 planned minutes, as documented.
 */
import type { StoredRecord } from '../../store/environment-store.js';
import type { RequestContext } from '../resource.js';

export interface PlannedWork {
  stageId: string;
  resourceIds: string[];
  resourceType: string;
  /** The card's workdays inside the requested range. */
  dates: string[];
  minutesPerDay: number;
}

export function plannedWork(
  _ctx: RequestContext,
  _board: StoredRecord,
  _start: string,
  _end: string,
  _remainingOnly: boolean,
): PlannedWork[] {
  return [];
}
