/**
 * What is wrong with a field, in English, by the rule the API says it broke (docs/API.md
 * "Field rules and limits"); `{label}` is the field's label on screen (renderer/api/field-labels.ts).
 */
export const fieldErrorsMessages = {
  'fieldError.required': '{label} is required',
  'fieldError.type': '{label} is not a valid value',
  'fieldError.typeNumber': '{label} must be a number',
  'fieldError.typeDate': '{label} must be a date',
  'fieldError.negative': '{label} cannot be negative',
  'fieldError.minimum': '{label} must be at least {limit}',
  'fieldError.maximum': '{label} can be at most {limit}',
  'fieldError.maxLength': '{label} can be at most {limit} characters',
  'fieldError.enum': '{label}: pick one of the choices',
  'fieldError.pattern': '{label} is not in the right form',
  'fieldError.unique': '{label} is already used by another record',
  'fieldError.codeOrDescription': 'Give the order a code or a description',
  'fieldError.noWork': '{label} plans no work: give more than 0',
  'fieldError.noWorkPieces': 'Pieces plan no work: the activity has no default duration',
  'fieldError.tooMuchWork': '{label} plans more than a year of work',
  'fieldError.endAfterStart': '{label} must be after the start. Tick “Ends next day” for time past midnight.',
  'fieldError.tooLong': 'An entry lasts at most 24 hours',
  'fieldError.timerRunning': 'A timer of yours has run for more than 24 hours: stop it with its real end first',
  'fieldError.dayLimit': '{day} would hold {hours} hours; a day holds at most {limit}',
  'fieldError.notBeforeStart': '{label} cannot be before the start date',
  // A record chosen in a list that is not there any more (deleted elsewhere, or not synced yet).
  'fieldError.reference': '{label}: the one chosen is not there (deleted, or not synced yet)',
  'fieldError.positive': '{label} must be more than 0',
  // Labels of fields whose input has no label of its own elsewhere in the catalogue.
  'fieldError.label.stageName': 'Stage name',
  'fieldError.label.unit': 'Unit',
  'fieldError.label.quantity': 'Quantity',
  'fieldError.label.duration': 'Duration',
  'fieldError.label.time': 'Minutes',
  'fieldError.label.text': 'Comment',
  'fieldError.label.dayHours': 'Hours on a day',
} as const;
