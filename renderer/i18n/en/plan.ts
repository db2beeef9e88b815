/** Finite planning and promise dates in English (the reference: every key of the area is here). */
export const planMessages = {
  // Promise dates in the backlog: each as if planned alone now, against free capacity
  'plan.promise.canFinishBy': 'can finish by {date}',
  'plan.promise.noCapacity': 'no capacity to finish it',
  'plan.promise.title': 'When it can finish if planned now against free capacity',

  // The plan dialog
  'plan.dialog.title': 'Plan {name}',
  'plan.dialog.direction': 'Plan',
  'plan.dialog.forward': 'Forward from a start date',
  'plan.dialog.backward': 'Backward to an end date',
  'plan.dialog.finite': 'Only where there is free capacity (finite)',
  'plan.dialog.finiteHint': 'Cards go on the earliest days where the stages still have free hours, and may stretch over more days.',
  'plan.dialog.start': 'Start date',
  'plan.dialog.end': 'End date',
  'plan.dialog.endHint': 'Empty: the due date ({date}).',
  'plan.dialog.endHintNone': 'The collection has no due date: choose an end date.',
  'plan.dialog.stage': 'Stage',
  'plan.dialog.boardStages': 'The board’s stages',
  'plan.dialog.working': 'Working out the plan…',
  'plan.dialog.promise': 'Can finish by {date}',
  'plan.dialog.planEnds': 'This plan ends on {date}',
  'plan.dialog.promiseHint': 'The order’s promise date: planned now where there is free capacity, as the backlog says.',
  'plan.dialog.noPromise': 'No capacity to finish it: no promise date.',
  'plan.dialog.span': 'First day {start}, last day {end}',
  'plan.dialog.lateWarning': 'That is after the due date ({date}).',
  'plan.dialog.stages': 'Per stage',
  'plan.dialog.stageSpan': '{start} – {end}',
  'plan.dialog.addedLoad': 'Adds {hours} h of work',
  'plan.dialog.nothingFits': 'Nothing fits before {end}. Earliest possible end: {earliest}.',
  'plan.dialog.useEarliest': 'Use {date}',
  'plan.dialog.failed': 'The plan cannot be worked out: {problem}',
  'plan.dialog.open': 'More options…',
  'plan.dialog.plan': 'Plan',

  // Replanning what is late
  'plan.replan.open': 'Replan late…',
  'plan.replan.title': 'Replan late orders',
  'plan.replan.intro':
    'These planned collections end after their due date. Ticked ones are planned again against free capacity, in priority order, as one step you can undo.',
  'plan.replan.loading': 'Looking for late collections…',
  'plan.replan.none': 'Nothing on this board ends after its due date.',
  'plan.replan.list': 'Late collections',
  'plan.replan.row': 'Due {due}, ends {end}',
  'plan.replan.selectAll': 'Select all',
  'plan.replan.submit.one': 'Replan {count} order',
  'plan.replan.submit.other': 'Replan {count} orders',
  'plan.replan.action.one': 'Replan {count} late order',
  'plan.replan.action.other': 'Replan {count} late orders',
  'plan.replan.failed': 'Could not replan: {problem}',
  'plan.replan.done': 'Replanned: {action}.',

  // A promise date on the order screen
  'plan.order.promise': 'Can finish by {date} if planned now on {board}',
  'plan.order.noCapacity': 'No free capacity on {board} to finish it.',
  'plan.order.working': 'Working out when it can finish…',
} as const;
