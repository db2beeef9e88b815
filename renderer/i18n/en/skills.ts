/** Skills and crews on the card panel and the board (docs/API.md "Skills and crews"), in English. */
export const skillsMessages = {
  'skills.needs': 'Needs {skills}',
  'skills.crew': 'crew of {crew}',
  'skills.qualified': 'Qualified: {people}',
  'skills.nobodyQualified': 'Nobody on this stage is qualified.',
  'skills.notQualified': 'Not qualified: {people}',
  'skills.lacks': '{name} lacks {skills}',
  'skills.unstaffed': 'Nobody with {skills} is assigned',
  'skills.has': 'qualified: {skills}',
} as const;
