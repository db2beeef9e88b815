/** The toolbar's tools for reading the plan: print it (PrintPlanDialog.tsx). */
import { useT } from '../../i18n/index.js';
import { usePrintPlan } from './print-plan-state.js';

export function PlanReadingTools() {
  const t = useT();
  const setPrintOpen = usePrintPlan((state) => state.setOpen);
  return (
    <button type="button" className="button" onClick={() => setPrintOpen(true)} title={t('print.openTitle')}>
      {t('print.open')}
    </button>
  );
}
