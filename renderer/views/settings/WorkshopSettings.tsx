/**
 * Workshop mode (shared/workshop.ts, docs/decisions/workshop-mode.md): the desktop app serves the
 * floor view to paired devices on the workshop network. Off by default. Switched on, it shows
 * where devices open it, the certificate's fingerprint to check there, a pairing code to type
 * on a device (with a QR code of the same), and the paired devices with their last use, each
 * revocable at once. Only the desktop shell has it: the state comes through its channels, and
 * never holds a device's key.
 */
import { useEffect, useId, useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../api/client.js';
import { formatDateTime } from '../../components/dates-format.js';
import { Field } from '../../components/Field.js';
import { useT, type Translate } from '../../i18n/index.js';
import type { PlannerBridge } from '../../../shared/ipc.js';
import {
  isWorkshopHost,
  isWorkshopPort,
  maxWorkshopPort,
  minWorkshopPort,
  type WorkshopChange,
  type WorkshopOutcome,
  type WorkshopProblem,
  type WorkshopState,
} from '../../../shared/workshop.js';
import { ListenerSwitch } from './ListenerSwitch.js';
import { QrCode } from './QrCode.js';
import { useListenerSwitch } from './use-listener-switch.js';

const stateKey = ['host', 'workshop'] as const;

function problemText(t: Translate, problem: WorkshopProblem): string {
  if (problem.reason === 'port-in-use') return t('workshop.portInUse', { port: problem.port });
  if (problem.reason === 'port-not-allowed') return t('workshop.portNotAllowed', { port: problem.port });
  if (problem.reason === 'address-not-available') return t('workshop.addressNotAvailable');
  return problem.message;
}

export function WorkshopSettings() {
  const t = useT();
  const bridge = window.planner;
  const desktop = Boolean(bridge && typeof bridge.getWorkshop === 'function');
  return (
    <section className="panel panel--stack settings-section workshop" aria-labelledby="workshop-title">
      <h2 id="workshop-title" className="panel__title">
        {t('workshop.title')}
      </h2>
      <p className="muted">{t('workshop.what')}</p>
      {desktop ? <WorkshopControls bridge={bridge!} /> : <p className="muted">{t('workshop.desktopOnly')}</p>}
    </section>
  );
}

function WorkshopControls({ bridge }: { bridge: PlannerBridge }) {
  const t = useT();
  const query = useQuery({
    queryKey: stateKey,
    queryFn: () => bridge.getWorkshop(),
    // While a code is on screen a device may pair at any moment: look again now and then, so it
    // shows in the list (the shell sends no event for it).
    refetchInterval: (current) => (current.state.data?.pairing ? 3000 : false),
  });
  const state = query.data;
  const [hostDraft, setHostDraft] = useState('');
  const [portDraft, setPortDraft] = useState('');
  const [hostError, setHostError] = useState<string | undefined>();
  const [portError, setPortError] = useState<string | undefined>();
  const hintId = useId();

  const savedHost = state?.host;
  const savedPort = state?.port;
  useEffect(() => {
    if (savedHost !== undefined) setHostDraft(savedHost);
  }, [savedHost]);
  useEffect(() => {
    if (savedPort !== undefined) setPortDraft(String(savedPort));
  }, [savedPort]);

  const { busy, switching, failure, run, flip } = useListenerSwitch<WorkshopState, WorkshopProblem, WorkshopOutcome>({
    stateKey,
    change: (request) => bridge.changeWorkshop(request),
    problemText: (problem) => problemText(t, problem),
  });
  const change = (request: WorkshopChange) => run(() => bridge.changeWorkshop(request));

  function chooseAddress(event: FormEvent) {
    event.preventDefault();
    const host = hostDraft.trim();
    const port = Number(portDraft.trim());
    const hostOk = isWorkshopHost(host);
    const portOk = /^\d+$/.test(portDraft.trim()) && isWorkshopPort(port);
    setHostError(hostOk ? undefined : t('workshop.hostInvalid'));
    setPortError(portOk ? undefined : t('workshop.portInvalid', { min: minWorkshopPort, max: maxWorkshopPort }));
    if (hostOk && portOk) void change({ host, port });
  }

  if (query.isPending) return <p className="muted">{t('common.loading')}</p>;
  if (!state)
    return (
      <p className="form-error" role="alert">
        {t('workshop.readFailed', { message: describeError(query.error) })}
      </p>
    );

  return (
    <>
      <ListenerSwitch
        label={t('workshop.enable')}
        checked={switching ?? state.enabled}
        disabled={busy}
        onFlip={(enabled) => void flip(enabled)}
        status={state.enabled ? t('workshop.on') : t('workshop.off')}
        didNotStart={state.problem && !state.enabled ? t('workshop.didNotStart', { problem: problemText(t, state.problem) }) : null}
      />
      <form className="settings-actions workshop__address" onSubmit={chooseAddress} noValidate>
        <Field label={t('workshop.host')} error={hostError} className="workshop__host-field">
          {(controlProps) => (
            <input
              {...controlProps}
              aria-describedby={[controlProps['aria-describedby'], hintId].filter(Boolean).join(' ')}
              type="text"
              autoComplete="off"
              spellCheck={false}
              value={hostDraft}
              onChange={(event) => setHostDraft(event.target.value)}
            />
          )}
        </Field>
        <Field label={t('workshop.port')} error={portError} className="workshop__port-field">
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
        <button
          type="submit"
          className="button"
          disabled={busy || (hostDraft.trim() === state.host && portDraft.trim() === String(state.port))}
        >
          {t('workshop.use')}
        </button>
        <p id={hintId} className="muted workshop__hint">
          {t('workshop.hint', { min: minWorkshopPort, max: maxWorkshopPort })}
        </p>
      </form>
      {failure && (
        <p className="form-error" role="alert">
          {failure}
        </p>
      )}
      {state.enabled && (
        <>
          <dl className="settings-facts workshop__facts">
            <div>
              <dt>{t('workshop.addresses')}</dt>
              <dd>
                {state.addresses.length === 0
                  ? t('workshop.noAddresses')
                  : state.addresses.map((address) => (
                      <code key={address} className="workshop__address-line">
                        {address}
                      </code>
                    ))}
              </dd>
            </div>
            <div>
              <dt>{t('workshop.fingerprint')}</dt>
              <dd>
                <code className="workshop__fingerprint">{state.fingerprint}</code>
              </dd>
            </div>
          </dl>
          <p className="muted">{t('workshop.fingerprintHint')}</p>
          <div className="workshop__pairing" role="group" aria-labelledby="workshop-pair-title">
            <h3 id="workshop-pair-title" className="workshop__subtitle">
              {t('workshop.pairTitle')}
            </h3>
            {state.pairing && (
              <div className="workshop__code-block">
                <div>
                  <p>{t('workshop.pairHow', { time: formatDateTime(state.pairing.expiresAt, t.locale) })}</p>
                  <p className="workshop__code" aria-label={t('workshop.code')}>
                    {state.pairing.code}
                  </p>
                </div>
                <QrCode text={state.pairing.url} label={t('workshop.qr')} />
              </div>
            )}
            <div className="settings-actions">
              <button type="button" className="button" disabled={busy} onClick={() => void run(() => bridge.newPairingCode())}>
                {state.pairing ? t('workshop.anotherCode') : t('workshop.newCode')}
              </button>
            </div>
          </div>
        </>
      )}
      <h3 className="workshop__subtitle">{t('workshop.devices')}</h3>
      {state.devices.length === 0 ? (
        <p className="muted">{t('workshop.noDevices')}</p>
      ) : (
        <table className="workshop__devices">
          <thead>
            <tr>
              <th scope="col">{t('workshop.deviceName')}</th>
              <th scope="col">{t('workshop.pairedAt')}</th>
              <th scope="col">{t('workshop.lastUsed')}</th>
              <th scope="col">
                <span className="visually-hidden">{t('workshop.revoke')}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {state.devices.map((device) => (
              <tr key={device.id}>
                <td>{device.name}</td>
                <td>{formatDateTime(device.pairedAt, t.locale)}</td>
                <td>{device.lastUsedAt ? formatDateTime(device.lastUsedAt, t.locale) : t('workshop.neverUsed')}</td>
                <td>
                  <button
                    type="button"
                    className="button button--danger"
                    disabled={busy}
                    aria-label={t('workshop.revokeLabel', { name: device.name })}
                    onClick={() => void run(() => bridge.revokeDevice(device.id))}
                  >
                    {t('workshop.revoke')}
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
