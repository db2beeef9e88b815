/**
 * Kiosk mode of the floor view (docs/API.md "The floor", docs/decisions/kiosk-pins.md): a
 * planner turns the signed-in tablet into a kiosk for a board or a stage (KioskSetup); then the
 * kiosk lists its operators as big name buttons, an operator types their PIN and works as
 * themself in "My jobs today" until they tap "Done" or leave it untouched for 60 s (KioskScreen).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef, useState, type FormEvent } from 'react';
import { send } from '../api/client.js';
import { ApiRequestError, describeError } from '../api/request-error.js';
import type { Transport } from '../api/transport-types.js';
import { useT } from '../i18n/index.js';
import { createFloorTransport, type SessionHolder } from './floor-transport.js';
import { Jobs, jobsKey, useOutboxSending } from './Jobs.js';
import { createKiosk, kioskOperators, leaveKiosk, unlock, type KioskOperator, type KioskSetting } from './kiosk.js';
import type { Outbox } from './outbox.js';
import { signOut, userOf, type FloorSession } from './session.js';

/** Without a touch for this long, the kiosk ends the operator's sign-in and shows the names again. */
export const kioskIdleMs = 60_000;

interface BoardWithStages {
  id: string;
  name: string;
  stages?: { id: string; name: string }[];
}

/** A planner's choice of board or stage for this tablet's kiosk. */
export function KioskSetup({
  session,
  transport,
  onKiosk,
}: {
  session: FloorSession;
  transport: Transport;
  onKiosk: (kiosk: KioskSetting) => Promise<void>;
}) {
  const t = useT();
  const [target, setTarget] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const boards = useQuery({
    queryKey: ['floor', 'kiosk-boards'],
    queryFn: () =>
      send<{ data: BoardWithStages[] }>(transport, { method: 'GET', path: '/v1/board', query: { with: 'stages', limit: '100' } }),
  });
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const [kind, id] = target.split(':');
    if (!id) return;
    setBusy(true);
    setError(null);
    try {
      await onKiosk(await createKiosk(session, kind === 'stage' ? { stage_id: id } : { board_id: id }));
    } catch (caught) {
      setError(describeError(caught));
      setBusy(false);
    }
  };
  return (
    <form className="floor-kiosk-setup" onSubmit={(e) => void submit(e)} aria-labelledby="floor-kiosk-setup">
      <h2 id="floor-kiosk-setup">{t('floor.kiosk.setup.title')}</h2>
      <p>{t('floor.kiosk.setup.help')}</p>
      <label>
        {t('floor.kiosk.setup.target')}
        <select value={target} onChange={(e) => setTarget(e.target.value)} required>
          <option value="">{t('floor.kiosk.setup.choose')}</option>
          {(boards.data?.data ?? []).map((board) => [
            <option key={board.id} value={`board:${board.id}`}>
              {board.name}
            </option>,
            ...(board.stages ?? []).map((stage) => (
              <option key={stage.id} value={`stage:${stage.id}`}>
                {`${board.name} › ${stage.name}`}
              </option>
            )),
          ])}
        </select>
      </label>
      {error && (
        <p role="alert" className="floor-error">
          {error}
        </p>
      )}
      <button type="submit" className="floor-big" disabled={busy || !target}>
        {t('floor.kiosk.setup.submit')}
      </button>
    </form>
  );
}

/** The kiosk: its operators' names, an operator's PIN, then their jobs until "Done" or 60 s untouched. */
export function KioskScreen({ kiosk, outbox, onLeft }: { kiosk: KioskSetting; outbox: Outbox; onLeft: () => void }) {
  const t = useT();
  const queryClient = useQueryClient();
  const [operator, setOperator] = useState<KioskOperator | null>(null);
  const [session, setSession] = useState<FloorSession | null>(null);
  const sessionRef = useRef(session);
  sessionRef.current = session;

  const done = useMemo(
    () => async () => {
      const ending = sessionRef.current;
      sessionRef.current = null;
      setSession(null);
      setOperator(null);
      // What the operator saw goes with them; their taps still waiting stay in the outbox for their next PIN.
      queryClient.removeQueries({ queryKey: jobsKey });
      if (ending) await signOut(ending).catch(() => undefined);
    },
    [queryClient],
  );
  const holder = useMemo<SessionHolder>(
    () => ({
      current: () => sessionRef.current,
      renewed: (next) => setSession(next),
      ended: () => void done(),
    }),
    [done],
  );
  const transport = useMemo(() => createFloorTransport(holder), [holder]);
  useOutboxSending(outbox, transport, session ? userOf(session) : '');

  // 60 s without a touch (or a key) ends the operator's turn.
  const operatorOn = session !== null;
  useEffect(() => {
    if (!operatorOn) return;
    let timer = setTimeout(() => void done(), kioskIdleMs);
    const touched = () => {
      clearTimeout(timer);
      timer = setTimeout(() => void done(), kioskIdleMs);
    };
    const events = ['pointerdown', 'keydown', 'touchstart'] as const;
    for (const name of events) window.addEventListener(name, touched, { passive: true });
    return () => {
      clearTimeout(timer);
      for (const name of events) window.removeEventListener(name, touched);
    };
  }, [operatorOn, done]);

  if (session && operator) {
    return (
      <>
        <div className="floor-kiosk-operator">
          <p role="status">{t('floor.kiosk.workingAs', { name: operator.name })}</p>
          <button type="button" className="floor-big" onClick={() => void done()}>
            {t('floor.kiosk.done')}
          </button>
        </div>
        <Jobs transport={transport} holder={holder} outbox={outbox} remember={false} />
      </>
    );
  }
  if (operator) {
    return (
      <PinForm
        kiosk={kiosk}
        operator={operator}
        onBack={() => setOperator(null)}
        onOpened={(opened) => {
          sessionRef.current = opened;
          setSession(opened);
        }}
      />
    );
  }
  return <Operators kiosk={kiosk} onChosen={setOperator} onLeft={onLeft} />;
}

function Operators({ kiosk, onChosen, onLeft }: { kiosk: KioskSetting; onChosen: (operator: KioskOperator) => void; onLeft: () => void }) {
  const t = useT();
  const operators = useQuery({ queryKey: ['floor', 'kiosk', kiosk.key], queryFn: () => kioskOperators(kiosk) });
  const [leaving, setLeaving] = useState(false);
  const leave = async () => {
    setLeaving(true);
    await leaveKiosk(kiosk).catch(() => undefined);
    onLeft();
  };
  const revoked = operators.error instanceof ApiRequestError && operators.error.status === 401;
  return (
    <main className="floor-kiosk">
      <h2 id="floor-kiosk-names">{t('floor.kiosk.title', { name: kiosk.name })}</h2>
      {operators.isPending && <p role="status">{t('floor.jobs.loading')}</p>}
      {operators.isError && (
        <p role="alert" className="floor-error">
          {revoked ? t('floor.kiosk.revoked') : describeError(operators.error)}
        </p>
      )}
      {operators.data && operators.data.length === 0 && <p>{t('floor.kiosk.noOperators')}</p>}
      {operators.data && (
        <ul className="floor-kiosk-names" aria-labelledby="floor-kiosk-names">
          {operators.data.map((operator) => (
            <li key={operator.user_id}>
              <button type="button" className="floor-big" disabled={!operator.has_pin} onClick={() => onChosen(operator)}>
                {operator.name}
              </button>
              {!operator.has_pin && <span className="floor-kiosk-nopin">{t('floor.kiosk.noPin')}</span>}
            </li>
          ))}
        </ul>
      )}
      <button type="button" className="floor-link" disabled={leaving} onClick={() => void leave()}>
        {t('floor.kiosk.leave')}
      </button>
    </main>
  );
}

function PinForm({
  kiosk,
  operator,
  onBack,
  onOpened,
}: {
  kiosk: KioskSetting;
  operator: KioskOperator;
  onBack: () => void;
  onOpened: (session: FloorSession) => void;
}) {
  const t = useT();
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      onOpened(await unlock(kiosk, operator.user_id, pin));
    } catch (caught) {
      setPin('');
      const status = caught instanceof ApiRequestError ? caught.status : 0;
      setError(status === 401 ? t('floor.kiosk.pin.wrong') : status === 429 ? t('floor.kiosk.pin.locked') : describeError(caught));
      setBusy(false);
    }
  };
  return (
    <form className="floor-sign-in" onSubmit={(e) => void submit(e)} aria-labelledby="floor-kiosk-pin">
      <h2 id="floor-kiosk-pin">{operator.name}</h2>
      <label>
        {t('floor.kiosk.pin')}
        <input
          type="password"
          inputMode="numeric"
          pattern="[0-9]{4,6}"
          minLength={4}
          maxLength={6}
          autoComplete="off"
          autoFocus
          value={pin}
          onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
          required
        />
      </label>
      {error && (
        <p role="alert" className="floor-error">
          {error}
        </p>
      )}
      <div className="floor-actions">
        <button type="submit" className="floor-big" disabled={busy || pin.length < 4}>
          {t('floor.kiosk.pin.open')}
        </button>
        <button type="button" className="floor-big floor-secondary" onClick={onBack}>
          {t('floor.kiosk.pin.back')}
        </button>
      </div>
    </form>
  );
}

/** The signed-in user's own kiosk PIN (`PUT /v1/floor/pin/{user_id}`): set here, never shown. */
export function OwnPin({ session, transport }: { session: FloorSession; transport: Transport }) {
  const t = useT();
  const [pin, setPin] = useState('');
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setMessage(null);
    try {
      await send(transport, { method: 'PUT', path: `/v1/floor/pin/${encodeURIComponent(userOf(session))}`, body: { pin } });
      setMessage({ ok: true, text: t('floor.kiosk.ownPin.saved') });
      setPin('');
    } catch (caught) {
      setMessage({ ok: false, text: describeError(caught) });
    } finally {
      setBusy(false);
    }
  };
  return (
    <form className="floor-kiosk-setup" onSubmit={(e) => void submit(e)} aria-labelledby="floor-own-pin">
      <h2 id="floor-own-pin">{t('floor.kiosk.ownPin.title')}</h2>
      <label>
        {t('floor.kiosk.ownPin.pin')}
        <input
          type="password"
          inputMode="numeric"
          pattern="[0-9]{4,6}"
          minLength={4}
          maxLength={6}
          autoComplete="new-password"
          value={pin}
          onChange={(e) => setPin(e.target.value.replace(/\D/g, ''))}
          required
        />
      </label>
      {message && (
        <p role={message.ok ? 'status' : 'alert'} className={message.ok ? undefined : 'floor-error'}>
          {message.text}
        </p>
      )}
      <button type="submit" className="floor-big floor-secondary" disabled={busy || pin.length < 4}>
        {t('floor.kiosk.ownPin.save')}
      </button>
    </form>
  );
}
