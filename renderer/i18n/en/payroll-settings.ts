/** The payroll settings in Settings (docs/API.md "Payroll files"). */
export const payrollSettingsMessages = {
  'payrollSettings.title': 'Payroll files',
  'payrollSettings.intro':
    'The hour codes absences are paid under in the Nmbrs, Loket.nl and DATEV files, and the numbers those packages know the company by. Each employee’s number is their payroll number on their user. Only an admin changes them.',
  'payrollSettings.save': 'Save payroll settings',
  'payrollSettings.vacation': 'Hour code for vacation',
  'payrollSettings.sick': 'Hour code for sick leave',
  'payrollSettings.leave': 'Hour code for other leave',
  'payrollSettings.holiday': 'Hour code for public holidays',
  'payrollSettings.timeForTime': 'Hour code for time for time',
  'payrollSettings.overtimePer': 'Overtime counts',
  'payrollSettings.overtimePer.week': 'Per week: hours over the week’s schedule',
  'payrollSettings.overtimePer.day': 'Per day: hours over the day’s schedule',
  // Each user's resource and payroll number, at any time (docs/API.md "Payroll files").
  'payrollPeople.title': 'Employees',
  'payrollPeople.intro':
    'Link each user to the resource whose schedule they work, and give them their employee number in the payroll package. Only an admin changes them.',
  'payrollPeople.user': 'User',
  'payrollPeople.resource': 'Resource of {name}',
  'payrollPeople.payrollRef': 'Payroll number of {name}',
  'payrollPeople.resourceColumn': 'Resource',
  'payrollPeople.payrollRefColumn': 'Payroll number',
  'payrollPeople.noResource': 'No resource',
  'payrollPeople.saved': 'Saved',
  'payrollPeople.none': 'No users yet.',
  'payrollSettings.nmbrsDebtor': 'Nmbrs debtor number',
  'payrollSettings.nmbrsCompany': 'Nmbrs company number',
  'payrollSettings.datevConsultant': 'DATEV consultant number',
  'payrollSettings.datevClient': 'DATEV client number',
} as const;
