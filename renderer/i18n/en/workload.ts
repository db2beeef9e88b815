/** Load on the planboard and cards on non-workdays, in English (the reference: every key of the area is here). */
export const workloadMessages = {
  // A move onto a day the board does not work, and a card that sits on one
  'workload.nonWorkday.refused':
    '{date} is not a workday on this board. Hold Shift while dropping (or use “Move anyway”) to place it there.',
  'workload.nonWorkday.moveAnyway': 'Move anyway',
  'workload.nonWorkday.flag': 'On a non-workday',

  // The capacity strip: planned against available hours, per day or per week
  'workload.hours': '{planned} / {available} h',
  'workload.day': '{stage}, {date}: {planned} of {available} planned',
  'workload.dayOver': '{stage}, {date}: {planned} of {available} planned (over capacity)',
  'workload.week': '{stage}, {start} – {end}: {planned} of {available} planned',
  'workload.weekOver': '{stage}, {start} – {end}: {planned} of {available} planned, over capacity on {days}',
  // The planboard by resource: the work nobody is assigned to, in its "No resource" row and above the grid
  'workload.hoursNoOne': '{planned} h',
  'workload.dayNoOne': '{stage}, {date}: {planned} planned with no one assigned',
  'workload.weekNoOne': '{stage}, {start} – {end}: {planned} planned with no one assigned',
  'workload.noOneInView.one': '{count} hour planned on the days shown has no one assigned',
  'workload.noOneInView.other': '{count} hours planned on the days shown have no one assigned',

  // Month zoom, where a stage's cards are too dense to read: one aggregate per week
  'workload.dense.label': '{count} cards · {hours} h',
  'workload.dense.cards': '{count} cards',
  'workload.dense.where': '{stage}, {start} – {end}',
} as const;
