/** Surcharge rules in Settings (docs/API.md "Surcharge rules"). */
export const surchargesMessages = {
  'surcharges.title': 'Surcharge rules',
  'surcharges.intro':
    'When hours are paid at another percentage, and under which payroll hour code. From and Until empty: the whole day; From later than Until: across midnight. Where rules overlap, the highest percentage wins. Only an admin changes them.',
  'surcharges.none': 'No surcharge rules yet: every hour is paid at 100 % under its activity’s hour code.',
  'surcharges.new': 'New surcharge rule',
  'surcharges.save': 'Save rule',
  'surcharges.name': 'Rule name',
  'surcharges.weekdays': 'Days it holds on',
  'surcharges.publicHoliday': 'Public holidays',
  'surcharges.publicHolidays': 'public holidays',
  'surcharges.from': 'From',
  'surcharges.to': 'Until',
  'surcharges.percentage': 'Percentage',
  'surcharges.percentageValue': '{percentage} %',
  'surcharges.hourCode': 'Payroll hour code',
  'surcharges.activityCode': 'The activity’s code',
  'surcharges.wholeDay': 'whole day',
} as const;
