/**
 * A new collection in the backlog: a name, a due date and the work it needs — activities with
 * minutes. Problems the API finds show beside their inputs.
 */
import { useState } from 'react';
import { placeFieldErrors } from '../../api/client.js';
import { useCreate, useList } from '../../api/hooks.js';
import { activityListQuery } from '../../api/queries.js';
import { Field, Hidden } from '../../components/Field.js';
import { RecordForm } from '../../components/RecordForm.js';
import { useT } from '../../i18n/index.js';

interface CreateCollectionFormProps {
  boardId: string;
  onDone: () => void;
}

const inputs = ['name', 'due_date', 'activities'];

export function CreateCollectionForm({ boardId, onDone }: CreateCollectionFormProps) {
  const t = useT();
  const create = useCreate('collection');
  const activities = useList('activity', activityListQuery);
  const [name, setName] = useState('');
  const [dueDate, setDueDate] = useState('');
  /** Activity id → minutes as typed; present means picked. */
  const [minutes, setMinutes] = useState<Record<string, string>>({});
  const { byInput: errors, elsewhere } = placeFieldErrors(create.error, inputs);

  function submit() {
    create.mutate(
      {
        name,
        board_id: boardId,
        due_date: dueDate || null,
        activities: Object.entries(minutes).map(([id, time]) => ({ id, time: Math.max(0, Math.round(Number(time) || 0)) })),
      },
      { onSuccess: onDone },
    );
  }

  const list = activities.data?.data ?? [];
  return (
    <RecordForm
      className="pb-new-collection"
      label={t('backlog.newCollection')}
      onSubmit={submit}
      onCancel={onDone}
      submitLabel={t('backlog.form.add')}
      busy={create.isPending}
      errors={elsewhere}
    >
      <Field label={t('backlog.form.name')} error={errors.name}>
        {(control) => (
          <input {...control} value={name} maxLength={255} autoFocus autoComplete="off" onChange={(event) => setName(event.target.value)} />
        )}
      </Field>
      <Field label={t('backlog.form.dueDate')} error={errors.due_date}>
        {(control) => <input {...control} type="date" value={dueDate} onChange={(event) => setDueDate(event.target.value)} />}
      </Field>
      <fieldset className="pb-new-collection__activities">
        <legend>{t('backlog.form.activities')}</legend>
        {list.length === 0 && <p className="muted">{t('backlog.form.noActivities')}</p>}
        {list.map((activity) => {
          const picked = activity.id in minutes;
          return (
            <div key={activity.id} className="pb-activity-pick">
              <label>
                <input
                  type="checkbox"
                  checked={picked}
                  onChange={(event) => {
                    const next = { ...minutes };
                    if (event.target.checked) next[activity.id] = String(activity.default_duration || 60);
                    else delete next[activity.id];
                    setMinutes(next);
                  }}
                />
                {activity.description}
              </label>
              {picked && (
                <label className="pb-activity-pick__minutes">
                  <input
                    type="number"
                    min={0}
                    step={15}
                    value={minutes[activity.id]}
                    onChange={(event) => setMinutes({ ...minutes, [activity.id]: event.target.value })}
                  />
                  <span>
                    {t('backlog.form.minutes')}
                    <Hidden> {t('backlog.form.minutesOf', { activity: activity.description })}</Hidden>
                  </span>
                </label>
              )}
            </div>
          );
        })}
        {errors.activities && <p className="field-error">{errors.activities}</p>}
      </fieldset>
    </RecordForm>
  );
}
