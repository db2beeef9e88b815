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
  'payrollSettings.nmbrsDebtor': 'Nmbrs debtor number',
  'payrollSettings.nmbrsCompany': 'Nmbrs company number',
  'payrollSettings.datevConsultant': 'DATEV consultant number',
  'payrollSettings.datevClient': 'DATEV client number',
} as const;
