/** The backlog screens' labels in English (the reference: every key of the area is here). */
export const backlogMessages = {
  // The backlog beside the planboard
  'backlog.title': 'Backlog',
  'backlog.newCollection': 'New collection',
  'backlog.search': 'Search backlog',
  'backlog.due': 'Due',
  'backlog.sortByDue': 'Sort by due date',
  'backlog.soonestDueFirst': 'Order: soonest due first',
  'backlog.latestDueFirst': 'Order: latest due first',
  'backlog.hint': 'Drag onto a stage and day to plan it there; onto the dates to plan it over the board’s stages.',
  'backlog.loading': 'Loading the backlog…',
  'backlog.noMatch': 'No collection matches.',
  'backlog.empty': 'The backlog is empty.',
  'backlog.firstOf': 'Showing the first {shown} of {total}.',
  'backlog.list': 'Backlog collections',
  'backlog.untitled': 'Untitled collection',
  'backlog.dueOn': 'Due {date}',
  'backlog.noDueDate': 'No due date',
  'backlog.activities.one': '{count} activity',
  'backlog.activities.other': '{count} activities',
  'backlog.hours': '{hours} h',
  'backlog.plan': 'Plan…',
  'backlog.ignore': 'Ignore',
  'backlog.ignoreNamed': 'Ignore {name}',
  'backlog.focusFailed': 'Could not show {name} on the planboard: {problem}',

  // Planning from the backlog without a pointer
  'backlog.planNamed': 'Plan {name}',
  'backlog.startOf': 'Start of {name}',
  'backlog.stageFor': 'Stage for {name}',
  'backlog.boardStages': 'Board stages',
  'backlog.planSubmit': 'Plan',
  'backlog.cancelPlanning': 'Cancel planning',

  // A new collection
  'backlog.form.name': 'Collection name',
  'backlog.form.dueDate': 'Due date',
  'backlog.form.activities': 'Activities',
  'backlog.form.noActivities': 'No activities yet: add them on the Activities screen.',
  'backlog.form.minutes': 'min',
  'backlog.form.minutesOf': 'of {activity}',
  'backlog.form.add': 'Add to backlog',
} as const;
