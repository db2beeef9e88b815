/**
 * The local API: the Planning API on this computer for other programs (a spreadsheet, a
 * script), off by default; when on, its port and key, and a way to make a new key. Neither
 * the desktop shell nor the API offers switching it yet, so the section shows what it will
 * hold, switched off, and says so.
 */
import { useId } from 'react';
import { useT } from '../../i18n/index.js';

export function LocalApiSettings() {
  const t = useT();
  const noteId = useId();
  return (
    <section className="settings-section settings-section--unavailable" aria-labelledby="local-api-title" aria-describedby={noteId}>
      <h2 id="local-api-title" className="settings-section__title">
        {t('localApi.title')}
      </h2>
      <p id={noteId} className="notice notice--warning">
        {t('localApi.notAvailable')}
      </p>
      <label className="settings-choice">
        <input type="checkbox" disabled checked={false} onChange={() => undefined} />
        <span>{t('localApi.enable')}</span>
      </label>
      <dl className="settings-facts">
        <div>
          <dt>{t('localApi.port')}</dt>
          <dd className="muted">–</dd>
        </div>
        <div>
          <dt>{t('localApi.key')}</dt>
          <dd className="muted">–</dd>
        </div>
      </dl>
      <div className="settings-actions">
        <button type="button" className="button" disabled>
          {t('localApi.regenerate')}
        </button>
      </div>
      <p className="muted">{t('localApi.what')}</p>
    </section>
  );
}
