/** De Nederlandse labels van de toeslagregels: het type eist elke Engelse sleutel. */
import type { surchargesMessages as english } from '../en/surcharges.js';

export const surchargesMessages: Record<keyof typeof english, string> = {
  'surcharges.title': 'Toeslagregels',
  'surcharges.intro':
    'Wanneer uren tegen een ander percentage worden betaald, en onder welke looncode. Vanaf en Tot leeg: de hele dag; Vanaf later dan Tot: over middernacht heen. Waar regels overlappen, geldt het hoogste percentage. Alleen een beheerder wijzigt ze.',
  'surcharges.none': 'Nog geen toeslagregels: elk uur telt voor 100 % onder de looncode van de activiteit.',
  'surcharges.new': 'Nieuwe toeslagregel',
  'surcharges.save': 'Regel opslaan',
  'surcharges.name': 'Naam van de regel',
  'surcharges.weekdays': 'Dagen waarop hij geldt',
  'surcharges.publicHoliday': 'Feestdagen',
  'surcharges.publicHolidays': 'feestdagen',
  'surcharges.from': 'Vanaf',
  'surcharges.to': 'Tot',
  'surcharges.percentage': 'Percentage',
  'surcharges.percentageValue': '{percentage} %',
  'surcharges.hourCode': 'Looncode uren',
  'surcharges.activityCode': 'De code van de activiteit',
  'surcharges.wholeDay': 'hele dag',
} as const;
