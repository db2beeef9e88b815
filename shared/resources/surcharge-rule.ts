import { defineResource, externalRefField, idField, jsonField, timestampField, type InputOf, type RecordOf } from '../fields.js';

/** The highest percentage a surcharge rule may pay: ten times the normal hour; more is a typing error. */
export const maxSurchargePercentage = 1000;

/** A rule's `weekdays`: distinct ISO weekdays, Monday = 1 … Sunday = 7 (docs/API.md "Surcharge rules"). */
export function checkSurchargeWeekdays(
  value: unknown,
): string | { problem: string; rule: 'type' | 'minimum' | 'maximum'; limit?: number } | null {
  if (!Array.isArray(value)) return 'must be an array of ISO weekdays (1 = Monday … 7 = Sunday)';
  const problem = 'must hold ISO weekdays: whole numbers from 1 (Monday) to 7 (Sunday)';
  for (const day of value) {
    if (typeof day !== 'number' || !Number.isInteger(day)) return { problem, rule: 'type' };
    if (day < 1) return { problem, rule: 'minimum', limit: 1 };
    if (day > 7) return { problem, rule: 'maximum', limit: 7 };
  }
  if (new Set(value).size !== value.length) return 'names each weekday at most once';
  return null;
}

/**
 * When hours are paid at another percentage, and under which payroll hour code
 * (docs/API.md "Surcharge rules"): on the listed weekdays, and on company holidays when
 * `public_holiday` is set, between `from_time` and `to_time` local time (a window whose start
 * is later than its end runs across midnight; both null: the whole day). Where rules overlap,
 * the highest percentage wins (shared/surcharges.ts). Base data: it syncs, admins write it.
 */
export const surchargeRuleSpec = defineResource({
  name: 'surcharge_rule',
  title: 'SurchargeRule',
  fields: {
    id: idField,
    name: { type: 'string', required: true, maxLength: 150, description: "The rule's name, e.g. Saturday or Night." },
    weekdays: jsonField<number[]>()({
      type: 'json',
      shape: 'array',
      default: [],
      check: checkSurchargeWeekdays,
      items: { type: 'integer', minimum: 1, maximum: 7 },
      description: 'ISO weekdays it holds on, Monday = 1 … Sunday = 7; the weekday of each minute itself counts.',
    }),
    public_holiday: {
      type: 'boolean',
      default: false,
      description: 'Also holds on every whole-day company holiday for everyone, whatever its weekday.',
    },
    from_time: { type: 'time', nullable: true, description: 'Local time (HH:MM) it starts; null: 00:00.' },
    to_time: {
      type: 'time',
      nullable: true,
      description: 'Local time (HH:MM) it ends, not included; null: midnight. Earlier than from_time: across midnight.',
    },
    percentage: {
      type: 'number',
      required: true,
      maximum: maxSurchargePercentage,
      description: 'What an hour is paid at, in percent of the normal hour (150: time and a half); more than 0.',
    },
    hour_code: {
      type: 'string',
      nullable: true,
      blankIsNull: true,
      maxLength: 50,
      description: "The payroll package's code for these hours; null: the activity's own hour_code.",
    },
    external_ref: externalRefField,
    created_at: timestampField,
    updated_at: timestampField,
  },
});
export type SurchargeRule = RecordOf<typeof surchargeRuleSpec>;
export type SurchargeRuleInput = InputOf<typeof surchargeRuleSpec>;
