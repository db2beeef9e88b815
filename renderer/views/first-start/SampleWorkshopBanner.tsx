/**
 * While the sample workshop is loaded, every screen says so, with the one step that removes
 * it (docs/API.md "Sample workshop"): the planner never mistakes the example for real work.
 */
import { FlaskConical } from 'lucide-react';
import { ErrorNotice } from '../../components/ErrorNotice.js';
import { useT } from '../../i18n/index.js';
import './first-start.css';
import { useRemoveSampleWorkshop, useSampleWorkshop } from './sample-workshop-api.js';

export function SampleWorkshopBanner() {
  const t = useT();
  const sample = useSampleWorkshop();
  const remove = useRemoveSampleWorkshop();
  if (!sample.data?.loaded) return null;
  return (
    <div className="screen-banner sample-banner" role="region" aria-label={t('sample.title')}>
      <FlaskConical aria-hidden="true" size={16} />
      <strong>{t('sample.title')}</strong>
      <span className="screen-banner__text">{t('sample.text')}</span>
      <button type="button" className="button" disabled={remove.isPending} onClick={() => remove.mutate()}>
        {t('sample.remove')}
      </button>
      {remove.error && <ErrorNotice error={remove.error} />}
    </div>
  );
}
