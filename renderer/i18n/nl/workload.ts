/** De Nederlandse labels van belasting op het planbord en kaarten op niet-werkdagen: het type eist elke Engelse sleutel. */
import type { workloadMessages as english } from '../en/workload.js';

export const workloadMessages: Record<keyof typeof english, string> = {
  'workload.nonWorkday.refused':
    '{date} is geen werkdag op dit bord. Houd Shift ingedrukt bij het loslaten (of kies “Toch verplaatsen”) om haar daar te zetten.',
  'workload.nonWorkday.moveAnyway': 'Toch verplaatsen',
  'workload.nonWorkday.flag': 'Op een niet-werkdag',

  'workload.hours': '{planned} / {available} u',
  'workload.day': '{stage}, {date}: {planned} van {available} gepland',
  'workload.dayOver': '{stage}, {date}: {planned} van {available} gepland (boven capaciteit)',
  'workload.week': '{stage}, {start} – {end}: {planned} van {available} gepland',
  'workload.weekOver': '{stage}, {start} – {end}: {planned} van {available} gepland, boven capaciteit op {days}',
  'workload.hoursNoOne': '{planned} u',
  'workload.dayNoOne': '{stage}, {date}: {planned} gepland zonder iemand toegewezen',
  'workload.weekNoOne': '{stage}, {start} – {end}: {planned} gepland zonder iemand toegewezen',
  'workload.noOneInView.one': 'Op de getoonde dagen is {count} uur werk aan niemand toegewezen',
  'workload.noOneInView.other': 'Op de getoonde dagen is {count} uur werk aan niemand toegewezen',

  'workload.dense.label': '{count} kaarten · {hours} u',
  'workload.dense.cards': '{count} kaarten',
  'workload.dense.where': '{stage}, {start} – {end}',
} as const;
