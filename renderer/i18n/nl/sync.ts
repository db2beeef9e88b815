/** De Nederlandse labels van wat synchronisatie de planner vertelt: het type eist elke Engelse sleutel. */
import type { syncMessages as english } from '../en/sync.js';

export const syncMessages: Record<keyof typeof english, string> = {
  'sync.overruled': 'Overschreven',
  'sync.runDoneOverruled':
    'Gesynchroniseerd: {sent} verzonden, {refused} geweigerd, {received} ontvangen; {overruled} van je wijzigingen overschreven.',
  'syncStatus.overruled.one': '{count} overschreven',
  'syncStatus.overruled.other': '{count} overschreven',
  'syncStatus.overruledFact.one':
    '{count} van je wijzigingen is overschreven door een latere elders, te bekijken op het scherm Synchronisatie',
  'syncStatus.overruledFact.other':
    '{count} van je wijzigingen zijn overschreven door latere elders, te bekijken op het scherm Synchronisatie',

  'overruled.title': 'Overschreven wijzigingen',
  'overruled.count.one': '{count} te bekijken',
  'overruled.count.other': '{count} te bekijken',
  'overruled.none': 'Geen van je wijzigingen is overschreven.',
  'overruled.explain':
    'Als hetzelfde veld hier en op een andere computer is gewijzigd, telt overal de latere wijziging. Dit zijn jouw wijzigingen die het verloren: houd de jouwe om het terug te zetten, of neem de andere over.',
  'overruled.heading': 'Je wijziging van {field} van {resource} {name}',
  'overruled.by': 'Gewijzigd op {who} op {when}',
  'overruled.otherComputer': 'een andere computer ({node})',
  'overruled.mine': 'Jouw waarde',
  'overruled.theirs': 'Nu',
  'overruled.empty': '(leeg)',
  'overruled.keep': 'Mijn waarde houden',
  'overruled.accept': 'Andere overnemen',
  'overruled.kept': 'Gehouden: je waarde staat er weer en gaat mee met de volgende synchronisatie.',
  'overruled.accepted': 'Overgenomen: de andere waarde blijft.',
  'overruled.more': '{shown} van {count} getoond.',

  'overruled.cardMark': 'Een wijziging van jou aan deze kaart is overschreven',
  'overruled.cardLine': 'Je wijziging van {field} is overschreven door {who} ({when}): jouw waarde {mine}, nu {theirs}.',
  'overruled.cardNotice': 'Overschreven wijzigingen van deze kaart',

  'overruled.resource.card': 'kaart',
  'overruled.resource.collection': 'collectie',
  'overruled.resource.project': 'project',
  'overruled.resource.order': 'order',
  'overruled.resource.order_row': 'orderregel',
  'overruled.resource.board': 'planbord',
  'overruled.resource.stage': 'fase',
  'overruled.resource.activity': 'activiteit',
  'overruled.resource.resource': 'resource',
  'overruled.resource.comment': 'opmerking',
  'overruled.resource.time_tracking': 'tijdregistratie',

  'overruled.field.name': 'Naam',
  'overruled.field.description': 'Omschrijving',
  'overruled.field.code': 'Code',
  'overruled.field.external_ref': 'Externe referentie',
  'overruled.field.start_date': 'Begindatum',
  'overruled.field.end_date': 'Einddatum',
  'overruled.field.deadline': 'Deadline',
  'overruled.field.color': 'Kleur',
  'overruled.field.status_id': 'Status',
  'overruled.field.board_id': 'Planbord',
  'overruled.field.stage_id': 'Fase',
  'overruled.field.collection_id': 'Verzameling',

  'history.title': 'Synchronisatiegeschiedenis',
  'history.none': 'Er is nog niets gesynchroniseerd.',
  'history.explain': 'De laatste keren dat er iets verzonden of ontvangen werd, of dat het mislukte; hooguit 50.',
  'history.when': 'Wanneer',
  'history.took': 'Duur',
  'history.sent': 'Verzonden',
  'history.received': 'Ontvangen',
  'history.overruled': 'Overschreven',
  'history.refused': 'Geweigerd',
  'history.outcome': 'Resultaat',
  'history.ok': 'Gelukt',
  'history.resynced': 'Gelukt (alles opnieuw opgehaald)',
  'history.failedTimes': '{problem} ({runs} keer achter elkaar)',
  'history.seconds': '{seconds} s',

  'conflict.refusedAction.one': 'Je actie “{action}” is geweigerd: de wijziging is niet op de server gekomen',
  'conflict.refusedAction.other': 'Je actie “{action}” is geweigerd: geen van de {count} wijzigingen is op de server gekomen',
  'conflict.anAction': 'een actie',
  'conflict.notHere': 'een record dat niet op deze computer staat',
  'conflict.wholeAction.one': 'Opnieuw proberen en weggooien gelden voor die ene wijziging.',
  'conflict.wholeAction.other':
    'Opnieuw proberen en weggooien gelden voor alle {count} wijzigingen van deze actie; de tabel toont de eerste.',
};
