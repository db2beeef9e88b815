/** The surcharge rule form's working copy, the body it saves as, and a rule in words (docs/API.md "Surcharge rules"). */
import type { WriteBody } from '../../api/resources.js';
import { numberOrDefault, optionalText, requiredText } from '../../components/form-values.js';
import type { Translate } from '../../i18n/index.js';
import type { SurchargeRule } from '../../../shared/resources/surcharge-rule.js';

export const isoWeekdays = [1, 2, 3, 4, 5, 6, 7] as const;

export interface SurchargeRuleDraft {
  name: string;
  weekdays: number[];
  public_holiday: boolean;
  /** HH:MM as the time input holds it; empty: the start or end of the day. */
  from_time: string;
  to_time: string;
  /** As typed. */
  percentage: string;
  hour_code: string;
}

export function newSurchargeRuleDraft(): SurchargeRuleDraft {
  return { name: '', weekdays: [], public_holiday: false, from_time: '', to_time: '', percentage: '', hour_code: '' };
}

export function surchargeRuleDraftFrom(rule: SurchargeRule): SurchargeRuleDraft {
  return {
    name: rule.name,
    // A stored rule's weekdays are whole numbers 1–7 (the API checks them).
    weekdays: rule.weekdays.filter((day): day is number => typeof day === 'number'),
    public_holiday: rule.public_holiday,
    from_time: rule.from_time ?? '',
    to_time: rule.to_time ?? '',
    percentage: String(rule.percentage),
    hour_code: rule.hour_code ?? '',
  };
}

export function surchargeRuleBody(draft: SurchargeRuleDraft, isNew: boolean): WriteBody<'surcharge_rule'> {
  const percentage = numberOrDefault(draft.percentage);
  return {
    name: requiredText(draft.name, isNew),
    weekdays: [...draft.weekdays].sort((a, b) => a - b),
    public_holiday: draft.public_holiday,
    from_time: optionalText(draft.from_time),
    to_time: optionalText(draft.to_time),
    // Blank: left out of a new rule (the API says it is required), null on a change.
    ...(percentage === undefined ? (isNew ? {} : { percentage: null }) : { percentage }),
    hour_code: optionalText(draft.hour_code),
  };
}

/** The fields the form has an input for. */
export const surchargeRuleInputs = ['name', 'weekdays', 'public_holiday', 'from_time', 'to_time', 'percentage', 'hour_code'] as const;

/** When a rule holds, in words: "Mon, Tue · public holidays · 22:00–06:00". */
export function surchargeRuleWhen(rule: SurchargeRule, t: Translate): string {
  const days = isoWeekdays.filter((day) => rule.weekdays.includes(day)).map((day) => t(`common.weekday.${day}`).slice(0, 3));
  const parts = [
    ...(days.length > 0 ? [days.join(', ')] : []),
    ...(rule.public_holiday ? [t('surcharges.publicHolidays')] : []),
    rule.from_time === null && rule.to_time === null ? t('surcharges.wholeDay') : `${rule.from_time ?? '00:00'}–${rule.to_time ?? '24:00'}`,
  ];
  return parts.join(' · ');
}
