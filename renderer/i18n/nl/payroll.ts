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
  'payroll.hourCodes': 'Uren per code',
  'payroll.hourCode': '{code} {percentage}%',
  'payroll.noHourCode': 'Geen code',
  'payroll.overtime': 'Overwerksaldo',
  'payroll.opening_minutes': 'Begin',
  'payroll.change_minutes': 'Mutatie',
  'payroll.closing_minutes': 'Eind',
  'payroll.noBalance': '–',
  'payroll.export': 'Exporteren naar salarispakket…',
  'payroll.overtimeHint':
    'Overwerksaldo: uren gewerkt boven het rooster (per week of per dag, in de salarisinstellingen), min opgenomen tijd voor tijd en uitbetalingen. Een afgesloten periode houdt het saldo waarmee ze sloot.',
  'payroll.total': 'Totaal',
  'payroll.noUser': 'Geen gebruiker',
  'payroll.noResource': 'Geen resource',
  'payroll.empty': 'Niemand heeft in deze periode tijd geboekt, en geen gebruiker is aan een resource gekoppeld.',
  'payroll.noResourceHint':
    'Verwacht is wat de resource van de gebruiker volgens rooster werkt, min afwezigheid. Van een gebruiker zonder resource worden geen uren verwacht, dus alles wat hij boekt is verschil: koppel jezelf in Instellingen aan je resource.',
};
