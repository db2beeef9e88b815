/**
 * The first-start checklist's steps, in the order that works (each needs the one before):
 * activities, a board with stages, resources, a first order, and planning it. A step is done
 * when the API holds one such record; each is a one-record read, kept current by the change
 * events like every list.
 */
import { useList } from '../../api/hooks.js';
import type { MessageKey } from '../../i18n/index.js';

export type SetupStepName = 'activity' | 'board' | 'resource' | 'order' | 'plan';

export interface SetupStep {
  name: SetupStepName;
  labelKey: MessageKey;
  hintKey: MessageKey;
  done: boolean;
}

export interface SetupProgress {
  /** False until every count has answered: the checklist does not flash on a set-up folder. */
  known: boolean;
  steps: SetupStep[];
  complete: boolean;
}

const one = { limit: 1 };

export function useSetupProgress(): SetupProgress {
  const activities = useList('activity', one);
  const stages = useList('stage', one);
  const resources = useList('resource', one);
  const orders = useList('order', one);
  const planned = useList('collection', { limit: 1, filter: 'status:eq:planned' });
  const reads: { data?: { data: unknown[] } }[] = [activities, stages, resources, orders, planned];
  const has = (read: { data?: { data: unknown[] } }) => (read.data?.data.length ?? 0) > 0;
  const steps: SetupStep[] = [
    { name: 'activity', labelKey: 'firstStart.step.activity', hintKey: 'firstStart.hint.activity', done: has(activities) },
    { name: 'board', labelKey: 'firstStart.step.board', hintKey: 'firstStart.hint.board', done: has(stages) },
    { name: 'resource', labelKey: 'firstStart.step.resource', hintKey: 'firstStart.hint.resource', done: has(resources) },
    { name: 'order', labelKey: 'firstStart.step.order', hintKey: 'firstStart.hint.order', done: has(orders) },
    { name: 'plan', labelKey: 'firstStart.step.plan', hintKey: 'firstStart.hint.plan', done: has(planned) },
  ];
  return { known: reads.every((read) => read.data !== undefined), steps, complete: steps.every((step) => step.done) };
}
