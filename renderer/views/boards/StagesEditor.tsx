/**
 * The stages of a board in its setup form: the planboard's rows, top to bottom. Each has a
 * name, a delay (workdays kept free before the next stage, e.g. drying time), whether it
 * starts with the collection instead of after the previous stage, an efficiency, and the
 * activities allowed in it.
 */
import { useId } from 'react';
import { CheckboxField, Field, Hidden } from '../../components/Field.js';
import { FieldError } from '../../components/FieldError.js';
import { useT } from '../../i18n/index.js';
import type { Activity } from '../../../shared/resources/activity.js';
import { moveItem, newStage, replaceAt, type StageDraft } from './board-draft.js';
import { NewActivityInline } from './NewActivityInline.js';
import { RowControls } from './RowControls.js';

interface StagesEditorProps {
  stages: StageDraft[];
  onChange: (stages: StageDraft[]) => void;
  errors: Record<string, string>;
  /** Every activity there is; undefined while loading. */
  activities: Activity[] | undefined;
}

export function StagesEditor({ stages, onChange, errors, activities }: StagesEditorProps) {
  const titleId = useId();
  const t = useT();
  return (
    <section className="form-section" aria-labelledby={titleId}>
      <h2 id={titleId} className="form-section__title">
        {t('boards.stages')}
      </h2>
      <FieldError id={`${titleId}-error`} message={errors.stages} />
      {stages.length === 0 && <p className="muted">{t('boards.stages.none')}</p>}
      <ol className="row-list">
        {stages.map((stage, index) => (
          <StageRow
            key={stage.key}
            stage={stage}
            index={index}
            count={stages.length}
            errors={errors}
            activities={activities}
            onChange={(patch) => onChange(replaceAt(stages, index, patch))}
            onMove={(to) => onChange(moveItem(stages, index, to))}
            onRemove={() => onChange(stages.filter((_, i) => i !== index))}
          />
        ))}
      </ol>
      <div>
        <button type="button" className="button" onClick={() => onChange([...stages, newStage()])}>
          {t('boards.stages.add')}
        </button>
      </div>
    </section>
  );
}

interface StageRowProps {
  stage: StageDraft;
  index: number;
  count: number;
  errors: Record<string, string>;
  activities: Activity[] | undefined;
  onChange: (patch: Partial<StageDraft>) => void;
  onMove: (to: number) => void;
  onRemove: () => void;
}

function StageRow({ stage, index, count, errors, activities, onChange, onMove, onRemove }: StageRowProps) {
  const t = useT();
  const title = t('boards.stage.place', { number: index + 1 });
  const place = `${title} `;
  const path = `stages.${index}`;
  const activitiesErrorId = useId();

  function toggleActivity(id: string, allowed: boolean) {
    onChange({ activityIds: allowed ? [...stage.activityIds, id] : stage.activityIds.filter((other) => other !== id) });
  }

  return (
    <li className="row-card">
      <div className="row-card__header">
        <span className="row-card__title">{title}</span>
        <RowControls row={t('boards.stage.row', { number: index + 1 })} index={index} count={count} onMove={onMove} onRemove={onRemove} />
      </div>
      <div className="form-grid">
        <Field
          label={
            <>
              <Hidden>{place}</Hidden>
              {t('boards.row.name')}
            </>
          }
          error={errors[`${path}.name`]}
          className="form-grid__wide"
        >
          {(control) => (
            <input
              {...control}
              value={stage.name}
              maxLength={150}
              autoComplete="off"
              // Only a row just added mounts after the form: it takes the focus for typing its name.
              autoFocus={stage.id === null}
              onChange={(event) => onChange({ name: event.target.value })}
            />
          )}
        </Field>
        <Field
          label={
            <>
              <Hidden>{place}</Hidden>
              {t('boards.stage.delayDays')}
            </>
          }
          error={errors[`${path}.delay_day`]}
        >
          {(control) => (
            <input
              {...control}
              type="number"
              min={0}
              max={365}
              step={1}
              value={stage.delay_day}
              onChange={(event) => onChange({ delay_day: event.target.value })}
            />
          )}
        </Field>
        <Field
          label={
            <>
              <Hidden>{place}</Hidden>
              {t('boards.stage.efficiency')}
            </>
          }
          error={errors[`${path}.efficiency`]}
        >
          {(control) => (
            <input
              {...control}
              type="number"
              min={1}
              max={1000}
              step={1}
              value={stage.efficiency}
              onChange={(event) => onChange({ efficiency: event.target.value })}
            />
          )}
        </Field>
        <CheckboxField
          label={
            <>
              <Hidden>{place}</Hidden>
              {t('boards.stage.independent')}
            </>
          }
          checked={stage.independent}
          error={errors[`${path}.independent`]}
          onChange={(independent) => onChange({ independent })}
        />
        <fieldset
          className="checkbox-group form-grid__wide"
          aria-describedby={errors[`${path}.activities`] ? activitiesErrorId : undefined}
        >
          <legend>
            <Hidden>{place}</Hidden>
            {t('boards.stage.activities')}
          </legend>
          {activities === undefined ? (
            <span className="muted">{t('activities.loading')}</span>
          ) : activities.length === 0 ? (
            <span className="muted">{t('boards.stage.noActivities')}</span>
          ) : (
            activities.map((activity) => (
              <CheckboxField
                key={activity.id}
                label={activity.description}
                checked={stage.activityIds.includes(activity.id)}
                onChange={(allowed) => toggleActivity(activity.id, allowed)}
              />
            ))
          )}
          <NewActivityInline place={place} onCreated={(id) => toggleActivity(id, true)} />
          <FieldError id={activitiesErrorId} message={errors[`${path}.activities`]} />
        </fieldset>
      </div>
    </li>
  );
}
