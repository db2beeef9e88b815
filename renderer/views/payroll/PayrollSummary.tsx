/**
 * The payroll summary (docs/API.md "Payroll summary"), on the Time screen: for a period, per
 * user, the hours their resource's schedule expects (scheduled less absences), the hours they
 * booked, and the difference; then the API's PDF, CSV or XLSX of the same summary. Days are
 * cut in the app's user's time zone, as their week sheet cuts them.
 *
 * One component, so that a fuller payroll screen (surcharges, per-day detail) can grow from
 * it: the period, the table and the files are its parts.
 */
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { describeError, sendRequest } from '../../api/client.js';
import { useApi } from '../../api/provider.js';
import { useT } from '../../i18n/index.js';
import type { ExportFormat } from '../../../shared/ipc.js';
import type { PayrollFigures, PayrollSummary as Summary } from '../../../shared/payroll-summary.js';
import { formatMinutes } from '../../../shared/time-report.js';
import { useAppUser } from '../app-user/app-user-api.js';
import { exportFileFrom, saveExportFile, type SaveOutcome } from '../time/export-file.js';
import { localToday, periodRange, personTimeZone } from '../time/periods.js';
import { SaveMessage } from '../time/SaveMessage.js';
import { PeriodFields } from '../time/TimeFilterFields.js';
import { useTimeScreen } from '../time/time-screen-state.js';
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
        <PayrollTable summary={summary.data} />
      )}
      <p className="muted payroll__hint">{t('payroll.noResourceHint')}</p>
    </div>
  );
}

function PayrollTable({ summary }: { summary: Summary }) {
  const t = useT();
  if (summary.users.length === 0) return <p className="empty-state">{t('payroll.empty')}</p>;
  return (
    <table className="data-table payroll__table" aria-label={t('payroll.title')}>
      <thead>
        <tr>
          <th scope="col">{t('payroll.user')}</th>
          <th scope="col">{t('payroll.resource')}</th>
          {figures.map((figure) => (
            <th key={figure} scope="col" className="payroll__figure">
              {t(`payroll.${figure}`)}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {summary.users.map((user) => (
          <tr key={user.user_id ?? 'none'}>
            <th scope="row">{user.user_id === null ? t('payroll.noUser') : user.user}</th>
            <td className={user.resource_id ? undefined : 'muted'}>{user.resource_id ? user.resource : t('payroll.noResource')}</td>
            <Figures figures={user} />
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">{t('payroll.total')}</th>
          <td />
          <Figures figures={summary.totals} />
        </tr>
      </tfoot>
    </table>
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
