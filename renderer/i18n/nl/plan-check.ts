/** De Nederlandse labels van de plancontrole na synchronisatie: het type eist elke Engelse sleutel. */
import type { planCheckMessages as english } from '../en/plan-check.js';

export const planCheckMessages: Record<keyof typeof english, string> = {
  'planCheck.title': 'Plancontrole na synchronisatie',
  'planCheck.cardMark': 'Een synchronisatie gaf een probleem in de planning met deze kaart: zie Synchronisatie',
  'planCheck.count.one': '{count} te bekijken',
  'planCheck.count.other': '{count} te bekijken',
  'planCheck.none': 'Geen synchronisatie maakte de planning slechter dan een van beide kanten had.',
  'planCheck.explain':
    'Elke planning was op zich in orde; samengevoegd niet meer. Accepteer een bevinding om de planning te laten zoals ze is, of pas de planning aan op het planbord.',
  'planCheck.kind.over_capacity.stage': 'Fase {name} zit op {day} boven de capaciteit: {planned} gepland, {available} beschikbaar.',
  'planCheck.kind.over_capacity.resource': '{name} zit op {day} boven de capaciteit: {planned} gepland, {available} beschikbaar.',
  'planCheck.kind.double_booking': '{name} staat tegelijk op {card} en {other}, {days}.',
  'planCheck.kind.broken_dependency':
    'In {name} begint fase {stage} op {start}, voordat fase {previous} klaar is; ze kan beginnen op {earliest}.',
  'planCheck.kind.late_collection.due': '{name} is gepland tot {end}, na de vervaldatum {due}.',
  'planCheck.kind.late_collection.promised': '{name} is gepland tot {end}, na de datum die de klant is beloofd, {due}.',
  'planCheck.oneDay': 'op {day}',
  'planCheck.days': 'van {start} tot {end}',
  'planCheck.madeBy': 'Ontstaan door:',
  'planCheck.created': '{resource} {name} gemaakt op {who} op {when}',
  'planCheck.changed': '{fields} van {resource} {name} gewijzigd op {who} op {when}',
  'planCheck.noChange': 'geen enkele wijziging: de planning op dit bord is op een andere computer gewijzigd',
  'planCheck.accept': 'Accepteren',
  'planCheck.accepted': 'Geaccepteerd: de planning blijft zoals ze is.',
  'planCheck.more': '{shown} van {count} getoond.',
  'planCheck.moveLater': 'Mijn deel later plannen',
  'planCheck.moveLaterAction': 'Mijn deel later plannen na synchronisatie',
  'planCheck.movedLater': 'Jouw deel is opnieuw gepland waar plaats is, na die dag.',
  'planCheck.revert': 'Mijn wijziging terugdraaien',
  'planCheck.revertTitle': '“{action}” ongedaan maken, het laatste wat deze computer met deze kaarten deed',
  'planCheck.reverted': 'Ongedaan gemaakt: {action}.',
} as const;
