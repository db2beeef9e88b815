/**
 * The state of a form that creates a record, or edits one picked in a list: its draft, the
 * API's problems placed beside their inputs, and saving. After a record is created the form is
 * ready for the next one, since planners often add several in a row.
 */
import { useId, useRef, useState } from 'react';
import { placeFieldErrors } from '../api/client.js';
import { useSave } from '../api/hooks.js';
import type { ResourceName, WriteBody } from '../api/resources.js';

interface RecordFormOptions<Draft> {
  /** The record being edited, or undefined to create one. */
  record: { id: string } | undefined;
  /** The draft the form opens with; `blank` is the one it starts again with after a create. */
  initial: () => Draft;
  blank: () => Draft;
  /** The inputs the form shows, by the API field names whose problems they show. */
  inputs: readonly string[];
  /** Runs after a save, and on Cancel. */
  onDone: () => void;
}

export function useRecordForm<R extends ResourceName, Draft>(resource: R, options: RecordFormOptions<Draft>) {
  const { record, initial, blank, inputs, onDone } = options;
  const save = useSave(resource);
  const [draft, setDraft] = useState<Draft>(initial);
  const { byInput: errors, elsewhere } = placeFieldErrors(save.error, inputs);
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
    elsewhere,
    isNew,
    busy: save.isPending,
    titleId,
    nameInput,
    /** Creating has nothing to cancel: the form stays for the next record. */
    cancel: isNew ? undefined : onDone,
  };
}
