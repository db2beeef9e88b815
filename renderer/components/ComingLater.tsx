/** Stands in for a screen that is not built yet, saying what it will be for. */
import { useT } from '../i18n/index.js';
import type { ViewEntry } from '../views/catalog.js';

export function ComingLater({ view }: { view: ViewEntry }) {
  const t = useT();
  return (
    <section className="view" aria-labelledby={`${view.name}-title`}>
      <h1 id={`${view.name}-title`} className="view__title">
        {t(view.titleKey)}
      </h1>
      <div className="placeholder">
        <p>{t(view.purposeKey)}</p>
        <p className="muted">{t('common.comingLater')}</p>
      </div>
    </section>
  );
}
