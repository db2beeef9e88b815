/** Wat er mis is met een veld, in het Nederlands: het type eist elke Engelse sleutel. */
import type { fieldErrorsMessages as english } from '../en/field-errors.js';

export const fieldErrorsMessages: Record<keyof typeof english, string> = {
  'fieldError.required': '{label} is verplicht',
  'fieldError.type': '{label} is geen geldige waarde',
  'fieldError.typeNumber': '{label} moet een getal zijn',
  'fieldError.typeDate': '{label} moet een datum zijn',
  'fieldError.negative': '{label} mag niet negatief zijn',
  'fieldError.minimum': '{label} moet minstens {limit} zijn',
  'fieldError.maximum': '{label} mag hoogstens {limit} zijn',
  'fieldError.maxLength': '{label} mag hoogstens {limit} tekens lang zijn',
  'fieldError.enum': '{label}: kies een van de mogelijkheden',
  'fieldError.pattern': '{label} heeft niet de juiste vorm',
  'fieldError.unique': '{label} is al in gebruik bij een ander record',
  'fieldError.codeOrDescription': 'Geef de order een code of een omschrijving',
  'fieldError.noWork': '{label} plant geen werk: geef meer dan 0',
  'fieldError.noWorkPieces': 'Stuks plannen geen werk: de activiteit heeft geen standaardduur',
  'fieldError.tooMuchWork': '{label} plant meer dan een jaar werk',
  'fieldError.endAfterStart': '{label} moet na het begin liggen. Vink “Eindigt de volgende dag” aan voor tijd na middernacht.',
  'fieldError.tooLong': 'Een registratie duurt hoogstens 24 uur',
  'fieldError.dayLimit': '{day} zou {hours} uur tellen; een dag telt hoogstens 24 uur',
  'fieldError.label.stageName': 'Naam van de fase',
  'fieldError.label.unit': 'Eenheid',
  'fieldError.label.quantity': 'Aantal',
  'fieldError.label.duration': 'Duur',
  'fieldError.label.time': 'Minuten',
  'fieldError.label.text': 'Opmerking',
} as const;
