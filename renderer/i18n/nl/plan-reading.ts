/** De Nederlandse labels voor het lezen van de planning: afdrukken, afhankelijkheidspijlen, het pad van een verzameling en verwijderen met ongedaan maken. */
import type { planReadingMessages as english } from '../en/plan-reading.js';

export const planReadingMessages: Record<keyof typeof english, string> = {
  'print.open': 'Afdrukken…',
  'print.openTitle': 'De planning afdrukken als pdf voor aan de muur',
  'print.title': 'Planning afdrukken',
  'print.start': 'Van',
  'print.end': 'Tot en met',
  'print.stage': 'Fasen',
  'print.wholeBoard': 'Het hele bord',
  'print.previewLoading': 'De pdf wordt gemaakt…',
  'print.previewFrame': 'De afgedrukte planning',
  'print.previewHint': 'Kies de dagen en fasen en dan Voorbeeld.',
  'print.save': 'Pdf opslaan…',
  'print.saved': '{file} opgeslagen',
  'print.downloaded': '{file} gedownload',
  'print.failed': 'De pdf maken lukte niet: {problem}',
  'print.badRange': 'Kies een tot-datum op of na de van-datum, hooguit 62 dagen later.',

  'arrows.toggle': 'Pijlen',
  'arrows.toggleTitle': 'Pijlen tonen tussen afhankelijke kaarten: de fasen van één verzameling, en kaartrelaties',
  'arrows.late': 'Te laat: {from} eindigt nadat {to} begint',
  'arrows.next': '{from} → {to}',

  'path.show': 'Pad tonen',
  'path.title': 'Pad van {collection}',
  'path.close': 'Pad sluiten',
  'path.empty': 'Geen geplande kaarten',

  'delete.undo': 'Ongedaan maken',
  'delete.deleted': '{cards} verwijderd',
  'delete.confirmTitle': '{count} kaarten verwijderen?',
  'delete.confirmText': 'De kaarten gaan naar de prullenbak; Ongedaan maken haalt ze terug.',
  'delete.confirm': '{count} kaarten verwijderen',
};
