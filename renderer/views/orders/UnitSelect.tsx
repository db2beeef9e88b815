/**
 * An order row's unit, as a choice of the units that plan work (docs/API.md "Order row units"):
 * minutes, hours, days, or pieces that each take the activity's default duration. A row that
 * came with another unit (from a spreadsheet or another program) keeps it, shown as written, so
 * opening an order never changes it silently. Days say how many hours a day counts for.
 */
import type { SelectHTMLAttributes } from 'react';
import { hoursPerDay, planningUnits, type PlanningUnit } from '../../../shared/resources/order-row.js';
import { useT, type Translate } from '../../i18n/index.js';

const isPlanningUnit = (unit: string): unit is PlanningUnit => (planningUnits as readonly string[]).includes(unit);

/** "hours", "uren": a unit that plans work in the screen's language; any other as written. */
export function unitName(t: Translate, unit: string): string {
  return isPlanningUnit(unit) ? t(`orders.unit.${unit}`) : unit;
}

interface UnitSelectProps extends Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange'> {
  value: string;
  onChange: (unit: string) => void;
}

export function UnitSelect({ value, onChange, ...select }: UnitSelectProps) {
  const t = useT();
  return (
    <select {...select} value={value} onChange={(event) => onChange(event.target.value)}>
      <option value="">{t('orders.unit.none')}</option>
      {value !== '' && !isPlanningUnit(value) && <option value={value}>{value}</option>}
      {planningUnits.map((unit) => (
        <option key={unit} value={unit}>
          {unitName(t, unit)}
        </option>
      ))}
    </select>
  );
}

/** "1 day = 60 h" beside a row in days: the public API's rule, which a planner cannot guess. */
export function UnitHint({ unit }: { unit: string }) {
  const t = useT();
  if (unit !== 'days') return null;
  return <span className="unit-hint">{t('orders.unit.dayHours', { hours: hoursPerDay })}</span>;
}
