/**
 * What closing the desktop app does while changes still wait to be sent to the server: ask
 * (the default), or send them first and close (electron/main/close-guard.ts). The shell keeps
 * the setting. In the browser host closing the page stops nothing, so there is nothing to choose.
 */
import { useEffect, useState } from 'react';
import { describeError } from '../../api/client.js';
import { useT } from '../../i18n/index.js';
import type { ShellSettings } from '../../../shared/ipc.js';

const choices: readonly ShellSettings['closeWithPending'][] = ['ask', 'sync-first'];

export function ClosingSettings() {
  const t = useT();
  const bridge = window.planner;
  const desktop = Boolean(bridge && typeof bridge.getShellSettings === 'function');
  const [choice, setChoice] = useState<ShellSettings['closeWithPending'] | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    if (!desktop) return;
    bridge!
      .getShellSettings()
      .then((settings) => setChoice(settings.closeWithPending))
      .catch((error: unknown) => setProblem(describeError(error)));
  }, [bridge, desktop]);

  async function choose(next: ShellSettings['closeWithPending']) {
    setProblem(null);
    try {
      setChoice((await bridge!.setShellSettings({ closeWithPending: next })).closeWithPending);
    } catch (error) {
      setProblem(describeError(error));
    }
  }

  return (
    <section className="panel panel--stack settings-section" aria-labelledby="closing-title">
      <h2 id="closing-title" className="panel__title">
        {t('closing.title')}
      </h2>
      {desktop ? (
        <div className="settings-choices" role="radiogroup" aria-label={t('closing.question')}>
          {choices.map((value) => (
            <label key={value} className="settings-choice">
              <input
                type="radio"
                name="close-with-pending"
                value={value}
                checked={choice === value}
                disabled={choice === null}
                onChange={() => void choose(value)}
              />
              <span>{t(`closing.${value}`)}</span>
            </label>
          ))}
        </div>
      ) : (
        <p className="muted">{t('closing.browserHost')}</p>
      )}
      {problem && (
        <p className="form-error" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
