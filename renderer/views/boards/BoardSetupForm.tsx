/**
 * Sets up a board: its own settings, its stages, statuses and labels. Everything is saved in
 * one request (see board-draft.ts), so a board is never left half set up. Problems the API
 * finds are shown beside the input they concern; the first such input takes the focus.
 * Escape cancels.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { useFieldWording } from '../../api/field-labels.js';
import { useList, useSave } from '../../api/hooks.js';
import { activityListQuery } from '../../api/queries.js';
import { FormErrors, RecordForm } from '../../components/RecordForm.js';
import { useT } from '../../i18n/index.js';
import { BoardGeneralFields } from './BoardGeneralFields.js';
import { boardBody, boardFormInputs, sameRows, withoutDeletedActivities, type BoardDraft } from './board-draft.js';
import { labelList, stageList, statusList } from './board-lists.js';
import { ListEditor } from './ListEditor.js';

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

  const { byInput, elsewhere } = placeFieldErrors(save.error, boardFormInputs(draft), useFieldWording('board'));

  // After a rejected save, keyboard users land on the first input to correct.
  useEffect(() => {
    if (save.error) form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [save.error]);

  function change(next: BoardDraft) {
    if (save.error && !sameRows(draft, next)) save.reset();
    setDraft(next);
  }

  function submit() {
    const list = activities.data;
    // Only a complete list tells a deleted activity from one beyond the first page.
    const saved = list && list.count <= list.data.length ? withoutDeletedActivities(draft, new Set(list.data.map((a) => a.id))) : draft;
    save.mutate({ id: draft.id, body: boardBody(saved) }, { onSuccess: (board) => onSaved(board.id) });
  }

  return (
    <RecordForm
      formRef={form}
      className="setup-form"
      labelledBy={titleId}
      onSubmit={submit}
      onCancel={onCancel}
      submitLabel={t('boards.save')}
      busy={save.isPending}
    >
      <div className="view__header">
        <h1 id={titleId} className="view__title">
          {initial.id === null ? t('boards.new') : t('boards.setupTitle', { name: initial.name })}
        </h1>
      </div>
      {/* A long form: what belongs to no input is said at its top. */}
      <FormErrors messages={elsewhere} />
      <BoardGeneralFields draft={draft} errors={byInput} onChange={(patch) => change({ ...draft, ...patch })} />
      <ListEditor
        list={stageList(activities.data?.data)}
        rows={draft.stages}
        errors={byInput}
        onChange={(stages) => change({ ...draft, stages })}
      />
      <ListEditor list={statusList} rows={draft.statuses} errors={byInput} onChange={(statuses) => change({ ...draft, statuses })} />
      <ListEditor list={labelList} rows={draft.labels} errors={byInput} onChange={(labels) => change({ ...draft, labels })} />
    </RecordForm>
  );
}
