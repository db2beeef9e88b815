/**
 * The Time screen: the week timesheet, the entries list and the payroll summary as tabs, and
 * the export dialog. The timer itself is in the top bar (MyTimer), on every screen.
 */
import { Notices } from '../../components/Notices.js';
import { useT } from '../../i18n/index.js';
import { PayrollSummary } from '../payroll/PayrollSummary.js';
import { EntriesList } from './EntriesList.js';
import { ExportDialog } from './ExportDialog.js';
import { useTimeScreen, type TimeTab } from './time-screen-state.js';
import { WeekSheet } from './WeekSheet.js';
import './time.css';

const tabs: readonly TimeTab[] = ['week', 'entries', 'payroll'];

export function TimeView() {
  const t = useT();
  const tab = useTimeScreen((state) => state.tab);
  const showTab = useTimeScreen((state) => state.showTab);
  const exportOpen = useTimeScreen((state) => state.exportOpen);
  const openExport = useTimeScreen((state) => state.openExport);
  const closeExport = useTimeScreen((state) => state.closeExport);
  const exportPeriod = useTimeScreen((state) => state.exportPeriod);

  return (
    <section className="view view--wide time-view" aria-labelledby="time-title">
      <div className="view__header time-view__header">
        <h1 id="time-title" className="view__title">
          {t('nav.time')}
        </h1>
        <div className="time-view__tabs" role="tablist" aria-label={t('time.tabs')}>
          {tabs.map((name) => (
            <button
              key={name}
              id={`time-tab-${name}`}
              type="button"
              role="tab"
              aria-selected={tab === name}
              aria-controls={`time-panel-${name}`}
              className="time-view__tab"
              onClick={() => showTab(name)}
            >
              {t(`time.tab.${name}`)}
            </button>
          ))}
        </div>
        <span className="time-view__spacer" />
        <button type="button" className="button" onClick={() => openExport()}>
          {t('time.export')}
        </button>
      </div>
      <div id={`time-panel-${tab}`} role="tabpanel" aria-labelledby={`time-tab-${tab}`} className="time-view__panel">
        {tab === 'week' ? <WeekSheet /> : tab === 'entries' ? <EntriesList /> : <PayrollSummary />}
      </div>
      {exportOpen && <ExportDialog onClose={closeExport} period={exportPeriod ?? undefined} />}
      <Notices />
    </section>
  );
}
