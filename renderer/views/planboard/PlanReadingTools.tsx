/** The toolbar's tools for reading the plan: dependency arrows on or off (DependencyArrows.tsx), and printing it (PrintPlanDialog.tsx). */
import { useT } from '../../i18n/index.js';
import { useArrows } from './arrows-state.js';
import { usePrintPlan } from './print-plan-state.js';

export function PlanReadingTools() {
  const t = useT();
  const setPrintOpen = usePrintPlan((state) => state.setOpen);
  const arrowsShown = useArrows((state) => state.shown);
  const setArrowsShown = useArrows((state) => state.setShown);
  return (
    <>
      <label className="pb-toggle" title={t('arrows.toggleTitle')}>
        <input type="checkbox" checked={arrowsShown} onChange={(event) => setArrowsShown(event.target.checked)} />
        {t('arrows.toggle')}
      </label>
      <button type="button" className="button" onClick={() => setPrintOpen(true)} title={t('print.openTitle')}>
        {t('print.open')}
      </button>
    </>
  );
}
