/** The board's own settings in its setup form: name, colour, workdays and planning behaviour. */
import { useId } from 'react';
import { BoardColorSelect } from '../../components/BoardColorSelect.js';
import { CheckboxField, Field } from '../../components/Field.js';
import { FieldError } from '../../components/FieldError.js';
import { weekdays } from '../../components/weekdays.js';
import type { BoardDraft, CapacityMethod, DependencyBehavior } from './board-draft.js';

const dependencyChoices: readonly { value: DependencyBehavior; text: string }[] = [
  { value: 'notify', text: 'Notify about broken links' },
  { value: 'push', text: 'Push dependent cards' },
  { value: 'maintain', text: 'Maintain the gaps' },
];

const capacityChoices: readonly { value: CapacityMethod; text: string }[] = [
  { value: 'none', text: 'None' },
  { value: 'individual', text: 'Resource hours' },
  { value: 'estimated_time', text: 'Estimated time' },
  { value: 'remaining_time', text: 'Remaining time' },
];

interface BoardGeneralFieldsProps {
  draft: BoardDraft;
  onChange: (patch: Partial<BoardDraft>) => void;
  errors: Record<string, string>;
}

export function BoardGeneralFields({ draft, onChange, errors }: BoardGeneralFieldsProps) {
  const workdaysErrorId = useId();
  return (
    <div className="form-grid">
      <Field label="Board name" error={errors.name} className="form-grid__wide">
        {(control) => (
          <input
            {...control}
            value={draft.name}
            maxLength={150}
            autoComplete="off"
            autoFocus
            onChange={(event) => onChange({ name: event.target.value })}
          />
        )}
      </Field>
      <Field label="Board color" error={errors.color}>
        {(control) => <BoardColorSelect {...control} value={draft.color} onChange={(color) => onChange({ color })} />}
      </Field>
      <fieldset className="checkbox-group form-grid__wide" aria-describedby={errors.workdays ? workdaysErrorId : undefined}>
        <legend>Workdays</legend>
        {weekdays.map(({ key, name }) => (
          <CheckboxField
            key={key}
            label={name}
            checked={draft.workdays[key]}
            onChange={(checked) => onChange({ workdays: { ...draft.workdays, [key]: checked } })}
          />
        ))}
        <FieldError id={workdaysErrorId} message={errors.workdays} />
      </fieldset>
      <Field label="Dependency behaviour" error={errors.dependency_behavior}>
        {(control) => (
          <select
            {...control}
            value={draft.dependency_behavior}
            onChange={(event) => onChange({ dependency_behavior: event.target.value as DependencyBehavior })}
          >
            {dependencyChoices.map(({ value, text }) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label="Capacity method" error={errors.capacity_method}>
        {(control) => (
          <select
            {...control}
            value={draft.capacity_method}
            onChange={(event) => onChange({ capacity_method: event.target.value as CapacityMethod })}
          >
            {capacityChoices.map(({ value, text }) => (
              <option key={value} value={value}>
                {text}
              </option>
            ))}
          </select>
        )}
      </Field>
      <CheckboxField
        label="Split cards by activity"
        checked={draft.split_cards_by_activity}
        error={errors.split_cards_by_activity}
        onChange={(checked) => onChange({ split_cards_by_activity: checked })}
      />
    </div>
  );
}
