/**
 * The English labels of the plan check after a sync on the Sync screen (docs/API.md "Sync",
 * "Plan check"): what a merge of changes made elsewhere did to the plan.
 */
export const planCheckMessages = {
  'planCheck.title': 'Plan check after sync',
  'planCheck.cardMark': 'A sync made a problem in the plan with this card: see Sync',
  'planCheck.count.one': '{count} to review',
  'planCheck.count.other': '{count} to review',
  'planCheck.none': 'No sync made the plan worse than either side had it.',
  'planCheck.explain':
    'Each side’s plan was fine on its own; merged, it is not. Accept a finding to leave the plan as it is, or change the plan on the planboard.',
  'planCheck.kind.over_capacity.stage': 'Stage {name} is over capacity on {day}: {planned} planned, {available} available.',
  'planCheck.kind.over_capacity.resource': '{name} is over capacity on {day}: {planned} planned, {available} available.',
  'planCheck.kind.double_booking': '{name} is on {card} and {other} at once, {days}.',
  'planCheck.kind.broken_dependency':
    'In {name}, stage {stage} starts on {start}, before stage {previous} is done; it can start on {earliest}.',
  'planCheck.kind.late_collection.due': '{name} is planned to end on {end}, after its due date {due}.',
  'planCheck.kind.late_collection.promised': '{name} is planned to end on {end}, after the date promised to the customer {due}.',
  'planCheck.oneDay': 'on {day}',
  'planCheck.days': 'from {start} to {end}',
  'planCheck.madeBy': 'Made by:',
  'planCheck.created': '{resource} {name} made on {who} on {when}',
  'planCheck.changed': '{fields} of {resource} {name} changed on {who} on {when}',
  'planCheck.noChange': 'no single change: the plan on this board changed on another computer',
  'planCheck.accept': 'Accept',
  'planCheck.accepted': 'Accepted: the plan stays as it is.',
  'planCheck.more': 'Showing {shown} of {count}.',
  'planCheck.moveLater': 'Move mine later',
  'planCheck.moveLaterAction': 'Move mine later after sync',
  'planCheck.movedLater': 'Your part of it is planned again where there is room, after that day.',
  'planCheck.revert': 'Revert my change',
  'planCheck.revertTitle': 'Undo “{action}”, the last thing this computer did to these cards',
  'planCheck.reverted': 'Undone: {action}.',
} as const;
