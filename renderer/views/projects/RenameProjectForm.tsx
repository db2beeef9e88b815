/**
 * Renames a project in place: the row's name becomes an input. Enter saves, Escape cancels;
 * the row stays in edit mode until the API has accepted the new name, so a rejected name is
 * still there to correct.
 */
import { useId, useState } from 'react';
import { fieldErrors, formErrors } from '../../api/client.js';
import { useUpdate } from '../../api/hooks.js';
import type { Project } from '../../../shared/resources/index.js';
import { FieldError } from '../../components/FieldError.js';
import { FormErrors, RecordForm } from '../../components/RecordForm.js';
import { useT } from '../../i18n/index.js';

export function RenameProjectForm({ project, onDone }: { project: Project; onDone: () => void }) {
  const update = useUpdate('project');
  const [name, setName] = useState(project.name);
  const [missingName, setMissingName] = useState(false);
  const inputId = useId();
  const errorId = useId();
  const t = useT();

  const nameError = missingName ? t('projects.nameMissing') : fieldErrors(update.error).name;

  function save() {
    const trimmed = name.trim();
    if (!trimmed) {
      setMissingName(true);
      return;
    }
    if (trimmed === project.name) {
      onDone();
      return;
    }
    update.mutate({ id: project.id, changes: { name: trimmed } }, { onSuccess: onDone });
  }

  return (
    <RecordForm
      className="rename-form"
      onSubmit={save}
      onCancel={onDone}
      submitLabel={t('common.save')}
      busy={update.isPending}
      actionsClassName="row-actions"
    >
      <div className="field field--grow">
        <label htmlFor={inputId} className="visually-hidden">
          {t('projects.name')}
        </label>
        <input
          id={inputId}
          value={name}
          maxLength={150}
          autoComplete="off"
          autoFocus
          onFocus={(event) => event.currentTarget.select()}
          aria-invalid={nameError ? true : undefined}
          aria-describedby={nameError ? errorId : undefined}
          onChange={(event) => {
            setName(event.target.value);
            setMissingName(false);
            if (update.error) update.reset();
          }}
        />
        <FieldError id={errorId} message={nameError} />
        <FormErrors messages={formErrors(update.error, ['name'])} />
      </div>
    </RecordForm>
  );
}
