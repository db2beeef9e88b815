/**
 * The payroll screen (issue 44 §6; docs/API.md "Payroll summary", "Overtime balance"), on the
 * Time screen: for a period, per user, the hours their resource's schedule expects (scheduled
 * less absences), the hours they booked and the difference, their hours per hour code and
 * percentage (the surcharge rules' split), and their overtime balance (opening, change,
 * closing); then the API's PDF, CSV or XLSX of the summary, and the export dialog for the
 * payroll packages' files, opened with the same period. Days are cut in the app's user's time
 * zone, as their week sheet cuts them; the balance in each user's own.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, sendRequest } from '../../api/client.js';
import { useApi } from '../../api/provider.js';
import { useT } from '../../i18n/index.js';
import type { ExportFormat } from '../../../shared/ipc.js';
import type { OvertimeFigures, PayrollFigures, PayrollSummary as Summary } from '../../../shared/payroll-summary.js';
import type { HourCodeTotal } from '../../../shared/time-report.js';
import { formatMinutes } from '../../../shared/time-report.js';
import { useAppUser } from '../app-user/app-user-api.js';
import { exportFileFrom, saveExportFile, type SaveOutcome } from '../time/export-file.js';
import { localToday, periodRange, personTimeZone } from '../time/periods.js';
import { SaveMessage } from '../time/SaveMessage.js';
import { PeriodFields } from '../time/TimeFilterFields.js';
import { useTimeScreen } from '../time/time-screen-state.js';
import { OvertimeCorrectionForm } from './OvertimeCorrectionForm.js';
import { payrollDurations, payrollFileName, payrollQuery, usePayrollSummary, type PayrollChoices } from './payroll-api.js';
import './payroll.css';

const formats: readonly Exclude<ExportFormat, 'txt'>[] = ['pdf', 'csv', 'xlsx'];

/** The figures in the order the table shows them: what is expected, then what was done. */
const figures = ['scheduled_minutes', 'absence_minutes', 'expected_minutes', 'worked_minutes', 'difference_minutes'] as const;

export function PayrollSummary() {
  const t = useT();
  const { transport } = useApi();
  const period = useTimeScreen((state) => state.payrollPeriod);
  const setPeriod = useTimeScreen((state) => state.setPayrollPeriod);
  const openExport = useTimeScreen((state) => state.openExport);
  const appUser = useAppUser();
  const timeZone = personTimeZone(appUser.data?.user);
  const range = periodRange(period.period, localToday(timeZone), { start: period.customStart, end: period.customEnd });
  const choices: PayrollChoices = { range, timeZone, per: 'week' };
  const summary = usePayrollSummary(choices);
  const [outcome, setOutcome] = useState<SaveOutcome | null>(null);

  const save = useMutation({
    mutationFn: async (format: ExportFormat) => {
      setOutcome(null);
      const response = await sendRequest(transport, {
        method: 'GET',
        path: '/v1/time_tracking/payroll',
        query: payrollQuery(choices, format),
      });
      return saveExportFile(exportFileFrom(response, format, payrollFileName(range, format)), format);
    },
    onSuccess: setOutcome,
  });

  return (
    <div className="payroll">
      <div className="payroll__bar">
        <div className="time-filters">
          <PeriodFields period={period} onChange={setPeriod} />
        </div>
        <span className="payroll__spacer" />
        <div className="payroll__files" role="group" aria-label={t('payroll.files')}>
          {formats.map((format) => (
            <button key={format} type="button" className="button" disabled={save.isPending} onClick={() => save.mutate(format)}>
              {t('export.save', { format: t(`format.${format}`) })}
            </button>
          ))}
          <button type="button" className="button button--primary" onClick={() => openExport(period)}>
            {t('payroll.export')}
          </button>
        </div>
      </div>
      {save.isError && (
        <p className="form-error" role="alert">
          {describeError(save.error)}
        </p>
      )}
      {outcome && <SaveMessage outcome={outcome} />}
      {summary.isError ? (
        <p className="form-error" role="alert">
          {describeError(summary.error)}
        </p>
      ) : !summary.data ? (
        <p className="muted" role="status">
          {t('common.loading')}
        </p>
      ) : (
        <>
          <PayrollTable summary={summary.data} />
          <OvertimeCorrectionForm summary={summary.data} day={range.end} />
        </>
      )}
      <p className="muted payroll__hint">{t('payroll.noResourceHint')}</p>
      <p className="muted payroll__hint">{t('payroll.overtimeHint')}</p>
    </div>
  );
}

/** The hour-code columns: every code and percentage any user has, by code (no code last), then percentage. */
function hourCodeColumns(summary: Summary): HourCodeTotal[] {
  const columns = new Map<string, HourCodeTotal>();
  for (const user of summary.users) for (const total of user.hour_codes) columns.set(codeKey(total), { ...total, minutes: 0 });
  return [...columns.values()].sort(
    (a, b) =>
      Number(a.hour_code === null) - Number(b.hour_code === null) ||
      (a.hour_code ?? '').localeCompare(b.hour_code ?? '') ||
      a.percentage - b.percentage,
  );
}

const codeKey = (total: Pick<HourCodeTotal, 'hour_code' | 'percentage'>) => `${total.hour_code ?? ''}\u0000${total.percentage}`;

const balanceFigures = ['opening_minutes', 'change_minutes', 'closing_minutes'] as const;

function PayrollTable({ summary }: { summary: Summary }) {
  const t = useT();
  if (summary.users.length === 0) return <p className="empty-state">{t('payroll.empty')}</p>;
  const codes = hourCodeColumns(summary);
  const codeName = (total: HourCodeTotal) =>
    t('payroll.hourCode', { code: total.hour_code ?? t('payroll.noHourCode'), percentage: String(total.percentage) });
  const codeTotals = new Map<string, number>();
  for (const user of summary.users)
    for (const total of user.hour_codes) codeTotals.set(codeKey(total), (codeTotals.get(codeKey(total)) ?? 0) + total.minutes);
  return (
    <table className="data-table payroll__table" aria-label={t('payroll.title')}>
      <thead>
        <tr>
          <th scope="col" rowSpan={2}>
            {t('payroll.user')}
          </th>
          <th scope="col" rowSpan={2}>
            {t('payroll.resource')}
          </th>
          <td colSpan={figures.length} />
          {codes.length > 0 && (
            <th scope="colgroup" colSpan={codes.length} className="payroll__group">
              {t('payroll.hourCodes')}
            </th>
          )}
          <th scope="colgroup" colSpan={balanceFigures.length} className="payroll__group">
            {t('payroll.overtime')}
          </th>
        </tr>
        <tr>
          {figures.map((figure) => (
            <th key={figure} scope="col" className="payroll__figure">
              {t(`payroll.${figure}`)}
            </th>
          ))}
          {codes.map((total) => (
            <th key={codeKey(total)} scope="col" className="payroll__figure">
              {codeName(total)}
            </th>
          ))}
          {balanceFigures.map((figure) => (
            <th key={figure} scope="col" className="payroll__figure">
              {t(`payroll.${figure}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {summary.users.map((user) => {
          const mine = new Map(user.hour_codes.map((total) => [codeKey(total), total.minutes]));
          return (
            <tr key={user.user_id ?? 'none'}>
              <th scope="row">{user.user_id === null ? t('payroll.noUser') : user.user}</th>
              <td className={user.resource_id ? undefined : 'muted'}>{user.resource_id ? user.resource : t('payroll.noResource')}</td>
              <Figures figures={user} />
              {codes.map((total) => (
                <td key={codeKey(total)} className="payroll__figure">
                  {mine.has(codeKey(total)) ? formatMinutes(mine.get(codeKey(total)) ?? 0, payrollDurations) : ''}
                </td>
              ))}
              <Balance overtime={user.overtime} />
            </tr>
          );
        })}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">{t('payroll.total')}</th>
          <td />
          <Figures figures={summary.totals} />
          {codes.map((total) => (
            <td key={codeKey(total)} className="payroll__figure">
              {formatMinutes(codeTotals.get(codeKey(total)) ?? 0, payrollDurations)}
            </td>
          ))}
          <td colSpan={balanceFigures.length} />
        </tr>
      </tfoot>
    </table>
  );
}

/** A user's overtime balance: opening, change and closing; a dash for a user with none (no resource). */
function Balance({ overtime }: { overtime: OvertimeFigures | null }) {
  const t = useT();
  return (
    <>
      {balanceFigures.map((figure) => (
        <td
          key={figure}
          className={overtime && overtime[figure] < 0 ? 'payroll__figure payroll__figure--short' : 'payroll__figure'}
          data-figure={figure}
        >
          {overtime ? formatMinutes(overtime[figure], payrollDurations) : t('payroll.noBalance')}
        </td>
      ))}
    </>
  );
}

/** Hours as the week sheet writes them; a difference below zero (hours short) stands out. */
function Figures({ figures: values }: { figures: PayrollFigures }) {
  return (
    <>
      {figures.map((figure) => (
        <td
          key={figure}
          className={figure === 'difference_minutes' && values[figure] < 0 ? 'payroll__figure payroll__figure--short' : 'payroll__figure'}
        >
          {formatMinutes(values[figure], payrollDurations)}
        </td>
      ))}
    </>
  );
}
