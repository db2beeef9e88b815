/**
 * The floor view (docs/architecture.md "Renderer", docs/API.md "The floor"): sign in, then
 * "My jobs today" (Jobs.tsx); a planner's sign-in may turn the tablet into a kiosk, which then
 * shows the kiosk's screen (Kiosk.tsx) instead.
 */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { describeError } from '../api/request-error.js';
import { languages, useLanguage, useT } from '../i18n/index.js';
import { isLanguage } from '../i18n/languages.js';
import { createFloorTransport, type SessionHolder } from './floor-transport.js';
import { Outbox } from './outbox.js';
import { isPlannerSession, onlyEnvironment, signIn, signOut, storedSession, userOf, type FloorSession } from './session.js';
import { Jobs, useOutboxSending } from './Jobs.js';
import { KioskScreen, KioskSetup, OwnPin } from './Kiosk.js';
import { storedKiosk, type KioskSetting } from './kiosk.js';

export function FloorApp() {
  const t = useT();
  const [session, setSession] = useState<FloorSession | null>(() => storedSession());
  const [ended, setEnded] = useState(false);
  const sessionRef = useRef(session);
  sessionRef.current = session;
  const holder = useMemo<SessionHolder>(
    () => ({
      current: () => sessionRef.current,
      renewed: (next) => setSession(next),
      ended: () => {
        setSession(null);
        setEnded(true);
      },
    }),
    [],
  );
  const transport = useMemo(() => createFloorTransport(holder), [holder]);
  const queryClient = useQueryClient();
  const outbox = useMemo(() => new Outbox(), []);
  const waiting = useSyncExternalStore(
    (listener) => outbox.onChange(listener),
    () => outbox.waiting,
  );
  const refusals = useSyncExternalStore(
    (listener) => outbox.onChange(listener),
    () => outbox.refusals,
  );
  const [leaveProblem, setLeaveProblem] = useState(false);

  const user = session ? userOf(session) : '';
  useOutboxSending(outbox, transport, user);
  const [kiosk, setKiosk] = useState<KioskSetting | null>(() => storedKiosk());

  const leave = async () => {
    // Signing out with taps still on the device would strand them: they go first.
    if (user && (await outbox.count(user)) > 0) {
      setLeaveProblem(true);
      return;
    }
    setLeaveProblem(false);
    if (session) await signOut(session).catch(() => undefined);
    queryClient.clear();
    setSession(null);
  };

  if (kiosk) {
    return (
      <div className="floor">
        <header className="floor-bar">
          <h1>{t('floor.title')}</h1>
          <LanguageSwitch />
        </header>
        <KioskScreen kiosk={kiosk} outbox={outbox} onLeft={() => setKiosk(null)} />
      </div>
    );
  }

  return (
    <div className="floor">
      <header className="floor-bar">
        <h1>{t('floor.title')}</h1>
        <LanguageSwitch />
        {session && (
          <button type="button" className="floor-sign-out" onClick={() => void leave()}>
            {t('floor.signOut')}
          </button>
        )}
      </header>
      {waiting > 0 && (
        <p role="status" className="floor-waiting">
          {t.count('floor.waiting', waiting)}
        </p>
      )}
      {leaveProblem && waiting > 0 && (
        <p role="alert" className="floor-error">
          {t('floor.signOut.waiting')}
        </p>
      )}
      {refusals.length > 0 && (
        <div role="alert" className="floor-refusals">
          <ul>
            {refusals.map((refusal, index) => (
              <li key={index}>{t('floor.refused', { job: refusal.job, action: t(`floor.${refusal.kind}`), message: refusal.message })}</li>
            ))}
          </ul>
          <button type="button" className="floor-secondary" onClick={() => outbox.dismissRefusals()}>
            {t('floor.refused.dismiss')}
          </button>
        </div>
      )}
      {session ? (
        <>
          <Jobs transport={transport} holder={holder} outbox={outbox} />
          <OwnPin session={session} transport={transport} />
          {isPlannerSession(session) && (
            <KioskSetup
              session={session}
              transport={transport}
              onKiosk={async (made) => {
                // The tablet keeps no planner's sign-in: from now on it is the kiosk's.
                await signOut(session).catch(() => undefined);
                queryClient.clear();
                setSession(null);
                setKiosk(made);
              }}
            />
          )}
        </>
      ) : (
        <SignIn
          ended={ended}
          onSignedIn={(next) => {
            setEnded(false);
            setSession(next);
          }}
        />
      )}
    </div>
  );
}

function LanguageSwitch() {
  const { language, setLanguage } = useLanguage();
  return (
    <select
      className="floor-language"
      aria-label="Language / Taal"
      value={language}
      onChange={(e) => {
        if (isLanguage(e.target.value)) setLanguage(e.target.value);
      }}
    >
      {languages.map((l) => (
        <option key={l.code} value={l.code}>
          {l.name}
        </option>
      ))}
    </select>
  );
}

function SignIn({ ended, onSignedIn }: { ended: boolean; onSignedIn: (session: FloorSession) => void }) {
  const t = useT();
  const [environment, setEnvironment] = useState('');
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    void onlyEnvironment().then((name) => {
      if (live && name) setEnvironment((current) => current || name);
    });
    return () => {
      live = false;
    };
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onSignedIn(await signIn(environment.trim(), email.trim(), password));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form className="floor-sign-in" onSubmit={(e) => void submit(e)} aria-labelledby="floor-sign-in-title">
      <h2 id="floor-sign-in-title">{t('floor.signIn.title')}</h2>
      {ended && <p role="status">{t('floor.signIn.ended')}</p>}
      <label>
        {t('floor.signIn.environment')}
        <input value={environment} onChange={(e) => setEnvironment(e.target.value)} autoComplete="organization" required />
      </label>
      <label>
        {t('floor.signIn.email')}
        <input type="email" value={email} onChange={(e) => setEmail(e.target.value)} autoComplete="username" required />
      </label>
      <label>
        {t('floor.signIn.password')}
        <input type="password" value={password} onChange={(e) => setPassword(e.target.value)} autoComplete="current-password" required />
      </label>
      {error && (
        <p role="alert" className="floor-error">
          {error}
        </p>
      )}
      <button type="submit" className="floor-big" disabled={busy}>
        {busy ? t('floor.signIn.busy') : t('floor.signIn.submit')}
      </button>
    </form>
  );
}
