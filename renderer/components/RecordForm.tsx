/**
 * The shell every record form shares: a form the browser does not validate (the API does, and
 * its problems show beside their inputs), Save and Cancel at its foot, and Escape as Cancel.
 * Escape stops at the form: a form inside a panel or a dialog closes itself, not them too.
 */
import type { FormEvent, KeyboardEvent, ReactNode, Ref } from 'react';
import { useT } from '../i18n/index.js';
import { Field } from './Field.js';

interface RecordFormProps {
  /** The layout: `record-form` (a grid of fields), `setup-form`, `rename-form`, … */
  className: string;
  /** A heading inside the form that names it (`record-form__title`). */
  title?: ReactNode;
  titleId?: string;
  /** Names the form when it has no heading of its own. */
  label?: string;
  /** The id of a heading that names the form, when it is not `title`. */
  labelledBy?: string;
  formRef?: Ref<HTMLFormElement>;
  onSubmit: () => void;
  /** Shows Cancel and makes Escape cancel; without it, neither. */
  onCancel?: (() => void) | undefined;
  /** False where Escape must not throw away much typing (a new order with its rows). */
  escapeCancels?: boolean;
  submitLabel: string;
  busy: boolean;
  /** Problems the API found that belong to no input; shown above the buttons. */
  errors?: readonly string[];
  /** The buttons' row: `form-actions` unless told (`row-actions` in a list row). */
  actionsClassName?: string;
  /** In a `record-form` grid: the errors and buttons take a whole line. */
  wide?: boolean;
  children: ReactNode;
}

export function RecordForm(props: RecordFormProps) {
  const {
    className,
    title,
    titleId,
    label,
    labelledBy,
    formRef,
    onSubmit,
    onCancel,
    escapeCancels = true,
    submitLabel,
    busy,
    errors = [],
    wide = false,
  } = props;
  const t = useT();
  const actionsClassName = props.actionsClassName ?? 'form-actions';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    onSubmit();
  }

  function cancelOnEscape(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Escape' || !onCancel || !escapeCancels) return;
    event.stopPropagation();
    onCancel();
  }

  return (
    <form
      ref={formRef}
      className={className}
      aria-label={label}
      aria-labelledby={labelledBy ?? (title === undefined ? undefined : titleId)}
      onSubmit={submit}
      onKeyDown={cancelOnEscape}
      noValidate
    >
      {title !== undefined && (
        <h2 id={titleId} className="record-form__title">
          {title}
        </h2>
      )}
      {props.children}
      <FormErrors messages={errors} className={wide ? 'form-grid__wide' : undefined} />
      <div className={wide ? `${actionsClassName} form-grid__wide` : actionsClassName}>
        <button type="submit" className="button button--primary" disabled={busy}>
          {submitLabel}
        </button>
        {onCancel && (
          <button type="button" className="button" onClick={onCancel}>
            {t('common.cancel')}
          </button>
        )}
      </div>
    </form>
  );
}

/** Problems that belong to no input, each read out as it appears. */
export function FormErrors({ messages, className }: { messages: readonly string[]; className?: string | undefined }) {
  return messages.map((message) => (
    <p key={message} className={className ? `form-error ${className}` : 'form-error'} role="alert">
      {message}
    </p>
  ));
}

interface RecordNameFieldProps {
  label: string;
  error: string | undefined;
  value: string;
  inputRef: Ref<HTMLInputElement>;
  /** Editing: the name takes the focus when the form opens. */
  focus: boolean;
  onChange: (value: string) => void;
}

/** A record's name: the first input of its form, a whole line wide. */
export function RecordNameField({ label, error, value, inputRef, focus, onChange }: RecordNameFieldProps) {
  return (
    <Field label={label} error={error} className="form-grid__wide">
      {(control) => (
        <input
          {...control}
          ref={inputRef}
          value={value}
          maxLength={150}
          autoComplete="off"
          autoFocus={focus}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}
