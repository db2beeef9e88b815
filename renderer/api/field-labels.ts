/**
 * API field errors in the screen's own words: each resource's fields by the label their input
 * has on screen, and the message made from the rule the API says the value broke (docs/API.md
 * "Field rules and limits"), in the planner's language. "Activity name is required", never
 * "description is required". A field or rule not known here keeps the API's own description.
 */
import type { ApiErrorItem } from '../../shared/errors.js';
import { useT, type MessageKey, type Translate } from '../i18n/index.js';
import { formatDay } from '../components/dates-format.js';
import type { ResourceName } from './resources.js';

type Labels = Readonly<Record<string, MessageKey>>;

/** The resources whose forms label their fields: those with a path of their own, and parts written under another. */
export type LabelledResource = ResourceName | 'order_row' | 'card' | 'comment' | 'schedule_deviation';

/**
 * Field → label, per resource. A field inside a list written inline (a board's stages) is
 * named by its path without the positions: `stages.name`.
 */
export const fieldLabels: Readonly<Partial<Record<LabelledResource, Labels>>> = {
  activity: {
    description: 'activities.name',
    code: 'activities.code',
    resource_type: 'activities.resourceType',
    default_duration: 'activities.defaultDuration',
    day_max_duration: 'activities.dayMaxDuration',
    hourly_rate: 'activities.hourlyRate',
    billable: 'activities.billable',
    hour_code: 'activities.hourCode',
    skill: 'activities.skill',
    crew: 'activities.crew',
  },
  surcharge_rule: {
    name: 'surcharges.name',
    weekdays: 'surcharges.weekdays',
    public_holiday: 'surcharges.publicHoliday',
    from_time: 'surcharges.from',
    to_time: 'surcharges.to',
    percentage: 'surcharges.percentage',
    hour_code: 'surcharges.hourCode',
  },
  payroll_setting: {
    vacation_hour_code: 'payrollSettings.vacation',
    sick_hour_code: 'payrollSettings.sick',
    leave_hour_code: 'payrollSettings.leave',
    holiday_hour_code: 'payrollSettings.holiday',
    time_for_time_hour_code: 'payrollSettings.timeForTime',
    overtime_per: 'payrollSettings.overtimePer',
    nmbrs_debtor_number: 'payrollSettings.nmbrsDebtor',
    nmbrs_company_number: 'payrollSettings.nmbrsCompany',
    datev_consultant_number: 'payrollSettings.datevConsultant',
    datev_client_number: 'payrollSettings.datevClient',
  },
  resource: {
    name: 'resources.name',
    type: 'resources.type',
    color_hex: 'resources.color',
    start_date: 'resources.startDate',
    end_date: 'resources.endDate',
    skills: 'resources.skills',
    // Every weekday's hours are one field; the form marks the day that is wrong.
    workdays: 'fieldError.label.dayHours',
  },
  // A resource's absences (its schedule deviations), on the Resources screen.
  schedule_deviation: {
    type: 'absences.type',
    start_date: 'absences.from',
    end_date: 'absences.until',
    time: 'absences.hoursOff',
    description: 'absences.note',
  },
  board: {
    name: 'boards.name',
    color: 'boards.color',
    dependency_behavior: 'boards.dependencyBehavior',
    capacity_method: 'boards.capacityMethod',
    'stages.name': 'fieldError.label.stageName',
    'stages.delay_day': 'boards.stage.delayDays',
    'stages.efficiency': 'boards.stage.efficiency',
    'stages.setup_minutes': 'boards.stage.setupMinutes',
  },
  stage: {
    name: 'fieldError.label.stageName',
    delay_day: 'boards.stage.delayDays',
    efficiency: 'boards.stage.efficiency',
    setup_minutes: 'boards.stage.setupMinutes',
  },
  order: {
    code: 'orders.field.code',
    description: 'orders.field.description',
    type: 'orders.field.type',
    status: 'orders.field.status',
    date: 'orders.field.date',
    promised_date: 'orders.field.promised_date',
    desired_date: 'orders.field.desired_date',
    delivered_date: 'orders.field.delivered_date',
    quantity: 'orders.field.quantity',
    'order_rows.code': 'orders.rowField.code',
    'order_rows.description': 'orders.rowField.description',
    'order_rows.activity_id': 'orders.rowField.activity_id',
    'order_rows.quantity': 'orders.rowField.quantity',
    'order_rows.unit': 'orders.rowField.unit',
  },
  order_row: {
    code: 'orders.rowField.code',
    description: 'orders.rowField.description',
    item_id: 'orders.rowField.item_id',
    activity_id: 'orders.rowField.activity_id',
    quantity: 'orders.rowField.quantity',
    unit: 'orders.rowField.unit',
    quantity_delivered: 'orders.rowField.quantity_delivered',
    quantity_backorder: 'orders.rowField.quantity_backorder',
    status: 'orders.rowField.status',
    delivered_date: 'orders.rowField.delivered_date',
  },
  card: {
    name: 'card.fields.name',
    description: 'card.fields.description',
    stage_id: 'card.fields.stage',
    start_date: 'card.fields.startDate',
    end_date: 'card.fields.endDate',
    start_time: 'card.fields.startTime',
    end_time: 'card.fields.endTime',
    'activities.time': 'fieldError.label.time',
  },
  comment: { text: 'fieldError.label.text' },
  time_tracking: {
    start: 'editor.start',
    end: 'editor.end',
    note: 'editor.note',
    activity_id: 'filters.activity',
    status: 'filters.status',
    duration: 'fieldError.label.duration',
  },
};

/**
 * Fields the API counts in minutes and their form in hours (an absence's hours off per day):
 * their bounds are worded in hours, as the planner typed them.
 */
const minutesShownAsHours: Readonly<Partial<Record<LabelledResource, readonly string[]>>> = {
  schedule_deviation: ['time'],
};

/**
 * Fields whose bound of 0 leaves 0 out (a surcharge rule's percentage, docs/API.md "Surcharge
 * rules"): their `minimum` 0 reads "must be more than 0", not "cannot be negative".
 */
const aboveZero: Readonly<Partial<Record<LabelledResource, readonly string[]>>> = {
  surcharge_rule: ['percentage'],
};

/** `stages.1.name` → `stages.name`: a label is the same for every position in a list. */
function labelPath(field: string): string {
  return field
    .split('.')
    .filter((part) => !/^\d+$/.test(part))
    .join('.');
}

function labelOf(t: Translate, resource: LabelledResource, field: string): string | undefined {
  const key = fieldLabels[resource]?.[labelPath(field)];
  return key ? t(key) : undefined;
}

/** Minutes as the time screens write hours: 1530 → "25:30". */
function hoursText(minutes: number): string {
  return `${Math.floor(minutes / 60)}:${String(minutes % 60).padStart(2, '0')}`;
}

function formatLimit(t: Translate, limit: number | undefined): string {
  return limit === undefined ? '' : new Intl.NumberFormat(t.locale).format(limit);
}

/**
 * The message for one error item of a write to `resource`, or undefined when it is not about
 * a field this screen labels, or has no rule known here (the API's description is shown then).
 */
export function fieldMessage(t: Translate, resource: LabelledResource, item: ApiErrorItem): string | undefined {
  if (!item.field || !item.rule) return undefined;
  if (item.rule === 'codeOrDescription') return t('fieldError.codeOrDescription');
  const label = labelOf(t, resource, item.field);
  if (!label) return undefined;
  if (item.rule === 'minimum' && item.limit === 0 && aboveZero[resource]?.includes(labelPath(item.field)))
    return t('fieldError.positive', { label });
  return ruleMessage(t, label, item, minutesShownAsHours[resource]?.includes(labelPath(item.field)) === true);
}

/**
 * The broken rule of one error item, said of the field by its `label`, or undefined for a rule
 * not known here. `inHours`: the API counts the field in minutes, the form in hours. Also for a
 * field no form labels (a refused change of sync names it by the label sync gives it).
 */
export function ruleMessage(t: Translate, label: string, item: ApiErrorItem, inHours = false): string | undefined {
  const limit = formatLimit(t, inHours && item.limit !== undefined ? item.limit / 60 : item.limit);
  // At least one minute, in hours: more than none.
  if (inHours && item.rule === 'minimum' && item.limit !== undefined && item.limit > 0) return t('fieldError.positive', { label });
  switch (item.rule) {
    case 'codeOrDescription':
      return t('fieldError.codeOrDescription');
    case 'required':
      return t('fieldError.required', { label });
    case 'type':
      if (/must be a number|must be an integer/.test(item.description)) return t('fieldError.typeNumber', { label });
      if (/must be a date/.test(item.description)) return t('fieldError.typeDate', { label });
      return t('fieldError.type', { label });
    case 'minimum':
      return item.limit === 0 ? t('fieldError.negative', { label }) : t('fieldError.minimum', { label, limit });
    case 'maximum':
      return t('fieldError.maximum', { label, limit });
    case 'maxLength':
      return t('fieldError.maxLength', { label, limit });
    case 'enum':
      return t('fieldError.enum', { label });
    case 'pattern':
      return t('fieldError.pattern', { label });
    case 'unique':
      return t('fieldError.unique', { label });
    case 'noWork':
      return labelPath(item.field ?? '').endsWith('unit') ? t('fieldError.noWorkPieces') : t('fieldError.noWork', { label });
    case 'tooMuchWork':
      return t('fieldError.tooMuchWork', { label });
    case 'endAfterStart':
      return t('fieldError.endAfterStart', { label });
    case 'notBeforeStart':
      return t('fieldError.notBeforeStart', { label });
    case 'reference':
      return t('fieldError.reference', { label });
    case 'tooLong':
      return t('fieldError.tooLong');
    case 'timerRunning':
      return t('fieldError.timerRunning');
    case 'dayLimit':
      // The day and hours as the time screens write them ("Wed 2 Dec", "25:30").
      return item.date !== undefined && item.minutes !== undefined
        ? t('fieldError.dayLimit', {
            day: formatDay(item.date, t.locale),
            hours: hoursText(item.minutes),
            // 24, or 25 on the night summer time ends (shared/entry-days.ts).
            limit: Math.round((item.limit ?? 24 * 60) / 60),
          })
        : undefined;
    default:
      return undefined;
  }
}

/** Words one resource's field errors in the planner's language; pass to placeFieldErrors or fieldErrors. */
export type FieldWording = (item: ApiErrorItem) => string | undefined;

export function useFieldWording(resource: LabelledResource): FieldWording {
  const t = useT();
  return (item) => fieldMessage(t, resource, item);
}
