/**
 * An overruled change in a planner's words: the field by the label its screen gives it, the
 * kind of record, the values as the screens show them (a stage by its name, a date as a date),
 * and who changed it. Pure (test/renderer/overruled-words.test.ts).
 */
import { formatDateTime, formatDay } from '../../components/dates-format.js';
import type { MessageKey, Translate } from '../../i18n/index.js';
import { en } from '../../i18n/messages.en.js';
import type { OverruledEntry } from './overruled-api.js';

/** The label a screen already gives a field, by resource: the card panel's, the order screens'. */
const screenLabels: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  card: {
    name: 'card.fields.name',
    description: 'card.fields.description',
    stage_id: 'card.fields.stage',
    start_date: 'card.fields.startDate',
    end_date: 'card.fields.endDate',
    start_time: 'card.fields.startTime',
    end_time: 'card.fields.endTime',
    status_id: 'card.status',
  },
  collection: { name: 'backlog.form.name' },
  board: { name: 'boards.name' },
};

/** Screens that label fields by the API's name: `orders.field.code`. */
const labelledByApiName: Readonly<Record<string, string>> = { order: 'orders.field.', order_row: 'orders.rowField.' };

function isKey(key: string): key is MessageKey {
  return Object.hasOwn(en, key);
}

export function fieldLabel(resource: string, field: string, t: Translate): string {
  const candidates = [
    screenLabels[resource]?.[field],
    labelledByApiName[resource] ? `${labelledByApiName[resource]}${field}` : undefined,
    `overruled.field.${field}`,
  ];
  for (const key of candidates) if (key && isKey(key)) return t(key);
  const words = field.replace(/_id$/, '').replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function resourceWord(resource: string, t: Translate): string {
  const key = `overruled.resource.${resource}`;
  return isKey(key) ? t(key) : resource.replace(/_/g, ' ');
}

const dateOnly = /^\d{4}-\d{2}-\d{2}$/;
const instant = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** A value as the screens show it; `name` is the name of the record it names, when it names one. */
export function valueText(value: unknown, name: string | null, t: Translate): string {
  if (name) return name;
  if (value === null || value === undefined || value === '') return t('overruled.empty');
  if (typeof value === 'string') {
    if (dateOnly.test(value)) return formatDay(value, t.locale, { weekday: 'short', day: 'numeric', month: 'short', year: 'numeric' });
    if (instant.test(value)) return formatDateTime(value, t.locale);
    return `“${value}”`;
  }
  if (typeof value === 'boolean') return value ? t('common.yes') : t('common.no');
  if (typeof value === 'number') return new Intl.NumberFormat(t.locale).format(value);
  return JSON.stringify(value);
}

/** Who changed it: the computer, by the start of its node id (all sync knows of it). */
export function changedBy(entry: Pick<OverruledEntry, 'changed_by'>, t: Translate): string {
  return t('overruled.otherComputer', { node: entry.changed_by.slice(0, 6) });
}

export function changedWhen(entry: Pick<OverruledEntry, 'changed_at'>, t: Translate): string {
  return formatDateTime(entry.changed_at, t.locale);
}
