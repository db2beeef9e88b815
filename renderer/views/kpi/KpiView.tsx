/**
 * The KPI screen (issue 43 §4; docs/API.md "KPIs"): how the plan of one board performed over the
 * last 26 weeks, a chart per figure — on-time delivery, promise reliability, utilisation planned
 * and booked, work in progress, backlog in weeks — for the whole board or one of its stages, and
 * planned utilisation per person. Closed weeks are the API's snapshots, so the half year shown
 * does not change after the fact. "Save as Excel" saves the same figures (`format=xlsx`).
 */
import { useMutation } from '@tanstack/react-query';
import { useId, useMemo, useState } from 'react';
import type { KpiFigures, KpiPeriod, Ratio } from '../../../shared/kpi.js';
import { describeError } from '../../api/client.js';
import { useApi } from '../../api/provider.js';
import { formatDay } from '../../components/dates-format.js';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT, type Translate } from '../../i18n/index.js';
import { BoardPicker } from '../boards/BoardPicker.js';
import { usePickedBoard } from '../boards/picked-board.js';
import { SaveMessage } from '../time/SaveMessage.js';
import type { SaveOutcome } from '../time/export-file.js';
import { KpiChart, type KpiChartProps, type KpiSeries } from './KpiChart.js';
import { kpiRange, saveKpiWorkbook, useKpis } from './kpi-api.js';
import './kpi.css';

const share = (value: Ratio) => value.ratio;

/** The figures the screen charts, each as series over the periods. */
const charts: {
  key: 'onTime' | 'promise' | 'utilisation' | 'wip' | 'backlog';
  kind: 'percent' | 'count' | 'weeks';
  series: { labelKey: 'kpi.series.planned' | 'kpi.series.booked' | null; of(f: KpiFigures): number | null }[];
}[] = [
  { key: 'onTime', kind: 'percent', series: [{ labelKey: null, of: (f) => share(f.on_time_delivery) }] },
  { key: 'promise', kind: 'percent', series: [{ labelKey: null, of: (f) => share(f.promise_reliability) }] },
  {
    key: 'utilisation',
    kind: 'percent',
    series: [
      { labelKey: 'kpi.series.planned', of: (f) => share(f.utilisation.planned) },
      { labelKey: 'kpi.series.booked', of: (f) => share(f.utilisation.booked) },
    ],
  },
  { key: 'wip', kind: 'count', series: [{ labelKey: null, of: (f) => f.work_in_progress }] },
  { key: 'backlog', kind: 'weeks', series: [{ labelKey: null, of: (f) => share(f.backlog.weeks) }] },
];

function formatterOf(kind: 'percent' | 'count' | 'weeks', locale: string): (value: number) => string {
  if (kind === 'percent') return (value) => new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 1 }).format(value);
  if (kind === 'count') return (value) => new Intl.NumberFormat(locale, { maximumFractionDigits: 1 }).format(value);
  return (value) => new Intl.NumberFormat(locale, { maximumFractionDigits: 2 }).format(value);
}

/**
 * What a chart says, read out in place of it: for each series its latest figure and the week it
 * belongs to, and whether it rose, fell or held since the figure before; or that there is none.
 */
export function kpiSummary(
  title: string,
  periods: readonly KpiPeriod[],
  series: readonly KpiSeries[],
  format: (v: number) => string,
  t: Translate,
): string {
  const parts = series.map((s) => {
    const known = s.values.flatMap((value, i) => (value === null ? [] : [{ value, i }]));
    const name = series.length > 1 ? `${s.label}: ` : '';
    const latest = known[known.length - 1];
    if (!latest) return `${name}${t('kpi.summary.none')}`;
    const week = formatDay(periods[latest.i]!.period_start, t.locale, { day: 'numeric', month: 'short', year: 'numeric' });
    const before = known[known.length - 2];
    const trend = !before ? 'first' : latest.value > before.value ? 'up' : latest.value < before.value ? 'down' : 'level';
    return `${name}${t('kpi.summary.latest', { value: format(latest.value), week })}, ${t(`kpi.trend.${trend}`)}`;
  });
  return `${title}: ${parts.join('; ')}`;
}

export function KpiView() {
  const t = useT();
  const { transport } = useApi();
  const { board, boards } = usePickedBoard();
  const range = useMemo(() => kpiRange(), []);
  const kpis = useKpis(board?.id ?? null, range);
  const [scope, setScope] = useState('');
  const scopeId = useId();
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);
  const save = useMutation({
    mutationFn: () => {
      setOutcome(null);
      return saveKpiWorkbook(transport, board!.id, range);
    },
    onSuccess: setOutcome,
  });

  const periods = kpis.data?.data ?? [];
  const stages = periods[periods.length - 1]?.figures.stages ?? [];
  const stageId = stages.some((s) => s.stage_id === scope) ? scope : '';

  const shown: KpiChartProps[] = useMemo(() => {
    if (periods.length === 0) return [];
    const labels = periods.map((p) => formatDay(p.period_start, t.locale, { day: 'numeric', month: 'short' }));
    const figuresOf = (p: KpiPeriod): KpiFigures | null =>
      stageId ? (p.figures.stages.find((s) => s.stage_id === stageId) ?? null) : p.figures.board;
    const made = charts.map((chart) => {
      const title = t(`kpi.chart.${chart.key}`);
      const format = formatterOf(chart.kind, t.locale);
      const series = chart.series.map((s) => ({
        label: s.labelKey ? t(s.labelKey) : title,
        values: periods.map((p) => {
          const figures = figuresOf(p);
          return figures ? s.of(figures) : null;
        }),
      }));
      return {
        title,
        summary: kpiSummary(title, periods, series, format, t),
        periods: labels,
        series,
        format,
        floorOfTop: chart.kind === 'percent' ? 1 : undefined,
        testId: `kpi-${chart.key}`,
      };
    });
    // Per person: each resource's planned utilisation (the API books time per user, not per resource).
    const people = new Map<string, string>();
    for (const p of periods) for (const r of p.figures.resources) people.set(r.resource_id, r.name);
    if (people.size > 0 && !stageId) {
      const title = t('kpi.chart.people');
      const format = formatterOf('percent', t.locale);
      const series = [...people].map(([id, name]) => ({
        label: name,
        values: periods.map((p) => {
          const row = p.figures.resources.find((r) => r.resource_id === id);
          return row ? share(row.planned) : null;
        }),
      }));
      made.push({
        title,
        summary: kpiSummary(title, periods, series, format, t),
        periods: labels,
        series,
        format,
        floorOfTop: 1,
        testId: 'kpi-people',
      });
    }
    return made;
  }, [periods, stageId, t]);

  return (
    <section className="view kpi-view" aria-labelledby="kpi-title">
      <div className="view__header">
        <h1 id="kpi-title" className="view__title">
          {t('kpi.title')}
        </h1>
        <BoardPicker />
        {stages.length > 0 && (
          <div className="picker">
            <label htmlFor={scopeId}>{t('kpi.scope')}</label>
            <select id={scopeId} value={stageId} onChange={(event) => setScope(event.target.value)}>
              <option value="">{t('kpi.scope.board')}</option>
              {stages.map((s) => (
                <option key={s.stage_id} value={s.stage_id}>
                  {s.name}
                </option>
              ))}
            </select>
          </div>
        )}
        <button type="button" className="button" disabled={!board || save.isPending} onClick={() => save.mutate()}>
          {t('kpi.saveXlsx')}
        </button>
      </div>
      <p className="muted">
        {t('kpi.intro', { from: formatDay(range.from, t.locale, { day: 'numeric', month: 'short', year: 'numeric' }) })}
      </p>
      {save.isError && (
        <p className="form-error" role="alert">
          {describeError(save.error)}
        </p>
      )}
      {outcome && <SaveMessage outcome={outcome} />}
      {boards.isSuccess && !board && <p className="empty-state">{t('kpi.noBoard')}</p>}
      {kpis.isError && <ErrorNotice error={kpis.error} />}
      {board && kpis.isPending && (
        <p className="muted" role="status">
          {t('common.loading')}
        </p>
      )}
      <div className="kpi-view__charts">
        {shown.map((chart) => (
          <KpiChart key={chart.testId} {...chart} />
        ))}
      </div>
    </section>
  );
}
