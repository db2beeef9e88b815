/** Theme: follow the operating system (the default), or always light, or always dark. */
import { useT } from '../../i18n/index.js';
import { themePreferences, useThemePreference } from './theme.js';

export function AppearanceSettings() {
  const t = useT();
  const preference = useThemePreference((state) => state.preference);
  const setPreference = useThemePreference((state) => state.setPreference);
  return (
    <section className="panel panel--stack settings-section" aria-labelledby="appearance-title">
      <h2 id="appearance-title" className="panel__title">
        {t('settings.appearance')}
      </h2>
      <div className="settings-choices" role="radiogroup" aria-label={t('settings.theme')}>
        {themePreferences.map((value) => (
          <label key={value} className="settings-choice">
            <input type="radio" name="theme" value={value} checked={preference === value} onChange={() => setPreference(value)} />
            <span>{t(`settings.theme.${value}`)}</span>
          </label>
        ))}
      </div>
      <p className="muted">{t('settings.themeHint')}</p>
    </section>
  );
}
