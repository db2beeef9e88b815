/**
 * The remote this planner syncs with, and how it signs in there: with an account (OAuth in
 * the system browser, which the desktop app does for the page — `window.planner.signIn`) or
 * with an API key and its environment. The key is sent once and never shown again; the API
 * only says whether one is stored.
 */
import { useState, type FormEvent } from 'react';
import { describeError, placeFieldErrors } from '../../api/client.js';
import { Field } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import { remoteUrlProblem } from '../../../shared/sync.js';
import type { SyncSettings } from '../../../shared/operations/sync.js';
import { useSaveSyncSettings, useSyncSettings } from './sync-api.js';

export function ConnectionForm() {
  const settings = useSyncSettings();
  // Here, not in the fields: they start again after a save, and the save's outcome stays.
  const save = useSaveSyncSettings();
  if (settings.isError) {
    return (
      <p className="form-error" role="alert">
        {describeError(settings.error)}
      </p>
    );
  }
  if (!settings.data) return null;
  // Keyed by what is stored, so the inputs start from it again after a save elsewhere.
  return (
    <ConnectionFields
      key={`${settings.data.remote_url}|${settings.data.api_env}|${settings.data.auth}`}
      stored={settings.data}
      save={save}
    />
  );
}

function ConnectionFields({ stored, save }: { stored: SyncSettings; save: ReturnType<typeof useSaveSyncSettings> }) {
  const t = useT();
  const [remoteUrl, setRemoteUrl] = useState(stored.remote_url ?? '');
  const [apiEnv, setApiEnv] = useState(stored.api_env ?? '');
  const [apiKey, setApiKey] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  // Plain http to another computer only by an explicit choice (docs/API.md "An encrypted remote").
  const [allowInsecure, setAllowInsecure] = useState(stored.allow_insecure_http);
  const url = remoteUrl.trim();
  const needsOptIn = url !== '' && remoteUrlProblem(url) !== null && remoteUrlProblem(url, true) === null;
  const placed = placeFieldErrors(save.error, ['remote_url', 'api_env', 'api_key']);

  function submit(event: FormEvent) {
    event.preventDefault();
    setProblem(null);
    if (!url) return setProblem(t('connection.urlRequired'));
    if (needsOptIn && !allowInsecure) return setProblem(t('connection.httpsRequired'));
    if (apiKey && !apiEnv.trim()) return setProblem(t('connection.envRequired'));
    if (!apiKey && !stored.has_credentials) return setProblem(t('connection.keyRequired'));
    save.mutate(
      {
        remote_url: url,
        ...(apiEnv.trim() ? { api_env: apiEnv.trim() } : {}),
        ...(apiKey ? { api_key: apiKey } : {}),
        ...(needsOptIn && allowInsecure ? { allow_insecure_http: true } : {}),
      },
      { onSuccess: () => setApiKey('') },
    );
  }

  return (
    <section className="panel panel--stack" aria-labelledby="connection-title">
      <div className="panel__header">
        <h2 id="connection-title" className="panel__title">
          {t('connection.title')}
        </h2>
        {stored.remote_url && (
          <span className="muted">
            {stored.auth === 'oauth'
              ? t('connection.signedInAccount')
              : stored.has_credentials
                ? t('connection.signedInKey', { env: stored.api_env ?? '' })
                : t('connection.noCredentials')}
          </span>
        )}
      </div>
      <form className="connection-form" onSubmit={submit}>
        <Field label={t('connection.remoteUrl')} error={placed.byInput.remote_url} className="connection-form__url">
          {(control) => (
            <input
              {...control}
              type="url"
              placeholder="https://planner.example.com"
              value={remoteUrl}
              onChange={(event) => setRemoteUrl(event.target.value)}
            />
          )}
        </Field>
        <Field label={t('connection.environment')} error={placed.byInput.api_env}>
          {(control) => <input {...control} autoComplete="off" value={apiEnv} onChange={(event) => setApiEnv(event.target.value)} />}
        </Field>
        <Field label={t('connection.apiKey')} error={placed.byInput.api_key}>
          {(control) => (
            <input
              {...control}
              type="password"
              autoComplete="off"
              placeholder={stored.has_credentials ? t('connection.keyStored') : ''}
              value={apiKey}
              onChange={(event) => setApiKey(event.target.value)}
            />
          )}
        </Field>
        {needsOptIn && (
          <div className="connection-form__wide connection-form__insecure">
            <label>
              <input type="checkbox" checked={allowInsecure} onChange={(event) => setAllowInsecure(event.target.checked)} />{' '}
              {t('connection.allowInsecure')}
            </label>
            <p className="muted">{t('connection.allowInsecureHint')}</p>
          </div>
        )}
        <div className="connection-form__actions">
          <button type="submit" className="button button--primary" disabled={save.isPending}>
            {t('connection.save')}
          </button>
          {stored.remote_url && (
            <button type="button" className="button" disabled={save.isPending} onClick={() => save.mutate({ remote_url: null })}>
              {t('connection.stop')}
            </button>
          )}
        </div>
        {[...(problem ? [problem] : []), ...placed.elsewhere].map((message) => (
          <p key={message} className="form-error connection-form__wide" role="alert">
            {message}
          </p>
        ))}
        {save.isSuccess && !problem && (
          <p className="muted connection-form__wide" role="status">
            {t('connection.saved')}
          </p>
        )}
      </form>
      <AccountSignIn remoteUrl={remoteUrl.trim()} />
    </section>
  );
}

/** Sign-in with an account: only the desktop app can open the system browser for it. */
function AccountSignIn({ remoteUrl }: { remoteUrl: string }) {
  const t = useT();
  const bridge = window.planner;
  const [clientId, setClientId] = useState('');
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ ok: boolean; message: string } | null>(null);

  if (!bridge || typeof bridge.signIn !== 'function') {
    return <p className="muted connection-form__note">{t('connection.signInDesktopOnly')}</p>;
  }
  const signIn = bridge.signIn.bind(bridge);

  async function start() {
    setBusy(true);
    setResult(null);
    try {
      const outcome = await signIn({ remote_url: remoteUrl, client_id: clientId.trim() });
      setResult(
        outcome.status === 'signed-in'
          ? { ok: true, message: t('connection.signedIn', { remote: outcome.remote_url }) }
          : { ok: false, message: outcome.message },
      );
    } catch (error) {
      setResult({ ok: false, message: describeError(error) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <div className="connection-form connection-form--account">
      <Field label={t('connection.clientId')}>
        {(control) => <input {...control} autoComplete="off" value={clientId} onChange={(event) => setClientId(event.target.value)} />}
      </Field>
      <div className="connection-form__actions">
        <button type="button" className="button" disabled={busy || !remoteUrl || !clientId.trim()} onClick={() => void start()}>
          {busy ? t('connection.signingIn') : t('connection.signInAccount')}
        </button>
      </div>
      <p className="muted connection-form__wide">{t('connection.signInHint')}</p>
      {result && (
        <p className={result.ok ? 'muted connection-form__wide' : 'form-error connection-form__wide'} role={result.ok ? 'status' : 'alert'}>
          {result.message}
        </p>
      )}
    </div>
  );
}
