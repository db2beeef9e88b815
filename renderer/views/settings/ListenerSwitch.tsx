/**
 * The switch of a listener the desktop shell runs (the local API, workshop mode), with what it
 * is doing now and why it did not start; both settings sections show it the same way.
 */
interface ListenerSwitchProps {
  label: string;
  checked: boolean;
  disabled: boolean;
  onFlip(enabled: boolean): void;
  /** "On: …" or "Off", as the listener is now. */
  status: string;
  /** Why it did not start, when it did not; nothing while it runs. */
  didNotStart: string | null;
}

export function ListenerSwitch({ label, checked, disabled, onFlip, status, didNotStart }: ListenerSwitchProps) {
  return (
    <>
      <label className="settings-choice">
        <input type="checkbox" checked={checked} disabled={disabled} onChange={(event) => onFlip(event.target.checked)} />
        <span>{label}</span>
      </label>
      <p className="muted" role="status">
        {status}
      </p>
      {didNotStart && <p className="notice notice--warning">{didNotStart}</p>}
    </>
  );
}
