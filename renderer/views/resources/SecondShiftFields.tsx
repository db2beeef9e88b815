/**
 * The resource form's second shift (docs/decisions/shifts.md): hours per weekday added to the
 * resource's own, such as a machine's late shift or a Saturday shift. All blank: one shift.
 */
import { useId } from 'react';
import { Field, Hidden } from '../../components/Field.js';
import { FieldError } from '../../components/FieldError.js';
import { weekdays } from '../../components/weekdays.js';
import { useT } from '../../i18n/index.js';
import { dayHoursFit } from './resource-draft.js';
import type { ShiftHours } from './second-shift.js';

interface SecondShiftFieldsProps {
  hours: ShiftHours;
  error: string | undefined;
  onChange(hours: ShiftHours): void;
}

export function SecondShiftFields({ hours, error, onChange }: SecondShiftFieldsProps) {
  const t = useT();
  const errorId = useId();
  return (
    <fieldset className="week-hours form-grid__wide">
      <legend>{t('resources.secondShift')}</legend>
      {weekdays.map(({ key, nameKey }) => {
        // The API names the shift as one field; the day out of range is the one that says why.
        const wrong = error !== undefined && !dayHoursFit(hours[key]);
        return (
          <Field
            key={key}
            label={
              <>
                {t(nameKey)}
                <Hidden> {t('resources.secondShiftHours')}</Hidden>
              </>
            }
          >
            {(control) => (
              <input
                {...control}
                {...(wrong ? { 'aria-invalid': true, 'aria-describedby': errorId } : {})}
                type="number"
                min={0}
                max={24}
                step="any"
                value={hours[key]}
                onChange={(event) => onChange({ ...hours, [key]: event.target.value })}
              />
            )}
          </Field>
        );
      })}
      <FieldError id={errorId} message={error} />
    </fieldset>
  );
}
