/**
 * The export dialog: period, grouping (up to three, in order), filters, format (CSV, XLSX,
 * PDF), decimal hours or h:mm, and the time zone days are cut in (the app's user's, as on
 * their week sheet, unless the planner types another). A preview shows the totals
 * of exactly that report before it is saved: hours and the amounts (rate × hours) with their
 * billable part, overall and per group. Save asks the API for the file and hands it to
 * the desktop's save dialog, or downloads it in a browser. "Mark as exported" stamps the
 * report's entries, so the next export with "only not exported" leaves them out.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useState } from 'react';
import { describeError } from '../../api/client.js';
import { useApi } from '../../api/provider.js';
import { CheckboxField, Field } from '../../components/Field.js';
import { Modal } from '../../components/Modal.js';
import { useDebouncedValue } from '../../components/use-debounced-value.js';
import { useT } from '../../i18n/index.js';
import type { ExportFormat } from '../../../shared/ipc.js';
import {
  formatMinutes,
  reportGroupings,
  type DurationFormat,
  type ReportGroup,
  type ReportGrouping,
  type TimeReport,
} from '../../../shared/time-report.js';
import { formatDay } from '../../components/dates-format.js';
import { exportFileFrom, saveExportFile, type SaveOutcome } from './export-file.js';
import { SaveMessage } from './SaveMessage.js';
import {
  cleanGroupings,
  exportFileName,
  exportQuery,
  isPayrollPackage,
  maxGroupings,
  payrollFileName,
  payrollFileQuery,
  payrollSaveFormat,
  reportEntryCount,
  withinOneMonth,
  type DialogFormat,
  type ExportChoices,
} from './export-request.js';
import { payrollPackages } from '../../../shared/payroll-file.js';
import { useAppUser } from '../app-user/app-user-api.js';
import { localToday, periodRange, personTimeZone, rangeInstants } from './periods.js';
import { TimeFilterFields } from './TimeFilterFields.js';
import { sendRequest } from '../../api/client.js';
import { callOperation } from '../../api/commands.js';
import { markExportedOperation } from '../../../shared/operations/time-tracking.js';
import { timeKeys } from './time-api.js';
import { exportFilter, markExportedFilter, noTimeFilters, type PeriodChoice, type TimeFilters } from './time-filters.js';

const formats: readonly Exclude<ExportFormat, 'txt'>[] = ['csv', 'xlsx', 'pdf'];
const previewGroupsShown = 40;

/** `period`: the period it opens with (the payroll screen's); this month when not given. */
export function ExportDialog({ onClose, period }: { onClose(): void; period?: PeriodChoice }) {
  const t = useT();
  const { transport } = useApi();
  const queryClient = useQueryClient();
  const [filters, setFilters] = useState<TimeFilters>({ ...noTimeFilters, period: 'this_month', ...period });
  const [groupBy, setGroupBy] = useState<(ReportGrouping | '')[]>(['days', '', '']);
  const [format, setFormat] = useState<DialogFormat>('csv');
  const [durationFormat, setDurationFormat] = useState<DurationFormat>('decimal');
  // Days are cut where the app's user's days end, as their week sheet cuts them, until the
  // planner types another zone.
  const appUser = useAppUser();
  const [typedZone, setTimeZone] = useState<string | null>(null);
  const timeZone = typedZone ?? personTimeZone(appUser.data?.user);
  const [notExported, setNotExported] = useState(false);
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone'), []);
  const validZone = zones.includes(timeZone) || timeZone === 'UTC';

  const range = periodRange(filters.period, localToday(validZone ? timeZone : 'UTC'), {
    start: filters.customStart,
    end: filters.customEnd,
  });
  const filter = exportFilter({ ...filters, notExported });
  const choices: ExportChoices = { range, groupBy, durationFormat, timeZone, filter };
  // A payroll package's file is one payroll month (docs/API.md "Payroll files").
  const payrollMonthMissing = isPayrollPackage(format) && !withinOneMonth(range);
  const ready = validZone;
  // Typing a time zone or flicking through choices asks for one preview, once they settle.
  const previewQuery = useDebouncedValue(JSON.stringify(exportQuery(choices, 'json')), 300);

  const preview = useQuery({
    queryKey: ['time_tracking', 'report', previewQuery],
    enabled: ready,
    queryFn: async () =>
      (
        await sendRequest(transport, {
          method: 'GET',
          path: '/v1/time_tracking/export',
          query: JSON.parse(previewQuery) as Record<string, string>,
        })
      ).body as TimeReport,
  });

  const save = useMutation({
    mutationFn: async () => {
      setOutcome(null);
      if (isPayrollPackage(format)) {
        const saveAs = payrollSaveFormat(format);
        const file = await sendRequest(transport, {
          method: 'GET',
          path: '/v1/time_tracking/payroll_file',
          query: payrollFileQuery(choices, format),
        });
        return saveExportFile(exportFileFrom(file, saveAs, payrollFileName(range, format)), saveAs);
      }
      const response = await sendRequest(transport, {
        method: 'GET',
        path: '/v1/time_tracking/export',
        query: exportQuery(choices, format),
      });
      return saveExportFile(exportFileFrom(response, format, exportFileName(range, format)), format);
    },
    onSuccess: setOutcome,
  });

  const mark = useMutation({
    mutationFn: async () => {
      const query = { filter: markExportedFilter(filter, rangeInstants(range, timeZone)) };
      return callOperation(transport, markExportedOperation, { query, body: {} });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: timeKeys.all }),
  });
  // A marked report is another report: the note about the last mark goes with it.
  const markReset = mark.reset;
  useEffect(() => markReset(), [filter, range.start, range.end, markReset]);

  const groupings = cleanGroupings(groupBy);
  const report = preview.data;
  // Amounts in the report's currency (rate × hours, added up by the API), as the planner reads money.
  const money = (amount: number) =>
    new Intl.NumberFormat(t.locale, { style: 'currency', currency: report?.currency || 'EUR' }).format(amount);
  const entryCount = report ? reportEntryCount(report) : 0;

  return (
    <Modal title={t('export.title')} closeLabel={t('common.close')} onClose={onClose} className="export-dialog">
      <div className="export-dialog__body">
        <div className="export-dialog__choices">
          <fieldset className="export-dialog__group">
            <legend>{t('export.what')}</legend>
            <div className="time-filters time-filters--stacked">
              <TimeFilterFields
                filters={filters}
                onChange={(key, value) =>
                  setFilters((current) => ({ ...current, [key]: value, ...(key === 'boardId' ? { collectionId: '' } : {}) }))
                }
              />
            </div>
            <CheckboxField label={t('export.notExported')} checked={notExported} onChange={setNotExported} />
          </fieldset>
          <fieldset className="export-dialog__group">
            <legend>{t('export.grouping')}</legend>
            {Array.from({ length: maxGroupings }, (_, level) => (
              <Field key={level} label={level === 0 ? t('export.groupFirst') : t('export.groupThen', { level: level + 1 })}>
                {(control) => (
                  <select
                    {...control}
                    value={groupBy[level] ?? ''}
                    disabled={level > 0 && !groupBy[level - 1]}
                    onChange={(event) => {
                      const next = [...groupBy];
                      next[level] = event.target.value as ReportGrouping | '';
                      // A later level without an earlier one would change the order silently.
                      if (!next[level]) for (let i = level + 1; i < maxGroupings; i++) next[i] = '';
                      setGroupBy(next);
                    }}
                  >
                    <option value="">{t('export.noGrouping')}</option>
                    {reportGroupings.map((grouping) => (
                      <option key={grouping} value={grouping} disabled={groupBy.slice(0, level).includes(grouping)}>
                        {t(`grouping.${grouping}`)}
                      </option>
                    ))}
                  </select>
                )}
              </Field>
            ))}
          </fieldset>
          <fieldset className="export-dialog__group">
            <legend>{t('export.file')}</legend>
            <div className="export-dialog__radios" role="radiogroup" aria-label={t('export.format')}>
              {formats.map((value) => (
                <label key={value} className="export-dialog__radio">
                  <input type="radio" name="export-format" value={value} checked={format === value} onChange={() => setFormat(value)} />
                  {t(`format.${value}`)}
                </label>
              ))}
            </div>
            <div className="export-dialog__radios" role="radiogroup" aria-label={t('export.payrollPackages')}>
              {payrollPackages.map((value) => (
                <label key={value} className="export-dialog__radio">
                  <input type="radio" name="export-format" value={value} checked={format === value} onChange={() => setFormat(value)} />
                  {t(`format.${value}`)}
                </label>
              ))}
            </div>
            {isPayrollPackage(format) && (
              <p className={payrollMonthMissing ? 'form-error' : 'muted'} role={payrollMonthMissing ? 'alert' : undefined}>
                {t(payrollMonthMissing ? 'export.payrollOneMonth' : 'export.payrollHint')}
              </p>
            )}
            <div className="export-dialog__radios" role="radiogroup" aria-label={t('export.durations')}>
              {(['decimal', 'hh:mm'] as const).map((value) => (
                <label key={value} className="export-dialog__radio">
                  <input
                    type="radio"
                    name="export-durations"
                    value={value}
                    checked={durationFormat === value}
                    onChange={() => setDurationFormat(value)}
                  />
                  {t(value === 'decimal' ? 'export.decimal' : 'export.hoursMinutes')}
                </label>
              ))}
            </div>
            <Field label={t('export.timeZone')} error={validZone ? undefined : t('export.badTimeZone')}>
              {(control) => (
                <>
                  <input {...control} list="export-time-zones" value={timeZone} onChange={(event) => setTimeZone(event.target.value)} />
                  <datalist id="export-time-zones">
                    {zones.map((zone) => (
                      <option key={zone} value={zone} />
                    ))}
                  </datalist>
                </>
              )}
            </Field>
          </fieldset>
        </div>

        <section className="export-dialog__preview" aria-labelledby="export-preview-title">
          <h3 id="export-preview-title" className="export-dialog__preview-title">
            {t('export.preview')}
          </h3>
          {preview.isError ? (
            <p className="form-error" role="alert">
              {describeError(preview.error)}
            </p>
          ) : !report ? (
            <p className="muted" role="status">
              {t('export.previewLoading')}
            </p>
          ) : (
            <>
              <p className="export-dialog__total" role="status" aria-label={t('export.total')}>
                <strong>{formatMinutes(report.total_minutes, durationFormat)}</strong>{' '}
                {durationFormat === 'decimal' ? t('export.hours') : ''}
                <strong className="export-dialog__amount"> · {money(report.totals.amount)}</strong>
                <span className="muted"> · {t.count('export.entries', entryCount)}</span>
              </p>
              <p className="muted export-dialog__split" aria-label={t('export.split')}>
                {t('export.billableSplit', {
                  billable: money(report.totals.billable_amount),
                  nonBillable: money(report.totals.non_billable_amount),
                })}
              </p>
              {groupings.length > 0 && <PreviewGroups groups={report.groups} durationFormat={durationFormat} money={money} />}
            </>
          )}
        </section>
      </div>

      {(save.isPending || mark.isPending) && (
        <div className="export-dialog__progress" role="status">
          <progress aria-label={t('export.working')} />
          <span>{save.isPending ? t('export.saving') : t('export.marking')}</span>
        </div>
      )}
      {save.isError && (
        <p className="form-error" role="alert">
          {describeError(save.error)}
        </p>
      )}
      {outcome && <SaveMessage outcome={outcome} />}
      {mark.isError && (
        <p className="form-error" role="alert">
          {describeError(mark.error)}
        </p>
      )}
      {mark.data && (
        <p className="export-dialog__done" role="status">
          {t.count('export.marked', mark.data.count)}
        </p>
      )}

      <div className="export-dialog__actions">
        <button
          type="button"
          className="button"
          disabled={!ready || !report || mark.isPending || save.isPending}
          onClick={() => mark.mutate()}
          title={t('export.markHint')}
        >
          {t('export.markExported')}
        </button>
        <span className="export-dialog__spacer" />
        <button type="button" className="button" onClick={onClose}>
          {t('common.close')}
        </button>
        <button
          type="button"
          className="button button--primary"
          disabled={!ready || payrollMonthMissing || save.isPending}
          onClick={() => save.mutate()}
        >
          {t('export.save', { format: t(`format.${format}`) })}
        </button>
      </div>
    </Modal>
  );
}

function PreviewGroups({
  groups,
  durationFormat,
  money,
  depth = 0,
}: {
  groups: ReportGroup[];
  durationFormat: DurationFormat;
  money(amount: number): string;
  depth?: number;
}) {
  const t = useT();
  const shown = groups.slice(0, previewGroupsShown);
  return (
    <ul className={depth === 0 ? 'export-preview' : 'export-preview export-preview--nested'}>
      {shown.map((group) => (
        <li key={`${group.grouping}-${group.key ?? ''}`}>
          <span className="export-preview__row">
            <span>
              {group.grouping === 'days' && group.key
                ? formatDay(group.key, t.locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' })
                : group.label}
            </span>
            <span className="export-preview__minutes">{formatMinutes(group.minutes, durationFormat)}</span>
            <span className="export-preview__amount">{money(group.amount)}</span>
          </span>
          {group.groups && depth < 1 && (
            <PreviewGroups groups={group.groups} durationFormat={durationFormat} money={money} depth={depth + 1} />
          )}
        </li>
      ))}
      {groups.length > shown.length && <li className="muted">{t.count('export.moreGroups', groups.length - shown.length)}</li>}
    </ul>
  );
}
