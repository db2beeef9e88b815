/**
 * A labelled control with its error under it, wired for assistive technology: the label names
 * the control, the error describes it and marks it invalid. Forms pass the control itself as
 * a function of those attributes, so any input or select fits.
 *
 * Repeated rows (stages, statuses) pass a label with hidden context — `<Hidden>Stage 2 </Hidden>Name`
 * — so every control has a unique name while the row shows only "Name".
 */
import { useId, type ReactNode } from 'react';
import { FieldError } from './FieldError.js';

export interface ControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

interface FieldProps {
  label: ReactNode;
  error?: string | undefined;
  className?: string;
  children: (control: ControlProps) => ReactNode;
}

export function Field({ label, error, className, children }: FieldProps) {
  const id = useId();
  const errorId = useId();
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={id}>{label}</label>
      {children({ id, ...(error ? { 'aria-invalid': true, 'aria-describedby': errorId } : {}) })}
      <FieldError id={errorId} message={error} />
    </div>
  );
}

interface CheckboxFieldProps {
  label: ReactNode;
  checked: boolean;
  onChange: (checked: boolean) => void;
  error?: string | undefined;
}

/** A checkbox with its label after it, as desktop apps draw them. */
export function CheckboxField({ label, checked, onChange, error }: CheckboxFieldProps) {
  const id = useId();
  const errorId = useId();
  return (
    <div className="checkbox-field">
      <input
        id={id}
        type="checkbox"
        checked={checked}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? errorId : undefined}
        onChange={(event) => onChange(event.target.checked)}
      />
      <label htmlFor={id}>{label}</label>
      <FieldError id={errorId} message={error} />
    </div>
  );
}

/** Words a screen reader reads as part of a label, which the layout already makes obvious. */
export function Hidden({ children }: { children: ReactNode }) {
  return <span className="visually-hidden">{children}</span>;
}
