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
  'payrollSettings.timeForTime': 'Uurcode voor tijd voor tijd',
  'payrollSettings.overtimePer': 'Overwerk telt',
  'payrollSettings.overtimePer.week': 'Per week: uren boven het weekrooster',
  'payrollSettings.overtimePer.day': 'Per dag: uren boven het dagrooster',
  'payrollPeople.title': 'Medewerkers',
  'payrollPeople.intro':
    'Koppel elke gebruiker aan de resource wiens rooster hij of zij werkt, en geef het personeelsnummer in het salarispakket. Alleen een beheerder wijzigt ze.',
  'payrollPeople.user': 'Gebruiker',
  'payrollPeople.resource': 'Resource van {name}',
  'payrollPeople.payrollRef': 'Personeelsnummer van {name}',
  'payrollPeople.resourceColumn': 'Resource',
  'payrollPeople.payrollRefColumn': 'Personeelsnummer',
  'payrollPeople.noResource': 'Geen resource',
  'payrollPeople.saved': 'Opgeslagen',
  'payrollPeople.none': 'Nog geen gebruikers.',
  'payrollSettings.nmbrsDebtor': 'Nmbrs-debiteurnummer',
  'payrollSettings.nmbrsCompany': 'Nmbrs-bedrijfsnummer',
  'payrollSettings.datevConsultant': 'DATEV-adviseursnummer (Beraternummer)',
  'payrollSettings.datevClient': 'DATEV-klantnummer (Mandantennummer)',
};
