/**
 * Sets up a board: its own settings, its stages, statuses and labels. Everything is saved in
 * one request (see board-draft.ts), so a board is never left half set up. Problems the API
 * finds are shown beside the input they concern; the first such input takes the focus.
 * Escape cancels.
 */
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { useList, useSave } from '../../api/hooks.js';
import { activityListQuery } from '../../api/queries.js';
import { useT } from '../../i18n/index.js';
import { BoardGeneralFields } from './BoardGeneralFields.js';
import { boardBody, boardFormInputs, sameRows, withoutDeletedActivities, type BoardDraft } from './board-draft.js';
import { LabelsEditor } from './LabelsEditor.js';
import { StagesEditor } from './StagesEditor.js';
import { StatusesEditor } from './StatusesEditor.js';

interface BoardSetupFormProps {
  initial: BoardDraft;
  onSaved: (boardId: string) => void;
  onCancel: () => void;
}

export function BoardSetupForm({ initial, onSaved, onCancel }: BoardSetupFormProps) {
  const save = useSave('board');
  const activities = useList('activity', activityListQuery);
  const [draft, setDraft] = useState(initial);
  const form = useRef<HTMLFormElement>(null);
  const titleId = useId();
  const t = useT();

  const { byInput, elsewhere } = placeFieldErrors(save.error, boardFormInputs(draft));

  // After a rejected save, keyboard users land on the first input to correct.
  useEffect(() => {
    if (save.error) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [save.error]);

  function change(next: BoardDraft) {
    if (save.error && !sameRows(draft, next)) save.reset();
    setDraft(next);
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const list = activities.data;
    // Only a complete list tells a deleted activity from one beyond the first page.
    const saved = list && list.count <= list.data.length ? withoutDeletedActivities(draft, new Set(list.data.map((a) => a.id))) : draft;
    save.mutate({ id: draft.id, body: boardBody(saved) }, { onSuccess: (board) => onSaved(board.id) });
  }

  function cancelOnEscape(event: KeyboardEvent<HTMLFormElement>) {
    if (event.key !== 'Escape') return;
    event.stopPropagation();
    onCancel();
  }

  return (
    <form ref={form} className="setup-form" aria-labelledby={titleId} onSubmit={submit} onKeyDown={cancelOnEscape} noValidate>
      <div className="view__header">
        <h1 id={titleId} className="view__title">
          {initial.id === null ? t('boards.new') : t('boards.setupTitle', { name: initial.name })}
        </h1>
      </div>
      {elsewhere.map((message) => (
        <p key={message} className="form-error" role="alert">
          {message}
        </p>
      ))}
      <BoardGeneralFields draft={draft} errors={byInput} onChange={(patch) => change({ ...draft, ...patch })} />
      <StagesEditor
        stages={draft.stages}
        errors={byInput}
        activities={activities.data?.data}
        onChange={(stages) => change({ ...draft, stages })}
      />
      <StatusesEditor statuses={draft.statuses} errors={byInput} onChange={(statuses) => change({ ...draft, statuses })} />
      <LabelsEditor labels={draft.labels} errors={byInput} onChange={(labels) => change({ ...draft, labels })} />
      <div className="form-actions">
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {t('boards.save')}
        </button>
        <button type="button" className="button" onClick={onCancel}>
          {t('common.cancel')}
        </button>
      </div>
    </form>
  );
}
