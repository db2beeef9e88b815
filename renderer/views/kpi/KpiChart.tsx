/**
 * One KPI over the weeks as a uPlot line chart (docs/decisions/kpi-charts.md), with what a
 * screen reader needs beside it: uPlot draws on a canvas, which is not read out, so the chart
 * is a role="img" whose label says the figure's latest value and its trend, and a "Show as
 * table" button (a real button, reached with Tab) shows the same figures as a table.
 *
 * Colours are the theme's (renderer/styles/theme.css), read from the page when the chart is
 * drawn and again when the theme changes; series are told apart by dash as well as by colour.
 */
import { useEffect, useId, useRef, useState } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { useT } from '../../i18n/index.js';

export interface KpiSeries {
  label: string;
  /** One value per period; null where the period has no figure (nothing to divide by). */
  values: (number | null)[];
}

export interface KpiChartProps {
  title: string;
  /** What the chart says, read out in place of the canvas (kpiSummary). */
  summary: string;
  /** The periods' names, under the chart and in the table's first column. */
  periods: string[];
  series: KpiSeries[];
  /** A value as the planner reads it: `50 %`, `3.5`. */
  format(value: number): string;
  /** The least top of the scale: 1 (100 %) for a percentage, so that 50 % sits halfway up. */
  floorOfTop?: number;
  testId: string;
}

/** The theme's colours for the series, in order; each is a custom property of theme.css. */
const seriesColours = ['--color-accent', '--color-warning', '--color-danger', '--color-text-muted', '--color-text'];
const dashes: (number[] | undefined)[] = [undefined, [6, 4], [2, 3], [10, 3, 2, 3], [1, 2]];

/** A custom property's colour as the page resolves it (theme.css writes them with light-dark()). */
function resolvedColour(host: HTMLElement, property: string): string {
  const probe = document.createElement('span');
  probe.style.color = `var(${property})`;
  probe.hidden = true;
  host.append(probe);
  const colour = getComputedStyle(probe).color;
  probe.remove();
  return colour;
}

function drawChart(host: HTMLElement, props: KpiChartProps): uPlot {
  const text = resolvedColour(host, '--color-text-muted');
  const grid = resolvedColour(host, '--color-border');
  const axis = { stroke: text, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid, width: 1 } };
  const options: uPlot.Options = {
    width: Math.max(240, host.clientWidth),
    height: 180,
    legend: { show: false },
    cursor: { drag: { x: false, y: false } },
    scales: {
      x: { time: false },
      y: { range: (_u, min, max) => [Math.min(0, min), Math.max(props.floorOfTop ?? 1, max > 0 ? max * 1.1 : 1)] },
    },
    axes: [
      { ...axis, values: (_u, splits) => splits.map((i) => props.periods[i] ?? '') },
      { ...axis, size: 56, values: (_u, splits) => splits.map((v) => props.format(v)) },
    ],
    series: [
      {},
      ...props.series.map((series, i) => ({
        label: series.label,
        stroke: resolvedColour(host, seriesColours[i % seriesColours.length]!),
        width: 2,
        dash: dashes[i % dashes.length],
        spanGaps: false,
        points: { show: true, size: 7 },
      })),
    ],
  };
  const data: uPlot.AlignedData = [props.periods.map((_p, i) => i), ...props.series.map((series) => series.values)];
  return new uPlot(options, data, host);
}

export function KpiChart(props: KpiChartProps) {
  const t = useT();
  const host = useRef<HTMLDivElement>(null);
  const [asTable, setAsTable] = useState(false);
  const tableId = useId();
  const titleId = useId();

  useEffect(() => {
    const element = host.current;
    if (!element) return;
    let chart = drawChart(element, props);
    // Drawn again in the other theme's colours, and resized with the screen.
    const themeWatch = new MutationObserver(() => {
      chart.destroy();
      chart = drawChart(element, props);
    });
    themeWatch.observe(document.documentElement, { attributes: true, attributeFilter: ['data-theme'] });
    const sizeWatch = new ResizeObserver(() => chart.setSize({ width: Math.max(240, element.clientWidth), height: 180 }));
    sizeWatch.observe(element);
    return () => {
      themeWatch.disconnect();
      sizeWatch.disconnect();
      chart.destroy();
    };
  }, [props]);

  return (
    <section className="kpi-chart panel" aria-labelledby={titleId} data-testid={props.testId}>
      <div className="panel__header">
        <h2 id={titleId} className="panel__title">
          {props.title}
        </h2>
        <button
          type="button"
          className="button"
          aria-expanded={asTable}
          aria-controls={tableId}
          onClick={() => setAsTable((shown) => !shown)}
        >
          {t(asTable ? 'kpi.hideTable' : 'kpi.showTable')}
        </button>
      </div>
      <div className="kpi-chart__canvas" role="img" aria-label={props.summary} ref={host} />
      {props.series.length > 1 && (
        <ul className="kpi-chart__legend" aria-hidden="true">
          {props.series.map((series, i) => (
            <li key={series.label} className={`kpi-chart__key kpi-chart__key--${i % seriesColours.length}`}>
              {series.label}
            </li>
          ))}
        </ul>
      )}
      <div id={tableId} hidden={!asTable}>
        {asTable && (
          <table className="data-table kpi-chart__table">
            <caption className="visually-hidden">{props.title}</caption>
            <thead>
              <tr>
                <th scope="col">{t('kpi.week')}</th>
                {props.series.map((series) => (
                  <th key={series.label} scope="col">
                    {series.label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {props.periods.map((period, p) => (
                <tr key={period}>
                  <th scope="row">{period}</th>
                  {props.series.map((series) => {
                    const value = series.values[p];
                    return <td key={series.label}>{value === null || value === undefined ? '–' : props.format(value)}</td>;
                  })}
                </tr>
              ))}
            </tbody>
          </table>
        )}
      </div>
    </section>
  );
}
