/** The board's own settings in its setup form: name, colour, workdays and planning behaviour. */
import { useId } from 'react';
import { BoardColorSelect } from '../../components/BoardColorSelect.js';
import { CheckboxField, Field } from '../../components/Field.js';
import { FieldError } from '../../components/FieldError.js';
import { weekdays } from '../../components/weekdays.js';
import { useT } from '../../i18n/index.js';
import { capacityMethods, dependencyBehaviors } from '../../../shared/resources/board.js';
import type { BoardDraft, CapacityMethod, DependencyBehavior } from './board-draft.js';

interface BoardGeneralFieldsProps {
  draft: BoardDraft;
  onChange: (patch: Partial<BoardDraft>) => void;
  errors: Record<string, string>;
}

export function BoardGeneralFields({ draft, onChange, errors }: BoardGeneralFieldsProps) {
  const workdaysErrorId = useId();
  const t = useT();
  return (
    <div className="form-grid">
      <Field label={t('boards.name')} error={errors.name} className="form-grid__wide">
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
      <Field label={t('boards.color')} error={errors.color}>
        {(control) => <BoardColorSelect {...control} value={draft.color} onChange={(color) => onChange({ color })} />}
      </Field>
      <fieldset className="checkbox-group form-grid__wide" aria-describedby={errors.workdays ? workdaysErrorId : undefined}>
        <legend>{t('boards.workdays')}</legend>
        {weekdays.map(({ key, nameKey }) => (
          <CheckboxField
            key={key}
            label={t(nameKey)}
            checked={draft.workdays[key]}
            onChange={(checked) => onChange({ workdays: { ...draft.workdays, [key]: checked } })}
          />
        ))}
        <FieldError id={workdaysErrorId} message={errors.workdays} />
      </fieldset>
      <Field label={t('boards.dependencyBehavior')} error={errors.dependency_behavior}>
        {(control) => (
          <select
            {...control}
            value={draft.dependency_behavior}
            onChange={(event) => onChange({ dependency_behavior: event.target.value as DependencyBehavior })}
          >
            {dependencyBehaviors.map((behavior) => (
              <option key={behavior} value={behavior}>
                {t(`boards.dependency.${behavior}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t('boards.capacityMethod')} error={errors.capacity_method}>
        {(control) => (
          <select
            {...control}
            value={draft.capacity_method}
            onChange={(event) => onChange({ capacity_method: event.target.value as CapacityMethod })}
          >
            {capacityMethods.map((method) => (
              <option key={method} value={method}>
                {t(`boards.capacity.${method}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
      <CheckboxField
        label={t('boards.splitByActivity')}
        checked={draft.split_cards_by_activity}
        error={errors.split_cards_by_activity}
        onChange={(checked) => onChange({ split_cards_by_activity: checked })}
      />
      <CheckboxField
        label={t('boards.ownBacklog')}
        checked={draft.own_backlog}
        error={errors.own_backlog}
        onChange={(checked) => onChange({ own_backlog: checked })}
      />
    </div>
  );
}
