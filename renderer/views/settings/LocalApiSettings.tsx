/**
 * The local API: the Planning API on this computer for other programs (a spreadsheet, a
 * script), off by default. Switched on, it shows the address, the environment to send and
 * when the key was made. The key itself is shown once, right after it is made (the first
 * switch-on, or "Make a new key"), and lives only in this component's state until the planner
 * says they have it: the state from the host never holds it, so a reload cannot bring it back.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../api/client.js';
import { localApiControl } from '../../api/local-api.js';
import { formatDateTime } from '../../components/dates-format.js';
import { Field } from '../../components/Field.js';
import { useT, type Translate } from '../../i18n/index.js';
import {
  isLocalApiPort,
  maxLocalApiPort,
  minLocalApiPort,
  type LocalApiChange,
  type LocalApiOutcome,
  type LocalApiProblem,
  type LocalApiState,
} from '../../../shared/local-api.js';
import { ListenerSwitch } from './ListenerSwitch.js';
import { useListenerSwitch } from './use-listener-switch.js';

const stateKey = ['host', 'local-api'] as const;

function problemText(t: Translate, problem: LocalApiProblem): string {
  if (problem.reason === 'port-in-use') return t('localApi.portInUse', { port: problem.port });
  if (problem.reason === 'port-not-allowed') return t('localApi.portNotAllowed', { port: problem.port });
  return problem.message;
}

export function LocalApiSettings() {
  const t = useT();
  const [control] = useState(localApiControl);
  const query = useQuery({ queryKey: stateKey, queryFn: () => control.state() });
  const state = query.data;
  const [newKey, setNewKey] = useState<string | null>(null);
  const [confirmNewKey, setConfirmNewKey] = useState(false);
  const [portDraft, setPortDraft] = useState('');
  const [portError, setPortError] = useState<string | undefined>();
  const hintId = useId();

  // The field follows the saved port until the planner starts typing another.
  const savedPort = state?.port;
  useEffect(() => {
    if (savedPort !== undefined) setPortDraft(String(savedPort));
  }, [savedPort]);

  const { busy, switching, failure, run, flip } = useListenerSwitch<LocalApiState, LocalApiProblem, LocalApiOutcome>({
    stateKey,
    change: (request) => control.change(request),
    problemText: (problem) => problemText(t, problem),
    onDone: (outcome) => {
      if (outcome.key !== undefined) setNewKey(outcome.key);
    },
  });
  const change = (request: LocalApiChange) => run(() => control.change(request));

  function choosePort(event: FormEvent) {
    event.preventDefault();
    const port = Number(portDraft.trim());
    if (!/^\d+$/.test(portDraft.trim()) || !isLocalApiPort(port)) {
      setPortError(t('localApi.portInvalid', { min: minLocalApiPort, max: maxLocalApiPort }));
      return;
    }
    setPortError(undefined);
    void change({ port });
  }

  function makeNewKey() {
    setConfirmNewKey(false);
    void run(() => control.newKey());
  }

  return (
    <section className="panel panel--stack settings-section local-api" aria-labelledby="local-api-title">
      <h2 id="local-api-title" className="panel__title">
        {t('localApi.title')}
      </h2>
      <p className="muted">{t('localApi.what')}</p>
      {query.isPending && <p className="muted">{t('common.loading')}</p>}
      {query.isError && (
        <p className="form-error" role="alert">
          {t('localApi.readFailed', { message: describeError(query.error) })}
        </p>
      )}
      {state && (
        <>
          <ListenerSwitch
            label={t('localApi.enable')}
            checked={switching ?? state.enabled}
            disabled={busy}
            onFlip={(enabled) => void flip(enabled)}
            status={state.enabled ? t('localApi.on') : t('localApi.off')}
            didNotStart={state.problem && !state.enabled ? t('localApi.didNotStart', { problem: problemText(t, state.problem) }) : null}
          />
          <form className="settings-actions local-api__port" onSubmit={choosePort} noValidate>
            <Field label={t('localApi.port')} error={portError} className="local-api__port-field">
              {(controlProps) => (
                <input
                  {...controlProps}
                  aria-describedby={[controlProps['aria-describedby'], hintId].filter(Boolean).join(' ')}
                  type="text"
                  inputMode="numeric"
                  autoComplete="off"
                  value={portDraft}
                  onChange={(event) => setPortDraft(event.target.value)}
                />
              )}
            </Field>
            <button type="submit" className="button" disabled={busy || portDraft.trim() === String(state.port)}>
              {t('localApi.usePort')}
            </button>
            <p id={hintId} className="muted local-api__hint">
              {t('localApi.portHint', { min: minLocalApiPort, max: maxLocalApiPort })}
            </p>
          </form>
          {failure && (
            <p className="form-error" role="alert">
              {failure}
            </p>
          )}
          <dl className="settings-facts local-api__facts">
            <div>
              <dt>{t('localApi.address')}</dt>
              <dd>{state.url}</dd>
            </div>
            <div>
              <dt>{t('localApi.environment')}</dt>
              <dd>{state.environment}</dd>
            </div>
            <div>
              <dt>{t('localApi.keyMade')}</dt>
              <dd>{state.keyMadeAt ? formatDateTime(state.keyMadeAt, t.locale) : t('localApi.noKey')}</dd>
            </div>
          </dl>
          {newKey !== null && <NewKey apiKey={newKey} state={state} onDone={() => setNewKey(null)} />}
          <div className="settings-actions">
            {confirmNewKey ? (
              <>
                <span>{t('localApi.regenerateQuestion')}</span>
                <button type="button" className="button button--danger" onClick={makeNewKey}>
                  {t('localApi.regenerateConfirm')}
                </button>
                <button type="button" className="button button--quiet" onClick={() => setConfirmNewKey(false)}>
                  {t('common.cancel')}
                </button>
              </>
            ) : (
              <button
                type="button"
                className="button"
                disabled={busy}
                // With no working key there is nothing to revoke, so nothing to confirm.
                onClick={() => (state.keyMadeAt ? setConfirmNewKey(true) : makeNewKey())}
              >
                {state.keyMadeAt ? t('localApi.regenerate') : t('localApi.makeKey')}
              </button>
            )}
          </div>
        </>
      )}
    </section>
  );
}

/** The key, this once, with a copy button and how a program sends it. */
function NewKey({ apiKey, state, onDone }: { apiKey: string; state: LocalApiState; onDone: () => void }) {
  const t = useT();
  const input = useRef<HTMLInputElement>(null);
  const [copy, setCopy] = useState<'copied' | 'failed' | null>(null);
  const titleId = useId();

  async function copyKey() {
    try {
      await navigator.clipboard.writeText(apiKey);
      setCopy('copied');
    } catch {
      // The desktop app grants the page no clipboard permission; a copy from a selection,
      // made during the click, needs none.
      input.current?.select();
      setCopy(document.execCommand('copy') ? 'copied' : 'failed');
    }
  }

  return (
    <div className="local-api__new-key" role="group" aria-labelledby={titleId}>
      <p id={titleId} className="local-api__new-key-title">
        {t('localApi.newKey')}
      </p>
      <div className="settings-actions">
        <input
          ref={input}
          className="local-api__key"
          aria-label={t('localApi.key')}
          readOnly
          value={apiKey}
          spellCheck={false}
          onFocus={(event) => event.target.select()}
        />
        <button type="button" className="button" onClick={() => void copyKey()}>
          {t('localApi.copy')}
        </button>
        <span className={copy === 'failed' ? 'form-error' : 'muted'} role="status">
          {copy === 'copied' ? t('localApi.copied') : copy === 'failed' ? t('localApi.copyFailed') : ''}
        </span>
      </div>
      <p className="notice notice--warning">{t('localApi.shownOnce')}</p>
      <p className="muted">{t('localApi.usage', { environment: state.environment })}</p>
      <code className="local-api__example">{`curl -H 'x-api-env: ${state.environment}' -H 'x-api-key: ${apiKey}' ${state.url}/project`}</code>
      <div className="settings-actions">
        <button type="button" className="button button--primary" onClick={onDone}>
          {t('localApi.keyNoted')}
        </button>
      </div>
    </div>
  );
}
