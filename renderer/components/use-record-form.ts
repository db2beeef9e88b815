/**
 * The state of a form that creates a record, or edits one picked in a list: its draft, the
 * API's problems placed beside their inputs, and saving. After a record is created the form is
 * ready for the next one, since planners often add several in a row.
 */
import { useId, useRef, useState } from 'react';
import { placeFieldErrors } from '../api/client.js';
import { useFieldWording } from '../api/field-labels.js';
import { useSave } from '../api/hooks.js';
import type { ResourceName, WriteBody } from '../api/resources.js';

interface RecordFormOptions<Rec, Draft> {
  /** The record being edited, or undefined to create one. */
  record: Rec | undefined;
  /** The draft of a record being edited; a new record starts from `blank`, and again after a create. */
  draftFrom: (record: Rec) => Draft;
  blank: () => Draft;
  /** The inputs the form shows, by the API field names whose problems they show. */
  inputs: readonly string[];
  /** Runs after a save, and on Cancel. */
  onDone: () => void;
}

export function useRecordForm<R extends ResourceName, Rec extends { id: string }, Draft>(
  resource: R,
  options: RecordFormOptions<Rec, Draft>,
) {
  const { record, draftFrom, blank, inputs, onDone } = options;
  const save = useSave(resource);
  const [draft, setDraft] = useState<Draft>(() => (record ? draftFrom(record) : blank()));
  const { byInput: errors, elsewhere } = placeFieldErrors(save.error, inputs, useFieldWording(resource));
  const isNew = record === undefined;
  const titleId = useId();
  /** The first input: it takes the focus again when the form is ready for the next record. */
  const nameInput = useRef<HTMLInputElement>(null);

  function change(patch: Partial<Draft>) {
    setDraft({ ...draft, ...patch });
  }

  function submit(body: WriteBody<R>) {
    save.mutate(
      { id: record?.id ?? null, body },
      {
        onSuccess: () => {
          if (isNew) {
            setDraft(blank());
            nameInput.current?.focus();
          }
          onDone();
        },
      },
    );
  }

  return {
    draft,
    change,
    submit,
    errors,
    isNew,
    busy: save.isPending,
    nameInput,
    /** What `<RecordForm>` takes of this state, the same in every record form. */
    shell: {
      className: 'record-form',
      wide: true,
      titleId,
      errors: elsewhere,
      /** Creating has nothing to cancel: the form stays for the next record. */
      onCancel: isNew ? undefined : onDone,
    },
  };
}
