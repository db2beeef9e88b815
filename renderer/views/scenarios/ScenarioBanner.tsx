/**
 * While a scenario is open, every screen says so (every screen shows the scenario's copy of the
 * plan), with the comparison that leads to promoting it and the way back to the live plan.
 */
import { FlaskConical } from 'lucide-react';
import { useState } from 'react';
import { useT } from '../../i18n/index.js';
import { useNotices } from '../../state/notices.js';
import { useScenarioStore } from '../../state/scenario.js';
import { ScenarioCompareDialog } from './ScenarioCompareDialog.js';
import './scenarios.css';

export function ScenarioBanner() {
  const t = useT();
  const current = useScenarioStore((state) => state.current);
  const leave = useScenarioStore((state) => state.leave);
  const notify = useNotices((state) => state.notify);
  const [comparing, setComparing] = useState(false);
  if (!current) return null;
  return (
    <div className="screen-banner scenario-banner" role="region" aria-label={t('scenarios.banner')}>
      <FlaskConical aria-hidden="true" size={16} />
      <strong>{current.name}</strong>
      <span className="screen-banner__text">{t('scenarios.bannerText', { name: current.name })}</span>
      <button type="button" className="button" onClick={() => setComparing(true)}>
        {t('scenarios.compare')}
      </button>
      <button
        type="button"
        className="button"
        onClick={() => {
          leave();
          notify(t('scenarios.backed', { name: current.name }));
        }}
      >
        {t('scenarios.backToLive')}
      </button>
      {comparing && <ScenarioCompareDialog scenario={current} onClose={() => setComparing(false)} />}
    </div>
  );
}
