/** De Nederlandse labels van het salarisoverzicht: het type eist elke Engelse sleutel. */
import type { payrollMessages as english } from '../en/payroll.js';

export const payrollMessages: Record<keyof typeof english, string> = {
  'time.tab.payroll': 'Salaris',
  'payroll.title': 'Salarisoverzicht',
  'payroll.files': 'Het overzicht als bestand opslaan',
  'payroll.user': 'Gebruiker',
  'payroll.resource': 'Resource',
  'payroll.scheduled_minutes': 'Gepland',
  'payroll.absence_minutes': 'Afwezig',
  'payroll.expected_minutes': 'Verwacht',
  'payroll.worked_minutes': 'Gewerkt',
  'payroll.difference_minutes': 'Verschil',
  'payroll.total': 'Totaal',
  'payroll.noUser': 'Geen gebruiker',
  'payroll.noResource': 'Geen resource',
  'payroll.empty': 'Niemand heeft in deze periode tijd geboekt, en geen gebruiker is aan een resource gekoppeld.',
  'payroll.noResourceHint':
    'Verwacht is wat de resource van de gebruiker volgens rooster werkt, min afwezigheid. Van een gebruiker zonder resource worden geen uren verwacht, dus alles wat hij boekt is verschil: koppel jezelf in Instellingen aan je resource.',
};
