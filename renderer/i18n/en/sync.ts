/**
 * The labels of what sync tells a planner about its outcome, in English (the reference: every
 * key of the area is here): changes overruled by later ones elsewhere, the sync history, and
 * the notices in the top bar and on a card.
 */
export const syncMessages = {
  // The Sync screen's tile and the top bar
  'sync.overruled': 'Overruled',
  'sync.runDoneOverruled': 'Synced: {sent} sent, {refused} refused, {received} received; {overruled} of your changes overruled.',
  'syncStatus.overruled.one': '{count} overruled',
  'syncStatus.overruled.other': '{count} overruled',
  'syncStatus.overruledFact.one': '{count} of your changes was overruled by a later one elsewhere, to review on the Sync screen',
  'syncStatus.overruledFact.other': '{count} of your changes were overruled by later ones elsewhere, to review on the Sync screen',

  // The overruled list
  'overruled.title': 'Overruled changes',
  'overruled.count.one': '{count} to review',
  'overruled.count.other': '{count} to review',
  'overruled.none': 'None of your changes was overruled.',
  'overruled.explain':
    'When the same field was changed here and on another computer, the later change counts everywhere. These are your changes that lost: keep yours to change it back, or accept the other.',
  'overruled.heading': 'Your change to {field} of {resource} {name}',
  'overruled.by': 'Changed on {who} on {when}',
  'overruled.otherComputer': 'another computer ({node})',
  'overruled.mine': 'Yours',
  'overruled.theirs': 'Now',
  'overruled.empty': '(empty)',
  'overruled.keep': 'Keep mine',
  'overruled.accept': 'Accept theirs',
  'overruled.kept': 'Kept: your value is back and is sent with the next sync.',
  'overruled.accepted': 'Accepted: the other value stays.',
  'overruled.more': 'Showing {shown} of {count}.',

  // On a card: the mark on the planboard and the line in its panel
  'overruled.cardMark': 'A change of yours to this card was overruled',
  'overruled.cardLine': 'Your change to {field} was overruled by {who} ({when}): yours {mine}, now {theirs}.',
  'overruled.cardNotice': 'Overruled changes of this card',

  // Record kinds, as a planner names them
  'overruled.resource.card': 'card',
  'overruled.resource.card_activity': 'card activity',
  'overruled.resource.card_resource': 'card assignment',
  'overruled.resource.collection': 'collection',
  'overruled.resource.project': 'project',
  'overruled.resource.order': 'order',
  'overruled.resource.order_row': 'order row',
  'overruled.resource.board': 'board',
  'overruled.resource.stage': 'stage',
  'overruled.resource.activity': 'activity',
  'overruled.resource.resource': 'resource',
  'overruled.resource.comment': 'comment',
  'overruled.resource.time_tracking': 'time entry',

  // Field names that no screen labels on its own
  'overruled.field.name': 'Name',
  'overruled.field.description': 'Description',
  'overruled.field.code': 'Code',
  'overruled.field.external_ref': 'External reference',
  'overruled.field.start_date': 'Start date',
  'overruled.field.end_date': 'End date',
  'overruled.field.deadline': 'Deadline',
  'overruled.field.color': 'Colour',
  'overruled.field.status_id': 'Status',
  'overruled.field.board_id': 'Board',
  'overruled.field.stage_id': 'Stage',
  'overruled.field.collection_id': 'Collection',

  // The sync history
  'history.title': 'Sync history',
  'history.none': 'No sync has moved anything yet.',
  'history.explain': 'The last runs that sent or received something, or failed; at most 50.',
  'history.when': 'When',
  'history.took': 'Took',
  'history.sent': 'Sent',
  'history.received': 'Received',
  'history.overruled': 'Overruled',
  'history.refused': 'Refused',
  'history.outcome': 'Outcome',
  'history.ok': 'Done',
  'history.resynced': 'Done (downloaded everything again)',
  'history.failedTimes': '{problem} ({runs} tries in a row)',
  'history.seconds': '{seconds} s',

  // A refused action of several changes (docs/API.md "Sync", "Actions sync whole")
  'conflict.refusedAction.one': 'Your action “{action}” was refused: its change did not reach the server',
  'conflict.refusedAction.other': 'Your action “{action}” was refused: none of its {count} changes reached the server',
  'conflict.anAction': 'an action',
  // A record a refused change names that this computer does not have (deleted meanwhile, or never synced here).
  'conflict.notHere': 'a record not on this computer',
  'conflict.wholeAction.one': 'Retry and discard apply to its one change.',
  'conflict.wholeAction.other': 'Retry and discard apply to all {count} changes of this action; the table shows the first.',
} as const;
