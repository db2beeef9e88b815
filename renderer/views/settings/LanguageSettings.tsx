/**
 * The language of the app's labels. Kept in this window (localStorage); in the desktop app
 * the menus and dialogs follow too (the shell's own setting).
 */
import { Field } from '../../components/Field.js';
import { languages, useLanguage, useT, type Language } from '../../i18n/index.js';

export function LanguageSettings() {
  const t = useT();
  const language = useLanguage((state) => state.language);
  const setLanguage = useLanguage((state) => state.setLanguage);

  function choose(next: Language) {
    setLanguage(next);
    const bridge = window.planner;
    // The shell's menus speak the same language; failing that is not worth a message here.
    if (bridge && typeof bridge.setShellSettings === 'function') void bridge.setShellSettings({ language: next }).catch(() => undefined);
  }

  return (
    <section className="panel panel--stack settings-section" aria-labelledby="language-title">
      <h2 id="language-title" className="panel__title">
        {t('settings.language')}
      </h2>
      <Field label={t('settings.languageLabel')} className="settings-section__field">
        {(control) => (
          <select {...control} value={language} onChange={(event) => choose(event.target.value as Language)}>
            {languages.map((entry) => (
              <option key={entry.code} value={entry.code} lang={entry.code}>
                {entry.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <p className="muted">{t('settings.languageHint')}</p>
    </section>
  );
}
