/** The payroll summary on the Time screen (docs/API.md "Payroll summary"). */
export const payrollMessages = {
  'time.tab.payroll': 'Payroll',
  'payroll.title': 'Payroll summary',
  'payroll.files': 'Save the summary as a file',
  'payroll.user': 'User',
  'payroll.resource': 'Resource',
  'payroll.scheduled_minutes': 'Scheduled',
  'payroll.absence_minutes': 'Absent',
  'payroll.expected_minutes': 'Expected',
  'payroll.worked_minutes': 'Worked',
  'payroll.difference_minutes': 'Difference',
  // The payroll screen (issue 44 §6): surcharges per code and the overtime balance.
  'payroll.hourCodes': 'Hours per code',
  'payroll.hourCode': '{code} {percentage}%',
  'payroll.noHourCode': 'No code',
  'payroll.overtime': 'Overtime balance',
  'payroll.opening_minutes': 'Opening',
  'payroll.change_minutes': 'Change',
  'payroll.closing_minutes': 'Closing',
  'payroll.noBalance': '–',
  'payroll.export': 'Export to a payroll package…',
  'payroll.overtimeHint':
    'Overtime balance: hours worked over the schedule (per week or per day, in the payroll settings), less time for time taken and payouts. A closed period keeps the balance it closed with.',
  'payroll.total': 'Total',
  'payroll.noUser': 'No user',
  'payroll.noResource': 'No resource',
  'payroll.empty': 'Nobody booked time in this period, and no user is linked to a resource.',
  'payroll.noResourceHint':
    'Expected is what the user’s resource is scheduled to work, less absences. A user linked to no resource is expected to work no hours, so all they book is difference: link yourself to your resource in Settings.',
} as const;
