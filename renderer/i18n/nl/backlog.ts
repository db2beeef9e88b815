/** De Nederlandse labels van de backlog-schermen: het type eist elke Engelse sleutel. */
import type { backlogMessages as english } from '../en/backlog.js';

export const backlogMessages: Record<keyof typeof english, string> = {
  'backlog.title': 'Backlog',
  'backlog.newCollection': 'Nieuwe verzameling',
  'backlog.search': 'Backlog doorzoeken',
  'backlog.due': 'Deadline',
  'backlog.sortByDue': 'Sorteren op deadline',
  'backlog.soonestDueFirst': 'Volgorde: vroegste deadline eerst',
  'backlog.latestDueFirst': 'Volgorde: laatste deadline eerst',
  'backlog.hint':
    'Sleep een verzameling naar een fase en dag om haar daar te plannen; naar de datums om haar over de fases van het bord te plannen.',
  'backlog.loading': 'Backlog laden…',
  'backlog.noMatch': 'Geen verzameling gevonden.',
  'backlog.empty': 'De backlog is leeg.',
  'backlog.firstOf': 'De eerste {shown} van {total} worden getoond.',
  'backlog.list': 'Verzamelingen in de backlog',
  'backlog.untitled': 'Verzameling zonder naam',
  'backlog.dueOn': 'Deadline {date}',
  'backlog.noDueDate': 'Geen deadline',
  'backlog.activities.one': '{count} activiteit',
  'backlog.activities.other': '{count} activiteiten',
  'backlog.hours': '{hours} u',
  'backlog.plan': 'Plannen…',
  'backlog.ignore': 'Negeren',
  'backlog.ignoreNamed': '{name} negeren',
  'backlog.focusFailed': '{name} kon niet op het planbord worden getoond: {problem}',

  'backlog.planNamed': '{name} plannen',
  'backlog.startOf': 'Begin van {name}',
  'backlog.stageFor': 'Fase voor {name}',
  'backlog.boardStages': 'Fases van het bord',
  'backlog.planSubmit': 'Plannen',
  'backlog.cancelPlanning': 'Plannen annuleren',

  'backlog.form.name': 'Naam van de verzameling',
  'backlog.form.dueDate': 'Deadline',
  'backlog.form.activities': 'Activiteiten',
  'backlog.form.noActivities': 'Nog geen activiteiten: voeg ze toe op het scherm Activiteiten.',
  'backlog.form.minutes': 'min',
  'backlog.form.minutesOf': 'voor {activity}',
  'backlog.form.add': 'Aan backlog toevoegen',
};
