/** Labels for reading the plan in English: printing it, dependency arrows, a collection's path, and deleting with undo. */
export const planReadingMessages = {
  // Printing the plan
  'print.open': 'Print…',
  'print.openTitle': 'Print the plan as a PDF for the wall',
  'print.title': 'Print the plan',
  'print.start': 'From',
  'print.end': 'To',
  'print.stage': 'Stages',
  'print.wholeBoard': 'The whole board',
  'print.previewLoading': 'Making the PDF…',
  'print.previewFrame': 'The printed plan',
  'print.previewHint': 'Choose the days and stages, then Preview.',
  'print.save': 'Save PDF…',
  'print.saved': 'Saved {file}',
  'print.downloaded': 'Downloaded {file}',
  'print.failed': 'Could not make the PDF: {problem}',
  'print.badRange': 'Choose a To date on or after the From date, at most 62 days later.',

  // Dependency arrows
  'arrows.toggle': 'Arrows',
  'arrows.toggleTitle': 'Show arrows between dependent cards: the stages of one collection, and card relations',
  'arrows.late': 'Late: {from} ends after {to} starts',
  'arrows.next': '{from} → {to}',

  // A collection's path
  'path.show': 'Show path',
  'path.title': 'Path of {collection}',
  'path.close': 'Close the path',
  'path.empty': 'No planned cards',

  // Deleting with undo
  'delete.undo': 'Undo',
  'delete.deleted': 'Deleted {cards}',
  'delete.confirmTitle': 'Delete {count} cards?',
  'delete.confirmText': 'The cards go to the trash; Undo brings them back.',
  'delete.confirm': 'Delete {count} cards',
} as const;
