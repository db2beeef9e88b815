/** Het KPI-scherm (issue 43 §4), in het Nederlands: het type eist elke Engelse sleutel. */
import type { kpiMessages as english } from '../en/kpi.js';

export const kpiMessages: Record<keyof typeof english, string> = {
  'nav.kpi': 'KPI’s',
  'nav.purpose.kpi':
    'Hoe de planning het afgelopen halfjaar deed: levering op tijd, beloftes nagekomen, bezetting, onderhanden werk, achterstand.',
  'kpi.title': 'KPI’s',
  'kpi.intro': 'Per week sinds {from}, berekend uit de planning op deze computer. Een afgelopen week blijft zoals hij toen was.',
  'kpi.scope': 'Cijfers van',
  'kpi.scope.board': 'Het hele bord',
  'kpi.saveXlsx': 'Opslaan als Excel',
  'kpi.noBoard': 'Maak eerst een bord: de cijfers ervan staan hier.',
  'kpi.chart.onTime': 'Levering op tijd',
  'kpi.chart.promise': 'Betrouwbaarheid van beloftes',
  'kpi.chart.utilisation': 'Bezetting',
  'kpi.chart.wip': 'Onderhanden werk',
  'kpi.chart.backlog': 'Achterstand in weken',
  'kpi.chart.people': 'Geplande bezetting per persoon',
  'kpi.series.planned': 'Gepland',
  'kpi.series.booked': 'Geboekt',
  'kpi.week': 'Week van',
  'kpi.showTable': 'Als tabel tonen',
  'kpi.hideTable': 'Tabel verbergen',
  'kpi.summary.latest': '{value} in de week van {week}',
  'kpi.summary.none': 'nog geen cijfer',
  'kpi.trend.up': 'hoger dan de week ervoor',
  'kpi.trend.down': 'lager dan de week ervoor',
  'kpi.trend.level': 'gelijk aan de week ervoor',
  'kpi.trend.first': 'de eerste week met een cijfer',
};
