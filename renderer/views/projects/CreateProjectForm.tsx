/**
 * Adds a project: a name, and optionally the planner's own project code. Problems the API
 * finds with a field (422) are shown next to that field; the inputs clear only once the new
 * project is in the list.
 */
import { useId, useRef, useState, type FormEvent } from 'react';
import { fieldErrors, formErrors } from '../../api/client.js';
import { useCreate } from '../../api/hooks.js';
import { FieldError } from '../../components/FieldError.js';
import { useT } from '../../i18n/index.js';

const shownFields = ['name', 'code'] as const;

export function CreateProjectForm({ paused }: { paused: boolean }) {
  const create = useCreate('project');
  const [name, setName] = useState('');
  const [code, setCode] = useState('');
  const [missingName, setMissingName] = useState(false);
  const nameInput = useRef<HTMLInputElement>(null);
  const ids = { name: useId(), code: useId(), nameError: useId(), codeError: useId() };
  const t = useT();

  // While a project is being renamed its input is labelled "Project name"; this form's inputs
  // step aside (keeping what was typed) so only one "project name" field is on screen and it
  // is always clear which one Enter applies to.
  if (paused) {
    return <p className="create-form create-form--paused muted">{t('projects.paused')}</p>;
  }

  const errors = fieldErrors(create.error);
  const nameError = missingName ? t('projects.nameMissing') : errors.name;

  function clearProblems() {
    setMissingName(false);
    if (create.error) create.reset();
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const trimmedName = name.trim();
    if (!trimmedName) {
      setMissingName(true);
      nameInput.current?.focus();
      return;
    }
    const trimmedCode = code.trim();
    create.mutate(
      { name: trimmedName, ...(trimmedCode ? { code: trimmedCode } : {}) },
      {
        onSuccess: () => {
          setName('');
          setCode('');
          nameInput.current?.focus();
        },
      },
    );
  }

  return (
    <form className="create-form" onSubmit={submit} noValidate>
      <div className="field field--grow">
        <label htmlFor={ids.name}>{t('projects.newName')}</label>
        <input
          id={ids.name}
          ref={nameInput}
          value={name}
          maxLength={150}
          autoComplete="off"
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? ids.nameError : undefined}
          onChange={(event) => {
            setName(event.target.value);
            clearProblems();
          }}
        />
        <FieldError id={ids.nameError} message={nameError} />
      </div>
      <div className="field">
        <label htmlFor={ids.code}>{t('projects.code')}</label>
        <input
          id={ids.code}
          value={code}
          maxLength={100}
          autoComplete="off"
          placeholder={t('common.optional')}
          aria-invalid={errors.code ? true : undefined}
          aria-describedby={errors.code ? ids.codeError : undefined}
          onChange={(event) => {
            setCode(event.target.value);
            clearProblems();
          }}
        />
        <FieldError id={ids.codeError} message={errors.code} />
      </div>
      <button type="submit" className="button button--primary" disabled={create.isPending}>
        {t('projects.create')}
      </button>
      {formErrors(create.error, shownFields).map((message) => (
        <p key={message} className="form-error" role="alert">
          {message}
        </p>
      ))}
    </form>
  );
}
