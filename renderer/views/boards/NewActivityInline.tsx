/**
 * "New activity…" inside a stage's allowed activities: the activity a stage needs is made
 * right there (name and default duration) and allowed in the stage at once, instead of the
 * planner leaving the board setup for the Activities screen. It is no form of its own: it
 * sits inside the board's form, so Enter creates the activity instead of saving the board.
 */
import { Plus } from 'lucide-react';
import { useState, type KeyboardEvent } from 'react';
import { fieldErrors, formErrors } from '../../api/client.js';
import { useFieldWording } from '../../api/field-labels.js';
import { useCreate } from '../../api/hooks.js';
import { Hidden } from '../../components/Field.js';
import { useT } from '../../i18n/index.js';
import { RowField } from './list-columns.js';
import './new-activity.css';

interface NewActivityInlineProps {
  /** "Stage 2 ": the hidden words that make each stage's controls' names unique. */
  place: string;
  onCreated: (activityId: string) => void;
}

export function NewActivityInline({ place, onCreated }: NewActivityInlineProps) {
  const t = useT();
  const create = useCreate('activity');
  const wording = useFieldWording('activity');
  const [open, setOpen] = useState(false);
  const [name, setName] = useState('');
  const [minutes, setMinutes] = useState('60');

  if (!open) {
    return (
      <button type="button" className="button button--quiet new-activity__open" onClick={() => setOpen(true)}>
        <Plus aria-hidden="true" size={14} />
        <Hidden>{place}</Hidden>
        {t('stages.newActivity')}
      </button>
    );
  }

  const errors = fieldErrors(create.error, wording);
  const submit = () =>
    create.mutate(
      { description: name.trim(), default_duration: Number(minutes) || 0 },
      {
        onSuccess: (activity) => {
          onCreated(activity.id);
          setName('');
          setOpen(false);
        },
      },
    );
  const onEnter = (event: KeyboardEvent) => {
    if (event.key !== 'Enter') return;
    event.preventDefault();
    submit();
  };

  return (
    <div className="new-activity" role="group" aria-label={`${place}${t('stages.newActivityTitle')}`}>
      <RowField place={place} label={t('stages.newActivityName')} error={errors.description}>
        {(control) => (
          <input
            {...control}
            value={name}
            maxLength={150}
            autoComplete="off"
            autoFocus
            onKeyDown={onEnter}
            onChange={(event) => setName(event.target.value)}
          />
        )}
      </RowField>
      <RowField place={place} label={t('stages.newActivityDuration')} error={errors.default_duration}>
        {(control) => (
          <input
            {...control}
            type="number"
            min={0}
            step={1}
            value={minutes}
            onKeyDown={onEnter}
            onChange={(event) => setMinutes(event.target.value)}
          />
        )}
      </RowField>
      <div className="new-activity__actions">
        <button type="button" className="button button--primary" disabled={create.isPending} onClick={submit}>
          {t('stages.newActivityCreate')}
        </button>
        <button type="button" className="button" onClick={() => setOpen(false)}>
          {t('common.cancel')}
        </button>
      </div>
      {formErrors(create.error, ['description', 'default_duration']).map((message) => (
        <p key={message} className="field-error" role="alert">
          {message}
        </p>
      ))}
    </div>
  );
}
