/** De Nederlandse labels van de salarisinstellingen: het type eist elke Engelse sleutel. */
import type { payrollSettingsMessages as english } from '../en/payroll-settings.js';

export const payrollSettingsMessages: Record<keyof typeof english, string> = {
  'payrollSettings.title': 'Salarisbestanden',
  'payrollSettings.intro':
    'De uurcodes waaronder afwezigheid wordt betaald in de bestanden voor Nmbrs, Loket.nl en DATEV, en de nummers waaronder die pakketten het bedrijf kennen. Het personeelsnummer van elke medewerker staat bij diens gebruiker. Alleen een beheerder wijzigt ze.',
  'payrollSettings.save': 'Salarisinstellingen opslaan',
  'payrollSettings.vacation': 'Uurcode voor vakantie',
  'payrollSettings.sick': 'Uurcode voor ziekte',
  'payrollSettings.leave': 'Uurcode voor ander verlof',
  'payrollSettings.holiday': 'Uurcode voor feestdagen',
  'payrollSettings.nmbrsDebtor': 'Nmbrs-debiteurnummer',
  'payrollSettings.nmbrsCompany': 'Nmbrs-bedrijfsnummer',
  'payrollSettings.datevConsultant': 'DATEV-adviseursnummer (Beraternummer)',
  'payrollSettings.datevClient': 'DATEV-klantnummer (Mandantennummer)',
};
